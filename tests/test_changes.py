"""Changes field by field (store.marks.changes): two stores marking one paper keep both marks, undo reverts only
its own fields, and what an app shows before its writes are durable."""
from __future__ import annotations

from dataclasses import replace

from store.marks.changes import Change, Unsaved
from store.marks.db import TriageStore
from store.marks.history import History
from store.papers.model import Triage


def change(before: Triage, after: Triage, stamp: float = 1.0) -> Change:
    return Change.between(before, after, stamp)


def test_two_stores_marking_one_paper_keep_both_marks(tmp_path):
    """Each store saw the paper blank; one stars it and adds tag a, the other sets priority 4 and adds tag b."""
    one, two = TriageStore(tmp_path / "db.json"), TriageStore(tmp_path / "db.json")
    one.apply({"p": change(Triage(), Triage(starred=True, tags=("a",)))})
    stored = two.apply({"p": change(Triage(), Triage(priority=4, tags=("b",)), stamp=2.0)})
    assert stored["p"] == Triage(starred=True, priority=4, tags=("a", "b"), updated=2.0)
    assert TriageStore(tmp_path / "db.json").get("p") == stored["p"]


def test_a_change_that_changes_nothing_writes_nothing(tmp_path):
    store = TriageStore(tmp_path / "db.json")
    store.apply({"p": change(Triage(), Triage(starred=True))})
    journal = (tmp_path / "db.json.journal").read_bytes()
    assert store.apply({"p": change(Triage(), Triage(starred=True), stamp=5.0)})["p"].updated == 1.0
    assert (tmp_path / "db.json.journal").read_bytes() == journal


def test_undo_reverts_only_the_fields_still_as_this_session_set_them():
    mine = change(Triage(), Triage(starred=True, priority=2, tags=("x",)))
    # since: someone else set priority 4 and a tag y, and marked it read
    now = Triage(starred=True, priority=4, read=True, tags=("x", "y"))
    assert mine.inverse(3.0).apply(now) == Triage(priority=4, read=True, tags=("y",), updated=3.0)
    assert mine.again(4.0).apply(Triage(priority=4)) == Triage(starred=True, priority=4, tags=("x",), updated=4.0)


def test_history_undoes_and_redoes_many_levels():
    h = History()
    h.record({"a": change(Triage(), Triage(read=True))})
    h.record({"a": change(Triage(read=True), Triage(read=True, starred=True))})
    state = Triage(read=True, starred=True)
    state = h.undo(2.0)["a"].apply(state)
    assert state == Triage(read=True, updated=2.0)
    state = h.undo(3.0)["a"].apply(state)
    assert state == Triage(updated=3.0)
    assert h.undo(4.0) is None
    assert h.redo(5.0)["a"].apply(state) == Triage(read=True, updated=5.0)
    h.record({"b": change(Triage(), Triage(priority=3))})
    assert h.redo(6.0) is None
    assert h.undo(7.0)["b"].apply(Triage(priority=3)) == Triage(updated=7.0)


def test_unsaved_shows_changes_on_their_way_on_top_of_what_is_stored():
    unsaved = Unsaved()
    star, prio = change(Triage(), Triage(starred=True)), change(Triage(starred=True), Triage(starred=True, priority=2))
    first, shown = unsaved.add({"p": star}, lambda pid: Triage())
    assert shown == {"p": Triage(starred=True, updated=1.0)} and "p" in unsaved
    second, shown = unsaved.add({"p": prio}, lambda pid: shown[pid])
    # another process's tag arrives before either is written: kept under both
    assert unsaved.merge({"p": Triage(tags=("t",))})["p"] == Triage(starred=True, priority=2, tags=("t",), updated=1.0)
    stored = Triage(starred=True, tags=("t",), updated=1.0)
    assert unsaved.settle(first, {"p": stored})["p"] == replace(stored, priority=2)
    assert "p" in unsaved and len(unsaved) == 1
    assert unsaved.settle(second, None) == {"p": stored}, "a failed write: what is stored"
    assert "p" not in unsaved and len(unsaved) == 0
