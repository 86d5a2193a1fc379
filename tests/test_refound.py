"""Marks of other lists' papers are looked for in a list once (`store.readers.refound` keeps what was found): the
next `triage list` of it shows the same marks, a mark made since in another list is still found on its edited copy
in this one, and an edited list or a damaged entry means the look is made again."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from store.marks.db import TriageStore
from store.readers import read_path
from tests.conftest import ROOT
from tests.test_cli_fast import ABSTRACTS, triage
from tests.test_parse_cache import write_list
from tests.waits import held

OTHER = ["Diffusion models denoise images step by step; we make each step cheaper with a learnt schedule of noise levels."]
EDITED = ABSTRACTS[0].replace("retraining", "re-training")


def starred(path: Path) -> list[bool]:
    result = triage("list", str(path), "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    return [json.loads(line)["starred"] for line in result.stdout.splitlines()]


def refound_entries() -> list[Path]:
    return sorted(Path(os.environ["TRIAGE_CACHE"]).glob("*.refound"))


def star(path: Path, row: int) -> str:
    pid = read_path(path).papers[row].id
    result = triage("set", pid, str(path), "--star")
    assert result.returncode == 0, result.stderr
    return pid


def test_a_star_made_in_another_list_since_the_last_listing_is_found_on_its_edited_copy(tmp_path):
    listed = write_list(tmp_path / "listed.txt", ABSTRACTS)
    other = write_list(tmp_path / "other.txt", [*OTHER, EDITED])
    star(other, 0)
    assert starred(listed) == [False, False, False]  # the other list's star is in none of its papers
    assert len(refound_entries()) == 1
    assert starred(listed) == [False, False, False]
    star(other, 1)  # the list's first paper, edited: a mark the list has not looked for yet
    assert starred(listed) == [True, False, False]
    assert read_path(listed).papers[0].id in TriageStore(os.environ["TRIAGE_DB"]).ids()


def test_an_edited_list_looks_for_the_marks_again(tmp_path):
    listed = write_list(tmp_path / "listed.txt", ABSTRACTS)
    other = write_list(tmp_path / "other.txt", OTHER)
    star(other, 0)
    star(listed, 0)
    assert starred(listed) == [True, False, False]
    write_list(listed, [EDITED, *ABSTRACTS[1:]])  # a typo fixed: the starred paper's id changes
    assert starred(listed) == [True, False, False]
    assert starred(other) == [True]


def test_a_damaged_refound_entry_is_never_believed(tmp_path):
    """Damaged, it is not read (the marks are looked for again) and is written again whole."""
    listed = write_list(tmp_path / "listed.txt", ABSTRACTS)
    other = write_list(tmp_path / "other.txt", [*OTHER, EDITED])
    star(other, 0)
    assert starred(listed) == [False, False, False]
    [entry] = refound_entries()
    good = entry.read_bytes()
    for damage in (b"", b"not an entry", good[: len(good) // 2], good[:-5] + bytes(5)):
        entry.write_bytes(damage)
        assert starred(listed) == [False, False, False]
        assert entry.read_bytes() == good
    star(other, 1)
    entry.write_bytes(good[:-5] + bytes(5))
    assert starred(listed) == [True, False, False]


def test_a_star_in_another_list_ranks_this_lists_like_paper_first_every_time(tmp_path):
    """For you learns from the other list's star as before once the list keeps that it is none of its papers."""
    like = "Diffusion models generate images from noise; a learnt schedule of noise levels makes each sampling step cheaper."
    listed = write_list(tmp_path / "listed.txt", [*ABSTRACTS, like])
    other = write_list(tmp_path / "other.txt", OTHER)
    star(other, 0)
    orders = []
    for _ in range(2):
        result = triage("list", str(listed), "--sort", "interest", "--format", "jsonl")
        assert result.returncode == 0 and "star a paper" not in result.stderr, result.stderr
        orders.append([json.loads(line)["text"] for line in result.stdout.splitlines()])
    assert len(refound_entries()) == 1
    assert orders[0] == orders[1] and orders[0][0] == like



