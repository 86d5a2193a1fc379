"""The parse cache: an unchanged list opens from the cache, a changed one is parsed again, a
damaged cache is never believed; and the CLI shows reading progress only on a terminal."""
from __future__ import annotations

import operator
import os
import pty
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from store.papers.chunked import ALONE, ids_at, values_of
from store.readers import cache, entry_writer, read_path, read_paths

ABSTRACTS = [
    "We propose HDGNN, a hybrid directional graph neural network for $\\geq 50$\\% fewer edges.",
    "This paper introduces **KoLA**, a knowledge-oriented benchmark. Code: github.com/THU-KEG/KoLA.",
    "Transformers are widely used. We study how they fail on long inputs.",
]


def write_list(path: Path, abstracts: list[str]) -> Path:
    path.write_text("SYNTH 2024\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def cache_files() -> list[Path]:
    return sorted(Path(os.environ["TRIAGE_CACHE"]).glob("*.parse"))


def test_a_reopened_long_list_is_the_same_papers_however_they_are_reached(tmp_path):
    """A reopened list's papers are made a chunk at a time when first asked for (store.papers.chunked: a million are
    searchable before they are objects): the very papers of the parse, in order, their fields readable without making
    them, and each one object however it is reached (by row, alone or its chunk made, from the end, by a pass over all,
    from threads at once), as marks, the selection and the list's origin take them."""
    abstracts = [f"We study scheduling problem {k} on {k % 97} machines with a new bound. It improves {k % 13} results."
                 for k in range(5000)]
    path = write_list(tmp_path / "long.txt", abstracts)
    first = read_path(path)
    second = read_path(path)
    papers = second.papers
    assert list(values_of(papers, "title")) == [paper.title for paper in first.papers]  # (no paper made for it)
    found: list = []
    threads = [threading.Thread(target=lambda: found.append(papers[4500])) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 4 and all(paper is papers[4500] for paper in found)
    alone = papers[4500]  # (a paper asked for alone is made alone, its chunk not: a screen of hits of a long list)
    assert papers._made[1] is None and alone == first.papers[4500] and (alone.text, alone.plain, alone.fields) == (
        first.papers[4500].text, first.papers[4500].plain, first.papers[4500].fields)
    lone = [papers[4096 + 7 * k] for k in range(ALONE + 2)]  # (a screen of rows and more of one chunk: alone, then whole)
    assert papers._made[1] is not None and all(paper is papers[4096 + 7 * k] for k, paper in enumerate(lone))
    assert lone == [first.papers[4096 + 7 * k] for k in range(ALONE + 2)] and alone is papers[4500]
    assert papers[-1] is papers[4999] and papers[4095:4097] == [papers[4095], papers[4096]]
    assert all(map(operator.is_, papers, [papers[k] for k in range(len(papers))]))
    assert papers == first.papers and [paper.id for paper in papers] == second.ids
    assert papers + [] == 1 * papers == list(papers) and len(papers * 2) == 10_000  # (as a list adds and repeats)
    assert (whole := read_paths([path])).origin.of(whole.papers)  # (the same objects: still of the parse)


def test_a_reopened_lists_ids_are_read_a_slice_at_a_time_as_they_are_asked_for(tmp_path, monkeypatch):
    """A reopened list's ids column is read where it lies, a slice of them when asked (at 2,700,000 papers, joined
    whole at the open: 0.69 s before the list could land): finding a paper by its id reads its slice alone, and the
    column answers as the list of the papers' ids does."""
    import marshal
    import types

    from store.common import sliced
    from store.papers.rows import ById

    abstracts = [f"We schedule {k} jobs on {k % 89} machines under a new bound. It improves {k % 11} results."
                 for k in range(2 * sliced.SLICE + 9)]
    monkeypatch.setattr(entry_writer, "LOOKUPS_FROM", 1000)  # (the ids' look-up kept, as a long list's is)
    path = write_list(tmp_path / "long.txt", abstracts)
    parsed = [paper.id for paper in read_path(path).papers]
    read: list[int] = []

    def counted(data: bytes) -> object:
        values = marshal.loads(data)
        read.append(len(values))
        return values

    monkeypatch.setattr(sliced, "marshal", types.SimpleNamespace(loads=counted, dumps=marshal.dumps))
    reopened = read_path(path)
    ids = reopened.ids
    by_id = ById.of(reopened)
    assert by_id.row(parsed[5000]) == 5000 and by_id.found(parsed[100]) == 100
    assert read == [9, sliced.SLICE, sliced.SLICE]  # (the last slice, to know the column is whole; then the two asked)
    assert ids == parsed and list(ids) == parsed and len(ids) == len(parsed) and ids[-1] == parsed[-1]
    assert ids[4090:4100] == parsed[4090:4100] and ids[::4000] == parsed[::4000] and ids[9:3] == []
    assert ids.index(parsed[8200]) == 8200 and parsed[4097] in ids and "no such id" not in ids
    read.clear()
    ranked = [8200, 3, 4100, 8195, 4, 4101, 3]  # (a query's hits, ranked: from slice to slice)
    assert ids_at(reopened.papers, ranked) == [parsed[row] for row in ranked] and sorted(read) == [9, 4096, 4096]
    with pytest.raises(IndexError):
        ids[len(parsed)]
    with pytest.raises(ValueError):
        ids.index(parsed[10], 11)


def test_each_paper_of_a_reopened_list_made_alone_has_every_field_it_was_parsed_with(tmp_path):
    """A paper made alone reads each of its values alone from its slice of the column (`store.common.sliced.indexed`):
    titles and authors beyond ASCII or with a lone surrogate, links, keywords, a year or none, empty fields, a display
    text of its own (LaTeX rendered) or the text itself: every one as the parse made it."""
    import json

    records = [{"title": f"Ünïcode \ud800 title {k} — ∑" if k % 3 else f"Plain title {k}",
                "abstract": f"We bound $\\alpha_{k}$ in {k} steps." if k % 2 else f"Plain abstract number {k} of the list.",
                "authors": [f"Zoë Ng {k}", "李 雷"] if k % 4 else [], "year": 2000 + k % 7 if k % 5 else None,
                "url": f"https://example.org/{k}" if k % 2 else "", "keywords": ["cs.LG", f"k{k % 3}"] if k % 3 else []}
               for k in range(60)]
    path = tmp_path / "odd.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8", errors="surrogatepass")
    fresh = read_path(path).papers
    papers = read_path(path).papers
    assert [papers[k] for k in reversed(range(len(papers)))][::-1] == fresh and papers == fresh


def test_an_unchanged_file_reads_the_same_from_the_cache(tmp_path):
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    first = read_path(path)
    assert len(cache_files()) == 1
    second = read_path(path)
    assert second == first
    # the reopened list's ids are a column of its entry, the very ids its papers have, and `read_paths` keeps it
    assert first.ids is None and second.ids == [p.id for p in second.papers] == read_paths([path]).ids
    assert [p.title for p in second.papers][:2] == ["HDGNN — a hybrid directional graph neural network for ≥ 50% fewer edges",
                                                   "KoLA — a knowledge-oriented benchmark"]
    assert read_paths([tmp_path]) == read_paths([tmp_path])


def test_an_edited_file_is_parsed_again_even_at_the_same_size_and_time(tmp_path):
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    before = path.stat()
    assert read_path(path).papers[2].title == "Transformers are widely used"
    write_list(path, ABSTRACTS[:2] + [ABSTRACTS[2].replace("Transformers", "Transformerz")])
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert read_path(path).papers[2].title == "Transformerz are widely used"


def values(entry: bytes, path: Path) -> object:
    """What a whole entry of the list `path` holds: its papers, their fields, in order (not always the same bytes for
    the same values: marshal flags the objects it meets more than once, and which those are depends on how the parse
    shared them)."""
    collection = cache.decode(entry, cache.parse_key(path), path, str(path))
    return [(paper, paper.text, paper.plain, paper.fields, paper.position) for paper in collection.papers]


def test_a_damaged_cache_is_ignored_and_rebuilt(tmp_path):
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    fresh = read_path(path)
    [entry] = cache_files()
    good = entry.read_bytes()
    for damage in (b"", b"not a cache at all", good[: len(good) // 2], good[:-9] + b"\x00" * 9):
        entry.write_bytes(damage)
        assert read_path(path) == fresh
        assert values(entry.read_bytes(), path) == values(good, path)  # rebuilt


def test_a_changed_byte_anywhere_in_an_entry_is_never_believed(tmp_path, monkeypatch):
    """Each entry carries a CRC-32 of itself: any one changed byte means the list is parsed again
    (the papers are a fresh parse's) and the entry rebuilt; none ever alters a paper, nor the rows a long list's
    entry keeps of its ids (`entry_writer.LOOKUPS`: a byte among them changed is as any other)."""
    import marshal
    import random

    monkeypatch.setattr(entry_writer, "LOOKUPS_FROM", 1)  # (this short list's entry keeps them as a long one's does)
    path = write_list(tmp_path / "list.txt", [f"{text} Variant {i}." for i in range(8) for text in ABSTRACTS])
    fresh = read_path(path)
    [entry] = cache_files()
    good = entry.read_bytes()
    size = int.from_bytes(good[-8:], "big")  # (the directory's length, last, after it: the slices after MAGIC and the CRC)
    (start, length), _ = marshal.loads(good[-8 - size : -8])[-1]["id"]  # (the ids' hashes, laid among the slices)
    rng = random.Random(6)
    for at in [*(rng.randrange(len(good)) for _ in range(80)), *(8 + start + rng.randrange(length) for _ in range(8))]:
        damaged = bytearray(good)
        damaged[at] = rng.choice([b for b in range(256) if b != good[at]])
        entry.write_bytes(bytes(damaged))
        assert read_path(path) == fresh, f"byte {at} of the entry changed the papers"
        assert values(entry.read_bytes(), path) == values(good, path)  # rebuilt


def test_an_entry_checked_ahead_is_believed_only_while_it_is_that_very_file(tmp_path):
    """A cached list's app has the CRC of its entry worked out on a thread before its first frame
    (`cache.check_entry_ahead`): an entry damaged before that check, or replaced by a damaged one after it (every
    entry is written so: renamed into place), is never believed either; an unchanged one gives the same papers."""
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    fresh = read_path(path)
    [entry] = cache_files()
    good = entry.read_bytes()
    damaged = good[:-1] + bytes([good[-1] ^ 0xFF])
    entry.write_bytes(damaged)
    cache.check_entry_ahead(str(path))
    assert read_path(path) == fresh and values(entry.read_bytes(), path) == values(good, path)  # rebuilt
    cache.check_entry_ahead(str(path))
    replacement = tmp_path / "replacement"
    replacement.write_bytes(damaged)
    os.replace(replacement, entry)
    assert read_path(path) == fresh and values(entry.read_bytes(), path) == values(good, path)  # rebuilt
    cache.check_entry_ahead(str(path))
    assert read_path(path) == fresh and entry.read_bytes() == good


def crashed_writer(entry: Path) -> Path:
    """The temporary file a process leaves when it dies while writing cache `entry`."""
    folder = entry.parent
    before = set(folder.iterdir()) if folder.exists() else set()
    code = "import os, sys, pathlib; from store.readers import cache; " \
           "cache._store(pathlib.Path(sys.argv[1]), lambda out: (out.write(b'half an entry'), out.flush(), os._exit(9)))"
    assert subprocess.run([sys.executable, "-c", code, str(entry)]).returncode == 9
    [temporary] = set(folder.iterdir()) - before
    return temporary


def test_temporary_files_of_dead_writers_are_removed_when_the_cache_is_next_written(tmp_path):
    folder = Path(os.environ["TRIAGE_CACHE"])
    dead = crashed_writer(folder / f"{'0' * 32}.parse")
    dead_before_naming = folder / ".k2j4_9az.tmp"  # named as they were before this release
    dead_before_naming.write_bytes(b"half")
    others = [folder / ".notes.tmp", folder / "notes.tmp", folder / "kept.txt"]
    for path in others:
        path.write_bytes(b"not the cache's")
    an_hour_ago = time.time() - 3600
    for path in (dead, dead_before_naming, *others):
        os.utime(path, (an_hour_ago, an_hour_ago))
    writing_now = crashed_writer(folder / f"{'1' * 32}.index")  # as a live writer's looks
    read_path(write_list(tmp_path / "list.txt", ABSTRACTS))
    assert not dead.exists() and not dead_before_naming.exists()
    assert writing_now.exists() and all(path.exists() for path in others)
    assert len(cache_files()) == 1


def test_an_unwritable_cache_folder_only_costs_time(tmp_path, monkeypatch):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("TRIAGE_CACHE", str(blocked / "cache"))
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    assert read_path(path) == read_path(path)
    assert len(read_path(path).papers) == 3


def test_a_large_entry_is_written_in_the_background_and_found_whole(tmp_path, monkeypatch):
    """A long list's entry is written while the list is already in use; the next open, in the
    same process or the next one, reads it from the cache (here: without being able to parse)."""
    import store.readers
    from store.readers import cache

    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    code = "import sys; from store.readers import cache; cache.BACKGROUND_FROM = 0; from store.readers import read_path; read_path(sys.argv[1])"
    subprocess.run([sys.executable, "-c", code, str(path)], check=True)
    parse = store.readers._parse
    monkeypatch.setattr(store.readers, "_parse", lambda name, p: pytest.fail("parsed again"))
    fresh = read_path(path)
    assert [p.title for p in fresh.papers][2] == "Transformers are widely used"

    write_list(path, ABSTRACTS[::-1])  # changed: parsed once more, then cached in the background
    monkeypatch.setattr(cache, "BACKGROUND_FROM", 0)
    monkeypatch.setattr(store.readers, "_parse", parse)
    first = read_path(path)
    monkeypatch.setattr(store.readers, "_parse", lambda name, p: pytest.fail("parsed again"))
    assert read_path(path) == first
    assert first.papers[0].title == "Transformers are widely used"


def run_triage(args: list[str], stderr_on_terminal: bool) -> str:
    """stderr of `triage ARGS`, attached to a pseudo-terminal or to a pipe."""
    command = [sys.executable, "-m", "tui", *args]
    if not stderr_on_terminal:
        return subprocess.run(command, capture_output=True, text=True, check=True).stderr
    main, child = pty.openpty()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=child)
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal closed: the command is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    assert process.wait() == 0
    return b"".join(chunks).decode()


def test_reading_progress_shows_on_a_terminal_only(tmp_path):
    path = write_list(tmp_path / "list.txt", ABSTRACTS)
    shown = run_triage(["list", str(path)], stderr_on_terminal=True)
    assert "reading " in shown and f"{path.name}… 3 abstracts" in shown  # (the path, or its name where it is too long)
    assert shown.endswith("\r\x1b[K")  # the line is erased once the list is read
    assert run_triage(["list", str(path)], stderr_on_terminal=False) == ""


def test_a_cached_lists_head_is_its_parses_first_papers_and_nothing_is_parsed(corpora, monkeypatch):
    """A long list opens from its first papers at once; when the parse cache holds the list they come from
    there, exactly the whole read's first papers (titles, names, display texts), with no parse at all."""
    from store.readers import quick, seed

    path = str(corpora / "iclr-2024-abstracts.txt")
    whole = read_path(path)
    cache.settle()

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(seed, "parse", no_parse)
    head = quick.head(path, 0, cached=True)
    assert head is not None and 20 < len(head.papers) < len(whole.papers)
    assert head.papers == whole.papers[: len(head.papers)]
    assert [paper.plain for paper in head.papers] == [paper.plain for paper in whole.papers[: len(head.papers)]]
    assert (head.header, head.venue, head.year, head.sources) == (whole.header, whole.venue, whole.year, [path])


def test_a_damaged_foreign_or_outdated_head_entry_is_never_believed(tmp_path):
    """Any doubt about a head entry (a changed byte, another list's entry, the list edited since): the head
    is parsed from the file, as without a cache."""
    from store.readers import quick

    lists = [write_list(tmp_path / f"list{k}.txt", [f"{k}.{i}: {text}" for i in range(60) for text in ABSTRACTS])
             for k in (1, 2)]
    whole = [read_path(path) for path in lists][0]
    entries = [cache.entry_file([path], cache.HEAD_SUFFIX) for path in lists]
    parsed = quick.head(str(lists[0]), 0)
    assert cache.head(str(lists[0])).papers == whole.papers  # (a short list: all of it)
    assert parsed.papers == whole.papers[: len(parsed.papers)]
    data = entries[0].read_bytes()
    for at in (4, len(data) // 2, len(data) - 1):  # the CRC, the key, the last paper's fields
        entries[0].write_bytes(data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :])
        assert cache.head(str(lists[0])) is None
        assert quick.head(str(lists[0]), 0, cached=True) == parsed
    entries[0].write_bytes(entries[1].read_bytes())  # the other list's entry under this one's name
    assert cache.head(str(lists[0])) is None
    entries[0].write_bytes(data)
    os.utime(lists[0], ns=(time.time_ns(), time.time_ns()))  # touched since it was cached
    assert cache.head(str(lists[0])) is None
    assert quick.head(str(lists[0]), 0, cached=True) == parsed


def test_a_list_reached_by_another_path_is_read_from_the_cache_under_the_name_given_now(tmp_path, monkeypatch):
    """The same file opened as `list.jsonl` from its folder, by its absolute path and through a link is one parse
    (each of them parsed it again before: ~15 minutes at 2,700,000 papers, with every entry kept beside it): its
    papers, head, ids and warnings say the name it is read under now, as a parse of that name would."""
    import store.readers as readers
    from store.readers import ids

    records = [f'{{"title": "Paper {k}", "abstract": "We study problem {k} and solve it. It works well."}}' for k in range(6)]
    listed = tmp_path / "lists" / "list.jsonl"
    listed.parent.mkdir()
    listed.write_text("\n".join([*records[:3], "{not json", *records[3:]]) + "\n", encoding="utf-8")
    (tmp_path / "link.jsonl").symlink_to(listed)
    parses: list[str] = []
    monkeypatch.setattr(readers, "_parse", lambda name, p, _was=readers._parse: parses.append(name) or _was(name, p))
    monkeypatch.chdir(listed.parent)
    first = read_path("list.jsonl")
    cache.settle()
    for name in (str(listed), str(tmp_path / "link.jsonl"), "./list.jsonl", "list.jsonl"):
        again = read_path(name)
        assert [paper.source for paper in again.papers] == [name] * 6 and again.sources == [name]
        assert again.warnings == [f"{name}:4: skipped a line that is not JSON (Expecting property name enclosed in double quotes)"]
        assert [(paper.id, paper.title, paper.line) for paper in again.papers] == [
            (paper.id, paper.title, paper.line) for paper in first.papers]
        assert [paper.source for paper in cache.head(name).papers] == [name] * 6
        known = ids.ids([name])
        assert known is not None and known.sources == [name] and known.warnings == again.warnings
    assert parses == ["list.jsonl"]
