"""`q` while a long list's work goes on behind it (the whole read landing, its engine built, the marks of all its
papers attached): the app quits without waiting for that work, and every mark made before `q` is stored.
(bench/quit.py measures how long `q` takes in a real terminal; tests/test_quit_terminal.py drives it there.)"""
from __future__ import annotations

import threading
import time

import pytest

import store.marks.refind
from store.common.errors import Stopped
from store.marks.changes import Change
from store.marks.db import TriageStore
from store.papers.model import Triage
from store.papers.rows import ById
from store.readers import engine_cache, quick, read_path
from tests.waits import until
from tui.app import TriageApp
from tui.loading import head_of
from tui.saving import Saver
from tui.widgets.paper_list import PaperList


@pytest.fixture
def building(monkeypatch):
    """The engine of the list is being built until the event returned is set (it never is while the app runs)."""
    release = threading.Event()
    engine_for = engine_cache.engine_for

    def held(collection, stop=None, ahead=None):
        release.wait(120)
        return engine_for(collection, stop, ahead)

    monkeypatch.setattr(engine_cache, "engine_for", held)  # (as tui.loading imports it)
    yield release
    release.set()


async def test_q_typed_after_keys_waiting_for_a_querys_results_quits_at_once_and_the_mark_before_is_kept(
        corpora, building, monkeypatch, tmp_path):
    """A mark, then a query typed while the engine is built (its results wait for it: minutes at a million papers),
    enter, two keys for its results, and q: the app quits while the engine is still being built, those two keys not
    applied (said on stderr), and the mark is there on the next open."""
    monkeypatch.setattr(quick, "STREAM_FROM", 1 << 20)  # (the corpus list opens from its head, as a long list does)
    path = corpora / "iclr-2024-abstracts.txt"
    head = head_of([str(path)])
    assert head is not None
    app = TriageApp(head, files=[str(path)])
    async with app.run_test(size=(120, 40)) as pilot:
        first = app.query_one(PaperList).current
        await pilot.press("space")  # read, and the next
        await until(pilot, lambda: app.store.get(first.id).read, timeout=120)
        await until(pilot, lambda: not app.loading, timeout=240)  # the whole list landed; its engine is being built
        await pilot.press("slash", *"graph", "enter", "s", "j", "q")
        await until(pilot, lambda: not app.is_running, timeout=120)
    assert not building.is_set()  # (the engine was still being built)
    assert app.return_code == 0 and app.unsaved_marks == 0
    assert app.farewell == ["triage: q quit before the query's results were shown: 2 keys typed for them not applied"]
    again = TriageStore(tmp_path / "triage.json")
    assert again.get(first.id).read
    assert not [pid for pid in again.ids() if again.get(pid).starred]


def test_close_gives_up_the_whole_lists_attach_and_stores_the_marks_queued_behind_it(corpora, tmp_path, monkeypatch):
    """The whole list's marks being attached (re-finding a state whose paper is not in the list: seconds at a million
    papers) when the app closes: the attach is given up, and the mark and the session queued behind it are stored."""
    papers = read_path(corpora / "iclr-2024-abstracts.txt").papers
    db = tmp_path / "triage.json"
    marks = TriageStore(db)
    marks.attach(papers[:1])
    marks.put({papers[0].id: Triage(starred=True)})  # a state whose paper is not among those attached below
    saver = Saver(marks, lambda: ById([], []), lambda callback: None, lambda states: None, lambda message: None,
                  lambda message, severity: None)
    busy, looked_at = threading.Event(), []
    fingerprint = store.marks.refind.fingerprint

    def slow(text):  # the attach goes on paper after paper until the close asks it to stop
        looked_at.append(text)
        busy.set()
        saver.closing.wait(120)
        return fingerprint(text)

    monkeypatch.setattr(store.marks.refind, "fingerprint", slow)
    saver.refresh(lambda: marks.attach(papers[1:], stop=saver.closing))
    assert busy.wait(120)
    saver.save({papers[1].id: Change(old={"read": False}, new={"read": True}, stamp=time.time())}, lambda pid: Triage())
    saver.run(marks.put_setting, "session", {"cursor": papers[1].id})
    saver.close()
    assert len(looked_at) < len(papers) - 1  # given up on the way
    again = TriageStore(db)
    assert again.get(papers[1].id).read and again.get(papers[0].id).starred
    assert again.setting("session") == {"cursor": papers[1].id}


def test_opening_a_list_stopped_stores_nothing_of_it(seed_path, tmp_path):
    """A list's open noted in the database (which of its papers are new: seconds at a million papers, the database
    held) is given up at quit: its papers are all new at the next open, as if never opened."""
    papers = read_path(seed_path).papers
    store = TriageStore(tmp_path / "triage.json")
    stop = threading.Event()
    stop.set()
    with pytest.raises(Stopped):
        store.opened([str(seed_path)], papers, stop=stop)
    assert store.opened([str(seed_path)], papers).new == {paper.id for paper in papers}
    assert not store.opened([str(seed_path)], papers).new