@pytest.mark.parametrize("compared", ["every pair", "by their ends"])
def test_a_long_lists_first_look_for_marks_of_another_list_holds_none_of_its_papers(tmp_path, monkeypatch, compared):
    """Marks of another list are looked for among a list's papers without a state the first time it is opened: a
    reopened list's papers made a chunk at a time and let go, their texts read one at a time, never all held (a
    1,000,000-paper list's first `triage list` held all its texts, ~2 GB; a reopened one kept all its papers made),
    whether every pair is compared or (more pairs) those whose ends agree."""
    from store.marks import refind
    from store.papers.chunked import SIZE

    if compared == "by their ends":
        monkeypatch.setattr(refind, "FULL_SCAN_PAIRS", 1000)
    from store.papers.model import Triage
    from store.readers import cache
    from tests.test_reopened_columns import abstracts

    path = tmp_path / "long.txt"
    edited = abstracts(3 * SIZE)
    edited[SIZE + 7] = ABSTRACTS[0]
    path.write_text("SYNTH 2024\n\n" + "\n\n".join(edited) + "\n", encoding="utf-8")
    read_path(path)
    cache.settle()
    papers = read_path(path).papers  # (reopened: its papers made when asked for)
    store = TriageStore(tmp_path / "db.json")
    other = read_path(write_list(tmp_path / "other.txt", [*OTHER, EDITED])).papers
    store.attach(other)
    store.put({other[0].id: Triage(starred=True), other[1].id: Triage(starred=True)})
    store.close()
    store = TriageStore(tmp_path / "db.json")  # (the list opened later: the other list's papers not attached)
    store.attach(papers)
    assert [k for k, chunk in enumerate(papers._made) if chunk is not None] == []
    assert store.get(papers.ids[SIZE + 7]).starred  # (the edited copy's star found on it)
    assert store.get(other[0].id).starred and sum(store.get(pid).starred for pid in papers.ids) == 1


MARK = """
import sys
from store.marks.db import TriageStore
from store.papers.model import Triage
TriageStore(sys.argv[1]).put({sys.argv[2]: Triage(read=True)})
"""


@pytest.fixture
def looking(monkeypatch):
    """The look for other lists' marks, held at its first paper until the event it gives is set."""
    import store.marks.refind

    return held(monkeypatch, store.marks.refind, "fingerprint")


def attached_behind(papers, at: threading.Event) -> tuple[threading.Thread, dict]:
    """`TriageStore.attach(papers)` on a thread of its own, once it is at its look for the marks; what it gives."""
    found: dict = {}
    store = TriageStore(os.environ["TRIAGE_DB"])
    attaching = threading.Thread(target=lambda: found.update(store.attach(papers)))
    attaching.start()
    assert at.wait(120)
    return attaching, found


def test_while_marks_of_other_lists_are_looked_for_another_process_can_mark(tmp_path, looking, monkeypatch):
    """The look (a pass over every paper of the list: seconds at 1,000,000) is made without the database's lock: a
    `triage set` meanwhile is stored, where it waited and was refused after its timeout before; the mark found is
    moved to its edited copy as before."""
    at, go = looking
    listed = write_list(tmp_path / "listed.txt", ABSTRACTS)
    other = write_list(tmp_path / "other.txt", [*OTHER, EDITED])
    star(other, 1)  # the listed paper's edited copy
    papers = read_path(listed).papers
    attaching, found = attached_behind(papers, at)
    monkeypatch.setenv("TRIAGE_LOCK_TIMEOUT", "2")
    try:
        result = triage("set", papers[2].id, str(listed), "--read")
        assert result.returncode == 0, result.stderr
    finally:
        go.set()
        attaching.join(120)
    assert found[papers[0].id].starred
    again = TriageStore(os.environ["TRIAGE_DB"])
    assert again.get(papers[0].id).starred and again.get(papers[2].id).read


def test_a_paper_marked_while_its_lost_mark_was_looked_for_keeps_its_own(tmp_path, looking):
    """The edited copy marked by another process (its mark stored without looking for lost ones) while the look found
    the lost mark for it: that mark stands (the look's is not moved over it), and the lost mark stays where it was."""
    at, go = looking
    listed = write_list(tmp_path / "listed.txt", ABSTRACTS)
    other = write_list(tmp_path / "other.txt", [*OTHER, EDITED])
    lost = star(other, 1)
    papers = read_path(listed).papers
    attaching, found = attached_behind(papers, at)
    try:
        result = subprocess.run([sys.executable, "-c", MARK, os.environ["TRIAGE_DB"], papers[0].id], cwd=ROOT,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    finally:
        go.set()
        attaching.join(120)
    assert found[papers[0].id].read and not found[papers[0].id].starred
    again = TriageStore(os.environ["TRIAGE_DB"])
    assert again.get(lost).starred and not again.get(papers[0].id).starred
