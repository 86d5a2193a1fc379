"""A reopened list keeps its abstracts in its texts entry (`store.readers.texts_entry`) until a paper's text is asked
for: every text is then as parsed. A texts entry damaged, truncated, replaced, missing or made a link, before the open
or after it, never gives another text: the list is parsed again (said in one line when found after the open: on
stderr for the command line, as a notice in the app), and the cache clean-up knows its files."""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

import store.readers
from store.common.errors import ReadError
from store.papers import model
from store.papers.model import kept_text
from store.papers.packed import Packed, Stored
from store.readers import cache, ids, read_path, texts_entry
from store.readers.records import CHUNK
from tests.test_parse_cache import crashed_writer
from tests.tmux import triage_command
from tests.waits import settled, told, until


def long_list(path: Path, count: int, word: str = "Method") -> Path:
    """A list of `count` abstracts in the seed format, each its own paper."""
    path.write_text("SYNTH 2024\n\n" + "\n\n".join(
        f"{word} {k} learns graphs with $\\alpha$-stable walks of length {k * 7}. It beats {k % 13} baselines on **{k % 5}** benchmarks."
        for k in range(count)) + "\n", encoding="utf-8")
    return path


def entry(suffix: str) -> Path:
    [found] = Path(os.environ["TRIAGE_CACHE"]).glob("*" + suffix)
    return found


def reopened(path: Path, monkeypatch) -> list:
    """The papers of `path` from the cache (parsing is not allowed)."""
    with monkeypatch.context() as patch:
        patch.setattr(store.readers, "_parse", lambda name, p: pytest.fail(f"{name} was parsed again"))
        return read_path(path).papers


@pytest.fixture
def listed(tmp_path) -> tuple[Path, list[str]]:
    """A list of three chunks of texts, parsed and cached; its texts as parsed."""
    path = long_list(tmp_path / "list.txt", 2 * CHUNK + 300)
    texts = [paper.text for paper in read_path(path).papers]
    cache.settle()
    return path, texts


