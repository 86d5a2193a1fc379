"""What is new (issue 32 item 5): `is:new`, the `new` sort and the header's "N new", over a real database and
the installed `triage`: a daily arXiv listing that grows, a conference list whose abstracts change (camera-ready)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from tests.tmux import Tmux, triage_command
from tests.waits import held


def triage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([triage_command(), *args], capture_output=True, text=True, timeout=120)


def paper(n: int, abstract: str = "", **fields: object) -> dict[str, object]:
    return {"title": f"Paper number {n} on topic {n * 7}", "authors": [f"Author{n} Surname{n}"],
            "abstract": abstract or f"We study problem {n} with method {n * 3} and show result {n * 11} on benchmark {n}.",
            **fields}


def write(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def titles(*args: str) -> list[str]:
    result = triage("list", *args, "--format", "jsonl")
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return [json.loads(line)["title"] for line in result.stdout.splitlines()]


def test_a_daily_listing_shows_exactly_the_papers_added_since_it_was_last_opened(tmp_path):
    listing = tmp_path / "arxiv-new.jsonl"
    day1 = [paper(n, arxiv=f"2412.0{n:04d}") for n in range(1, 6)]
    write(listing, day1)
    assert len(titles(str(listing))) == 5  # opened once: day 1
    day2 = [paper(n, arxiv=f"2412.0{n:04d}") for n in range(6, 9)]
    write(listing, day2 + day1)  # the next day's listing: three papers more
    assert titles(str(listing), "-q", "is:new") == [row["title"] for row in day2]
    # opened again since: nothing is new any more, and every paper is not new
    assert titles(str(listing), "-q", "is:new") == []
    assert len(titles(str(listing), "-q", "-is:new")) == 8


def test_export_writes_the_new_papers_and_leaves_them_new(tmp_path):
    """`triage export -q is:new` writes the papers `triage list -q is:new` lists, in BibTeX as in JSON Lines. Exporting
    reads the list without opening it: a second export writes them again, and the list still shows them new."""
    listing = tmp_path / "arxiv-new.jsonl"
    day1 = [paper(n, arxiv=f"2412.0{n:04d}") for n in range(1, 6)]
    write(listing, day1)
    assert len(titles(str(listing))) == 5  # opened once: day 1
    day2 = [paper(n, arxiv=f"2412.0{n:04d}") for n in range(6, 9)]
    write(listing, day2 + day1)
    for time in ("first", "second"):
        out = tmp_path / f"{time}.jsonl"
        done = triage("export", str(listing), "-q", "is:new", "-o", str(out))
        assert done.returncode == 0 and "3 papers written" in done.stderr, done.stderr
        assert [json.loads(line)["title"] for line in out.read_text().splitlines()] == [row["title"] for row in day2]
    bib = triage("export", str(listing), "-q", "is:new is:unread")
    assert [line.split("{", 1)[1].rstrip("},") for line in bib.stdout.splitlines() if line.startswith("  title =")] == [
        row["title"] for row in day2]
    assert len(triage("export", str(listing), "-q", "-is:new", "--format", "jsonl").stdout.splitlines()) == 5
    assert titles(str(listing), "-q", "is:new") == [row["title"] for row in day2]  # (`triage list` opens it)
    nothing = triage("export", str(listing), "-q", "is:new", "-o", str(tmp_path / "none.bib"))
    assert nothing.returncode == 1 and "no paper matches 'is:new'" in nothing.stderr
    assert not (tmp_path / "none.bib").exists()


def test_the_new_sort_puts_the_new_papers_first(tmp_path):
    listing = tmp_path / "list.jsonl"
    old = [paper(n) for n in range(1, 5)]
    write(listing, old)
    titles(str(listing))
    added = paper(9)
    write(listing, [*old[:2], added, *old[2:]])
    assert titles(str(listing), "--sort", "new") == [added["title"], *(row["title"] for row in old)]


def test_a_list_never_opened_is_all_new_and_a_paper_seen_in_another_list_is_not_new_there_later(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write(first, [paper(1), paper(2)])
    assert len(titles(str(first), "-q", "is:new")) == 2  # never opened: everything unseen is new
    write(second, [paper(2), paper(3)])
    titles(str(second))
    write(second, [paper(1), paper(2), paper(3), paper(4)])  # paper 1 was seen in a.jsonl before b was last opened
    assert titles(str(second), "-q", "is:new") == [paper(4)["title"]]


def test_camera_ready_versions_are_the_same_papers_an_added_paper_is_new(tmp_path):
    """A changed abstract gives a paper a new id; it is not new when an arXiv id, DOI or OpenReview id, or
    its title with its first author, was seen before. A bare abstract with none of those is new when edited."""
    conference = tmp_path / "conf.jsonl"
    submitted = [paper(1, url="https://openreview.net/forum?id=AbC1"), paper(2, doi="10.1000/two"),
                 paper(3, arxiv="2401.00003"), paper(4)]
    write(conference, submitted)
    titles(str(conference))
    camera = [{**row, "abstract": row["abstract"] + " Camera-ready: new experiments."} for row in submitted]
    added = paper(5, url="https://openreview.net/forum?id=XyZ5")
    write(conference, [*camera, added])
    assert titles(str(conference), "-q", "is:new") == [added["title"]]

    bare = tmp_path / "abstracts.txt"
    bare.write_text("We study the first problem in depth and show a result.\n\nA second abstract about another problem.\n")
    titles(str(bare))
    bare.write_text("We study the first problem in depth and show a better result.\n\nA second abstract about another problem.\n")
    assert len(titles(str(bare), "-q", "is:new")) == 1


def test_the_header_says_how_many_are_new_and_is_new_filters_them_in_the_app(tmp_path):
    """In a real terminal: the header says "3 new" (not at the first open, when all are), `/is:new` shows them."""
    listing = tmp_path / "daily.jsonl"
    day1 = [paper(n) for n in range(1, 8)]
    write(listing, day1)
    first = Tmux(f"{triage_command()} {listing}")
    try:
        assert " new" not in first.wait_for(lambda s: "7 of 7 shown" in s)
        first.quit()
    finally:
        first.kill()
    write(listing, day1 + [paper(n) for n in range(8, 11)])
    tmux = Tmux(f"{triage_command()} {listing}")
    try:
        tmux.wait_for(lambda s: "10 of 10 shown" in s and "3 new" in s)
        tmux.send("/")
        tmux.send("is:new")
        # (the rows waited for with the count: a screen read mid-frame can have the new header above the old rows)
        tmux.wait_for(lambda s: "3 of 10 shown" in s and all(f"Paper number {n} " in s for n in (8, 9, 10))
                      and "Paper number 7 " not in s)
        tmux.send("Escape")  # (one: it clears the filter and is back in the list; a second one sent just before `q`
        tmux.wait_for(lambda s: "10 of 10 shown" in s)  # could reach the app with it as one alt+q on a busy machine)
        tmux.quit()
    finally:
        tmux.kill()


def test_a_seen_file_that_is_a_link_a_fifo_or_damaged_is_never_followed_nor_trusted(tmp_path):
    """The first-seen file beside the database: another's file it links to is left as it is, a FIFO does not
    hang the command, damage is set aside and said in one line; every paper then counts as new."""
    import os

    listing = tmp_path / "list.jsonl"
    write(listing, [paper(1), paper(2)])
    seen = tmp_path / "triage.json.seen"
    victim = tmp_path / "victim.txt"
    victim.write_text("someone else's file\n")
    for make in (lambda: seen.symlink_to(victim), lambda: os.mkfifo(seen), lambda: seen.write_text("{not json")):
        make()
        result = triage("list", str(listing), "-q", "is:new")
        assert result.returncode == 0 and "Traceback" not in result.stderr
        assert len(result.stdout.splitlines()) == 2
        assert "triage.json.seen" in result.stderr and "set aside" in result.stderr
        assert seen.is_file() and not seen.is_symlink()
        assert victim.read_text() == "someone else's file\n"
        assert triage("list", str(listing), "-q", "is:new").returncode == 1  # remembered again since
        seen.unlink()


def test_a_list_opened_again_unchanged_finds_what_looking_at_each_paper_finds(tmp_path, monkeypatch):
    """A list opened again with the very papers of its last open skips looking at each paper's identities: it must
    find what looking finds (nothing new, nothing arrived), also after other lists brought papers of theirs, and
    look again once the file changed or the first-seen file forgot the identities seen earliest."""
    from store.library import seen
    from store.marks.db import TriageStore
    from store.readers import read_path
    from store.readers.list_key import read_key

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write(first, [paper(1), paper(2), paper(3)])
    write(second, [paper(3), paper(4)])

    def opened(path: Path, known: bool = True) -> seen.Opened:
        store = TriageStore(tmp_path / "triage.json")
        try:
            collection = read_path(path)
            return store.opened(collection.sources, collection.papers, read_key(collection) if known else None)
        finally:
            store.close()

    assert len(opened(first).new) == 3
    assert [len(found) for found in opened(second)] == [2, 1]  # never opened: all new; paper 4 arrived
    assert opened(first) == opened(first, known=False) == opened(first) == seen.NOTHING
    write(first, [paper(1), paper(2), paper(3), paper(5)])  # changed: paper 5 is new
    assert [len(found) for found in opened(first)] == [1, 1]
    assert opened(first) == seen.NOTHING
    monkeypatch.setattr(seen, "MOST_IDENTITIES", 2)  # the next open forgets all but the last paper's identities seen
    opened(second, known=False)
    forgot = opened(first)  # looked at each paper again: the forgotten ones arrive again
    assert forgot.new == forgot.arrived and len(forgot.new) == 3


def test_a_list_of_more_identities_than_are_kept_keeps_its_own_and_is_not_all_new_again(tmp_path, monkeypatch):
    """A list with more identities than `MOST_IDENTITIES` (the whole arXiv: ~7.8 million for 2.7 million papers) keeps
    those it brought: opened again, nothing is new and no paper is looked at; another list's seen earlier are the
    ones forgotten. (Before, its own were forgotten as they were written: every paper new at every open.)"""
    from store.library import seen
    from store.marks.db import TriageStore
    from store.readers import read_path
    from store.readers.list_key import read_key

    big, small = tmp_path / "big.jsonl", tmp_path / "small.jsonl"
    write(small, [paper(20), paper(21)])
    write(big, [paper(k) for k in range(1, 11)])
    monkeypatch.setattr(seen, "MOST_IDENTITIES", 5)
    looked: list[int] = []
    monkeypatch.setattr(seen, "_opening", lambda *args, _was=seen._opening: looked.append(1) or _was(*args))

    def opened(path: Path) -> seen.Opened:
        store = TriageStore(tmp_path / "triage.json")
        try:
            collection = read_path(path)
            return store.opened(collection.sources, collection.papers, read_key(collection))
        finally:
            store.close()

    assert len(opened(small).new) == 2
    assert len(opened(big).new) == 10
    assert opened(big) == seen.NOTHING and opened(big) == seen.NOTHING
    assert len(looked) == 3  # (small, big, and big once more: the small list's forgotten took the keys with them)
    assert len(opened(small).new) == 2  # (the small list's, seen earliest, were forgotten: new again, as always)


def test_a_reopened_list_looked_at_paper_by_paper_keeps_none_of_its_papers_made(tmp_path):
    """A reopened list whose papers are looked at (another database, or identities forgotten) makes each chunk of its
    papers for the look and lets it go (a 2,700,000-paper list's made are GBs): what is new and what arrived are
    what the list parsed finds."""
    from store.marks.db import TriageStore
    from store.readers import read_path

    listing = tmp_path / "list.jsonl"
    write(listing, [paper(k) for k in range(1, 5001)])
    parsed, reopened = read_path(listing), read_path(listing)
    found = []
    for collection, db in ((parsed, "a.json"), (reopened, "b.json")):
        store = TriageStore(tmp_path / db)
        try:
            found.append(store.opened(collection.sources, collection.papers))
            found.append(store.unseen(collection.papers))
        finally:
            store.close()
    assert found[0] == found[2] and len(found[0].new) == 5000 and found[1] == found[3] == frozenset()
    assert not any(reopened.papers._made)



NOTE_OPEN = """
import sys
from store.marks.db import TriageStore
from store.papers.model import Triage
from store.readers import read_path
store = TriageStore(sys.argv[1])
collection = read_path(sys.argv[3])
if sys.argv[2] == "mark":
    store.put({collection.papers[0].id: Triage(starred=True)})
else:
    print(len(store.opened(collection.sources, collection.papers).new))
"""


def test_while_an_open_looks_up_its_papers_another_process_can_mark_and_open(tmp_path, monkeypatch):
    """An open's look at each of its papers' identities (seconds at 1,000,000) is made without the database's lock: a
    mark stored and another list opened meanwhile by other processes (they waited, and gave up after 10 s), and the
    open then noted as the files are by then: a paper the other list showed first did not arrive here."""
    import store.library.seen
    from store.marks.db import TriageStore
    from store.readers import read_path
    from tests.conftest import ROOT

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write(first, [paper(1), paper(2), paper(3)])
    write(second, [paper(3), paper(4)])
    db = tmp_path / "triage.json"
    at, go = held(monkeypatch, store.library.seen, "identities")
    found: list = []
    marks = TriageStore(db)
    collection = read_path(first)
    opening = threading.Thread(target=lambda: found.append(marks.opened(collection.sources, collection.papers)))
    opening.start()
    try:
        assert at.wait(120)
        for what, path in (("mark", first), ("open", second)):
            done = subprocess.run([sys.executable, "-c", NOTE_OPEN, str(db), what, str(path)], cwd=ROOT,
                                  capture_output=True, text=True, timeout=120, env={**os.environ, "TRIAGE_LOCK_TIMEOUT": "2"})
            assert done.returncode == 0, done.stderr
            assert what == "mark" or done.stdout.split() == ["2"]
    finally:
        go.set()
        opening.join(120)
    assert [len(part) for part in found[0]] == [3, 2]  # all new (never opened); papers 1 and 2 arrived, not 3
    again = TriageStore(db)
    assert again.get(collection.papers[0].id).starred
    assert again.opened(collection.sources, collection.papers) == store.library.seen.NOTHING
