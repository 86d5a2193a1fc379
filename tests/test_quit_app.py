"""`q` while a long list's work goes on behind it (the whole read landing, its engine built, the marks of all its
papers attached): the app quits without waiting for that work, and every mark made before `q` is stored.
(bench/quit.py measures how long `q` takes in a real terminal; tests/test_quit_terminal.py drives it there.)"""
from __future__ import annotations

import threading

import pytest

import tui.loading
from store.marks.db import TriageStore
from store.readers import quick
from tests.waits import until
from tui.app import TriageApp
from tui.loading import head_of
from tui.widgets.paper_list import PaperList


@pytest.fixture
def building(monkeypatch):
    """The engine of the list is being built until the event returned is set (it never is while the app runs)."""
    release = threading.Event()
    engine_for = tui.loading.engine_for

    def held(collection, stop=None, ahead=None):
        release.wait(120)
        return engine_for(collection, stop, ahead)

    monkeypatch.setattr(tui.loading, "engine_for", held)
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