@pytest.fixture
def lines(monkeypatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(texts_entry, "tell", said.append)
    return said


def middle_chunk(path: Path) -> int:
    """An offset inside the second chunk of `path`'s texts entry (where its reopened papers say it is)."""
    place = kept_text(read_path(path).papers[CHUNK]).chunk.place
    return place.offset + place.length // 2


def test_a_reopened_list_reads_its_texts_from_its_texts_entry_only_when_asked(listed, monkeypatch):
    path, texts = listed
    papers = reopened(path, monkeypatch)
    chunks = {kept_text(paper).chunk for paper in papers}
    assert all(type(kept_text(paper)) is Packed for paper in papers) and len(chunks) == 3
    assert all(type(chunk) is Stored and chunk.place is not None and chunk._raw is None for chunk in chunks)
    assert papers[CHUNK + 5].text == texts[CHUNK + 5]
    assert [paper.text for paper in papers] == texts
    assert [paper.plain for paper in papers] == [paper.plain for paper in read_path(path).papers]


def test_a_reopened_lists_texts_printed_best_first_read_each_chunk_once_a_batch(listed, monkeypatch):
    """Papers in another order than the file's (a query's best first: `triage list -q`, an export) are given their
    texts, and each chunk of the texts entry is read once a batch, not once a paper (6.5 s of CPU for 24,386 of
    100,000 papers, each read alone)."""
    path, texts = listed
    papers = reopened(path, monkeypatch)
    order = [at for k in range(CHUNK) for at in (k, CHUNK + k, 2 * CHUNK + k) if at < len(papers)]  # (chunk by chunk in turn)
    reads: list[int] = []
    read = texts_entry.Place.read
    monkeypatch.setattr(texts_entry.Place, "read", lambda place: (reads.append(place.offset), read(place))[1])
    assert list(model.texts(papers[at] for at in order)) == [texts[at] for at in order]
    assert len(reads) == 3
    reads.clear()
    assert list(model.texts((papers[at] for at in order), batch=CHUNK)) == [texts[at] for at in order]
    assert len(reads) <= 3 * 3


def flipped(side: Path, at: int) -> None:
    """One byte of `side` changed in place (the same file, size and token)."""
    with side.open("r+b") as out:
        out.seek(at)
        byte = out.read(1)
        out.seek(at)
        out.write(bytes([byte[0] ^ 0x55]))


DAMAGES = {
    "truncated": lambda side, other: side.write_bytes(side.read_bytes()[: side.stat().st_size // 2]),
    "emptied": lambda side, other: side.write_bytes(b""),
    "token changed": lambda side, other: flipped(side, side.stat().st_size - 3),
    "another list's": lambda side, other: side.write_bytes(other.read_bytes()),
    "missing": lambda side, other: side.unlink(),
    "a link to itself": lambda side, other: (os.rename(side, side.with_suffix(".real")), side.symlink_to(side.with_suffix(".real"))),
    "a folder": lambda side, other: (side.unlink(), side.mkdir()),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_texts_entry_not_as_written_is_never_believed_at_the_open(listed, tmp_path, lines, damage):
    path, texts = listed
    other = long_list(tmp_path / "other.txt", 40, "Another")
    read_path(other)
    cache.settle()
    [other_side] = [side for side in Path(os.environ["TRIAGE_CACHE"]).glob("*" + cache.TEXTS_SUFFIX)
                    if side != cache.entry_file([path], cache.TEXTS_SUFFIX)]
    DAMAGES[damage](cache.entry_file([path], cache.TEXTS_SUFFIX), other_side)
    assert [paper.text for paper in read_path(path).papers] == texts  # (parsed again)
    assert lines == []


def test_a_chunk_damaged_in_its_file_reads_the_list_again_and_says_so(listed, monkeypatch, lines):
    """The file's size and token are right, one chunk's bytes are not: found when that chunk is read."""
    path, texts = listed
    flipped(entry(cache.TEXTS_SUFFIX), middle_chunk(path))
    papers = read_path(path).papers
    assert papers[0].text == texts[0] and lines == []  # (the first chunk is whole)
    assert [paper.text for paper in papers] == texts
    assert len(lines) == 1 and "cached texts were damaged: read again from the list" in lines[0] and str(path) in lines[0]
    assert not cache.entry_file([path], cache.SUFFIX).exists()  # (the next open parses and caches it again)
    assert [paper.text for paper in read_path(path).papers] == texts
    cache.settle()
    assert [paper.text for paper in reopened(path, monkeypatch)] == texts


@pytest.mark.parametrize("damage", ["flipped", "truncated", "replaced", "removed"])
def test_a_texts_entry_changed_after_the_open_never_gives_another_text(listed, monkeypatch, lines, damage):
    path, texts = listed
    papers = reopened(path, monkeypatch)
    side = entry(cache.TEXTS_SUFFIX)
    if damage == "flipped":
        flipped(side, middle_chunk(path))
    elif damage == "truncated":
        os.truncate(side, middle_chunk(path))
    elif damage == "replaced":  # (renamed over it, as a newer entry is: the file open is still the one read)
        replacement = side.with_name("new")
        replacement.write_bytes(b"x" * side.stat().st_size)
        os.replace(replacement, side)
    else:
        side.unlink()
    assert [paper.text for paper in papers] == texts
    assert len(lines) == (damage in ("flipped", "truncated"))


def test_a_list_gone_when_its_damaged_texts_are_found_is_one_clear_error(listed, monkeypatch, lines):
    path, texts = listed
    papers = reopened(path, monkeypatch)
    flipped(entry(cache.TEXTS_SUFFIX), middle_chunk(path))
    path.unlink()
    with pytest.raises(ReadError, match="cached texts are damaged"):
        [paper.text for paper in papers]


def test_papers_named_from_a_damaged_texts_entry_are_one_clear_error(listed):
    """`triage set` reads the papers it marks from the parse entry, not the list: it cannot read the list again."""
    path, texts = listed
    flipped(entry(cache.TEXTS_SUFFIX), middle_chunk(path))
    wanted = {paper.id for paper in read_path(path).papers[CHUNK : CHUNK + 2]}
    [first, second] = ids.papers_named([str(path)], wanted)
    with pytest.raises(ReadError, match="cached texts are damaged"):
        first.text


def test_the_command_line_gives_the_same_output_from_a_damaged_texts_entry_and_says_so_once(listed):
    from tests.test_cli_fast import triage

    path, texts = listed
    good = triage("list", str(path), "--format", "jsonl")
    flipped(entry(cache.TEXTS_SUFFIX), middle_chunk(path))
    damaged = triage("list", str(path), "--format", "jsonl")
    assert good.returncode == damaged.returncode == 0 and good.stderr == ""
    assert damaged.stdout == good.stdout and len(good.stdout.splitlines()) == len(texts)
    assert [json.loads(line)["text"] for line in good.stdout.splitlines()] == texts
    [line] = damaged.stderr.splitlines()
    assert line.startswith("triage: ") and "read again from the list" in line


def test_the_clean_up_knows_texts_entries_and_their_writers(tmp_path):
    folder = Path(os.environ["TRIAGE_CACHE"])
    dead = crashed_writer(folder / f"{'0' * 32}.texts")
    old = folder / f"{'2' * 32}.texts"
    old.write_bytes(b"an old texts entry")
    long_ago = time.time() - (cache.KEEP_DAYS + 1) * 86400
    os.utime(dead, (time.time() - 3600,) * 2)
    os.utime(old, (long_ago, long_ago))
    read_path(long_list(tmp_path / "list.txt", 3))
    assert not dead.exists() and not old.exists()
    assert entry(cache.TEXTS_SUFFIX).exists()


async def test_the_detail_pane_shows_the_right_text_from_a_damaged_texts_entry_and_the_app_says_so(listed):
    from tui.app import TriageApp
    from tui.widgets.detail import DetailPane
    from tui.widgets.paper_list import PaperList

    path, texts = listed
    flipped(entry(cache.TEXTS_SUFFIX), middle_chunk(path))
    app = TriageApp(read_path(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        app.query_one(PaperList).cursor = CHUNK + 3  # (a paper of the damaged chunk)
        await until(pilot, lambda: f"Method {CHUNK + 3} learns graphs" in app.query_one(DetailPane).shown_text)
        await until(pilot, lambda: any("read again from the list" in notice.message for notice in told(app)))
    assert texts_entry.tell is texts_entry.say


def test_a_reopened_records_other_fields_are_read_from_its_texts_entry_and_never_wrong(tmp_path, monkeypatch, lines):
    """A JSON Lines record's other columns (what the detail pane shows, what a citation writes back) are kept in the
    texts entry too: as parsed after a reopen, and read again with the list when their chunk is damaged."""
    from store.papers.model import _KEPT_FIELDS, Paper

    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps({"title": f"Paper {k}", "abstract": f"Method {k} learns graphs, {k * 3} of them.",
                                        "comments": f"{k % 9} pages, «{k}»", "license": None if k % 2 else "CC-BY",
                                        "journal-ref": "" if k % 3 else f"J. Graphs {k}"}) + "\n"
                            for k in range(CHUNK + 40)), encoding="utf-8")
    fields = [paper.fields for paper in read_path(path).papers]
    cache.settle()
    papers = reopened(path, monkeypatch)
    assert all(type(_KEPT_FIELDS.__get__(paper, Paper)) is Packed for paper in papers)
    assert [paper.fields for paper in papers] == fields and any(fields)
    place = _KEPT_FIELDS.__get__(papers[CHUNK], Paper).chunk.place
    flipped(entry(cache.TEXTS_SUFFIX), place.offset + place.length // 2)
    papers = read_path(path).papers
    assert [paper.fields for paper in papers] == fields and len(lines) == 1


def test_a_reopened_records_citation_writes_the_fields_its_parse_writes(tmp_path, monkeypatch):
    """A citation reads a reopened paper's other fields only when their text may name one it writes: every field
    named so is still written, whatever its case, spelling or neighbours (a value ending in `[`, a quote in a name)."""
    from store.cite.citations import bibtex

    others = [{"comments": "see [", "license": "CC"}, {"Journal": "J. Graphs"}, {"ſeries": "Lecture Notes"},
              {"note": "of [1]"}, {'a"b': "q", "Publisher": "Graph Press"}, {"submitter": "Ann [x]"}]
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps({"title": f"Paper {k}", "abstract": f"Method {k} learns graphs.", **others[k % 6]})
                            + "\n" for k in range(CHUNK + 40)), encoding="utf-8")
    parsed = bibtex(read_path(path).papers)
    cache.settle()
    assert bibtex(reopened(path, monkeypatch)) == parsed
    assert all(f"{{{value}}}" in parsed for value in ("J. Graphs", "Lecture Notes", "of [1]", "Graph Press"))


def test_a_reopened_lists_texts_entry_is_kept_by_the_clean_up_as_its_parse_entry_is(listed, monkeypatch):
    path, texts = listed
    long_ago = time.time() - (cache.KEEP_DAYS + 1) * 86400
    for suffix in (cache.SUFFIX, cache.TEXTS_SUFFIX):
        os.utime(entry(suffix), (long_ago, long_ago))
    assert [paper.text for paper in reopened(path, monkeypatch)] == texts
    assert entry(cache.TEXTS_SUFFIX).stat().st_mtime > long_ago + 86400


@pytest.mark.parametrize("suffix", [cache.SUFFIX, cache.TEXTS_SUFFIX, cache.FEATURES_SUFFIX])
@pytest.mark.parametrize("planted", ["fifo", "link", "huge"])
def test_a_fifo_a_link_or_a_huge_file_in_place_of_an_entry_is_never_read_or_followed(tmp_path, suffix, planted):
    """The real `triage list --sort interest` with a FIFO, a link to a file of the user's or a 9 GB file in place of
    the list's parse, texts or features entry: the list is read again, nothing hangs, the answer is the same and the
    user's file stays as it was."""
    path = long_list(tmp_path / "list.txt", 1_200)
    listing = [triage_command(), "list", str(path), "--sort", "interest", "--format", "jsonl"]
    first = json.loads(subprocess.run(listing, capture_output=True, text=True, timeout=300, check=True).stdout.split("\n")[0])
    subprocess.run([triage_command(), "set", first["id"], str(path), "--star"], capture_output=True, timeout=300, check=True)
    before = subprocess.run(listing, capture_output=True, text=True, timeout=300, check=True).stdout
    mine = tmp_path / "notes.txt"
    mine.write_text("the user's own")
    place = entry(suffix)
    place.unlink()
    if planted == "fifo":
        os.mkfifo(place)
    elif planted == "link":
        place.symlink_to(mine)
    else:
        with place.open("wb") as huge:
            huge.truncate(9 << 30)
    done = subprocess.run(listing, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == before, done.stderr
    assert mine.read_text() == "the user's own"
