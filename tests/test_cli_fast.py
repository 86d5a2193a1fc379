"""`triage set` on a cached list: found by the list's ids entry, not by loading the list, with
the same marks, fingerprints and re-found states as before; and a subcommand imports only what it
uses (a .txt list read from the cache needs neither numpy, but to look up its identities the first time a database sees
it, nor the BibTeX, LaTeX or charset libraries)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from store.readers import read_path
from store.marks.db import TriageStore
from store.papers.model import fingerprint
from tests.test_parse_cache import write_list
from tests.tmux import triage_command

HEAVY = ("numpy", "bibtexparser", "pylatexenc", "charset_normalizer", "ahocorasick_rs", "rapidfuzz", "textual", "sklearn")
ABSTRACTS = [
    "We propose HDGNN, a hybrid directional graph neural network for $\\geq 50$\\% fewer edges. It needs"
    " no retraining when the graph changes and keeps nine tenths of the accuracy of the full model on every benchmark we ran.",
    "This paper introduces **KoLA**, a knowledge-oriented benchmark. Code: github.com/THU-KEG/KoLA.",
    "Transformers are widely used. We study how they fail on long inputs.",
]


def triage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([triage_command(), *args], capture_output=True, text=True, timeout=120)


def ids_entries() -> list[Path]:
    return sorted(Path(os.environ["TRIAGE_CACHE"]).glob("*.ids"))


def heavy_modules_after(argv: list[str]) -> str:
    """Which of the `HEAVY` libraries `triage ARGV` imports, as a fresh process runs it."""
    code = (
        "import sys; from tui.cli import main\n"
        f"assert main({argv!r}) == 0\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[-1]


def test_set_on_a_cached_txt_list_imports_nothing_it_does_not_use(tmp_path):
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    pid = read_path(path).papers[1].id  # cached now
    assert heavy_modules_after(["set", pid, str(path), "--star"]) == "[]"
    assert TriageStore(os.environ["TRIAGE_DB"]).attach(read_path(path).papers)[pid].starred


def test_list_of_a_cached_txt_list_imports_no_parsing_library(tmp_path):
    """Opened the first time in a database, its papers' identities are looked up among those seen (numpy: hashes); opened
    again unchanged, nothing is looked up, and nothing heavy is imported."""
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    read_path(path)
    assert heavy_modules_after(["list", str(path)]) == "['numpy']"
    assert heavy_modules_after(["list", str(path)]) == "[]"


def test_set_from_the_ids_entry_stores_what_set_from_the_list_stores(tmp_path):
    """The same marks, fingerprints and records whether `set` read the list or only its ids and parse entries."""
    from store.readers import ids

    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    papers = read_path(path).papers
    assert len(ids_entries()) == 1
    for db, entry in (("read.json", False), ("ids.json", True)):
        if not entry:  # nothing cached: `set` reads the list (and caches it)
            for cached in Path(os.environ["TRIAGE_CACHE"]).iterdir():
                cached.unlink()
            assert ids.ids([str(path)]) is None
        else:
            assert ids.ids([str(path)]) is not None
        result = triage("set", papers[0].id[:6], str(path), "--star", "--note", "hm", "--db", str(tmp_path / db), "--format", "jsonl")
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["starred"] is True
    docs = [TriageStore(tmp_path / db)._table.get(doc_id=papers[0].id) for db in ("read.json", "ids.json")]
    when = ("updated", "fields")  # when, and on which device (another database: another device), each mark was made
    assert {k: v for k, v in docs[0].items() if k not in when} == {k: v for k, v in docs[1].items() if k not in when}
    assert docs[1]["fp"] == fingerprint(papers[0].text) != ""
    # the paper's record: read from the parse entry alone (the paper's first mark) as from the list read whole
    records = [TriageStore(tmp_path / db).records() for db in ("read.json", "ids.json")]
    assert records[0] == records[1] and list(records[0]) == [papers[0].id] and records[0][papers[0].id]["abstract"] == papers[0].text


def test_set_on_an_edited_cached_list_finds_the_state_of_the_edited_abstract(tmp_path):
    """A typo fixed in the list changes the paper's id; `set` with the cached list moves the old
    state to the new id first, as the app does, and keeps its marks."""
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    old = read_path(path).papers[0]
    assert triage("set", old.id, str(path), "--star").returncode == 0
    write_list(path, [ABSTRACTS[0].replace("retraining", "re-training"), *ABSTRACTS[1:]])
    new = read_path(path).papers[0]  # parsed again and cached, with its ids entry
    assert new.id != old.id and len(ids_entries()) == 1
    result = triage("set", new.id, str(path), "--priority", "2", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"id": new.id, "read": False, "starred": True, "priority": 2, "dismissed": False,
                                              "note": "", "tags": []}
    assert TriageStore(os.environ["TRIAGE_DB"]).ids() == [new.id]


def test_list_of_an_edited_cached_list_finds_the_state_by_its_kept_fingerprints(tmp_path):
    """`list` re-finds the state of an edited abstract by the fingerprints its ids entry keeps (not worked out again
    from 100,000 texts whenever any mark's paper is not in the list: a star in another list), and only by them."""
    from store.readers import ids

    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    old = read_path(path).papers[0]
    assert triage("set", old.id, str(path), "--star").returncode == 0
    write_list(path, [ABSTRACTS[0].replace("retraining", "re-training"), *ABSTRACTS[1:]])
    edited = read_path(path)  # parsed again and cached, with its ids entry
    assert ids.fingerprints(edited.origin, edited.papers) == [fingerprint(p.text) for p in edited.papers]
    result = triage("list", str(path), "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["starred"] for line in result.stdout.splitlines()] == [True, False, False]
    assert TriageStore(os.environ["TRIAGE_DB"]).ids() == [edited.papers[0].id]


def test_a_damaged_or_stale_ids_entry_is_never_believed(tmp_path):
    from store.readers import ids

    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    papers = read_path(path).papers
    [entry] = ids_entries()
    good = entry.read_bytes()
    for damage in (b"", b"not an entry", good[: len(good) // 2], good[:-9] + b"\x00" * 9):
        entry.write_bytes(damage)
        assert ids.ids([str(path)]) is None
        result = triage("set", papers[2].id, str(path), "--read")
        assert result.returncode == 0, result.stderr
    write_list(path, ABSTRACTS[:2])  # the list changed: the entry of the old one stands for nothing
    assert ids.ids([str(path)]) is None
    result = triage("set", papers[1].id, str(path), "--unread")
    assert result.returncode == 0, result.stderr
    assert len(ids_entries()) == 1 and ids.ids([str(path)]) is not None  # read again, and its ids kept


def test_two_cached_lists_give_their_papers_once_in_reading_order(tmp_path):
    from store.readers import ids

    first = write_list(tmp_path / "a.txt", ABSTRACTS[:2])
    second = write_list(tmp_path / "b.txt", ABSTRACTS[1:])
    for path in (first, second):
        read_path(path)
    found = ids.ids([str(first), str(second)])
    assert found is not None
    assert [paper.id for paper in found.papers] == [paper.id for paper in
                                                    [*read_path(first).papers, read_path(second).papers[1]]]
    assert found.sources == [str(first), str(second)]
    assert ids.ids([str(first), str(tmp_path)]) is None  # a directory: read as the list reader reads it


def test_the_output_boundary_finds_controls_among_other_letters_as_before():
    """`inert` looks at the non-ASCII part of a mostly-ASCII line only: it still finds every control
    and format character there, alone, beside accented letters, LaTeX symbols or a lone surrogate."""
    from store.papers.inert import _CONTROL, inert

    line = '{"title": "Méthode — ≥ 50% ∑ café", "text": "naïve "}'
    for bad in ("\x1b[31m", "\x9b31m", "\u202e", "\u200b", "\u00ad", "\ufeff", "\U000e0041", "\x07", "\x85", "\u061c"):
        for text in (bad, line + bad, bad + line, line[:20] + bad + line[20:], "\ud800" + bad):
            assert inert(text) == _CONTROL.sub("", text) != text
    for text in (line, "\ud800 é", "plain ascii"):
        assert inert(text) is text


def test_set_reaches_a_paper_marked_from_another_list(tmp_path):
    """A paper starred from one list is marked again by id while another list is named (the library keeps
    it): before, `set` refused it as 'in other.txt or the database' although the database had it."""
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    other = write_list(tmp_path / "other.txt", ABSTRACTS[1:2])
    paper = read_path(path).papers[0]
    assert triage("set", paper.id, str(path), "--star").returncode == 0
    for wanted in (paper.id, paper.id[:6]):
        result = triage("set", wanted, str(other), "--priority", "3")
        assert result.returncode == 0, result.stderr
    state = TriageStore(os.environ["TRIAGE_DB"]).get(paper.id)
    assert state.starred and state.priority == 3
