"""Selecting papers (`;`, `V`, `ctrl+a`, `esc`) and the triage keys on a selection (Pilot): the rows'
mark, the header's count, what the database keeps, one undo step per bulk action, the question above
50 papers, and what the app says it changed. Copies are OSC 52 here (no display)."""
from __future__ import annotations

import json
import os

import pytest
from textual.widgets import Input

from store.cite import citations as cite
from store.cite.keys import citation_keys
from store.readers import read_path
from store.marks.db import TriageStore
from tests.waits import told, until
from tui.app import TriageApp
from tui.widgets.status import StatusLine
from tui.screens.dialogs import Confirm, TagEditor
from tui.screens.export_dialog import ExportDialog
from tui.widgets.paper_list import PaperList

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def _no_display(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def row(app: TriageApp, index: int) -> str:
    """The text of the row drawn at line `index` of the list."""
    return app.query_one(PaperList).render_line(index).text


def selected_rows(app: TriageApp) -> list[int]:
    """The lines of the list (its first screenful) that show the selection mark."""
    return [i for i in range(30) if row(app, i).startswith("▌")]


def header(app: TriageApp) -> str:
    return app.query_one(StatusLine).text


def last_message(app: TriageApp) -> str:
    """The latest notice's text, expired or not ("" before any: it is posted after the change it tells of shows)."""
    notices = told(app)
    return notices[-1].message if notices else ""


def stored():
    store = TriageStore(os.environ["TRIAGE_DB"])
    return lambda paper_id: store.get(paper_id)


async def press(pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


async def settle(pilot, *keys: str) -> None:
    """Press the keys and wait for the workers too (a copy is made on one)."""
    await pilot.press(*keys)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_semicolon_selects_rows_the_header_counts_them_and_esc_clears(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "semicolon", "semicolon", "j", "semicolon")
        assert selected_rows(app) == [0, 1, 3]
        assert header(app).startswith("ICLR 2024 sample · 3 selected · 19 of 19 shown")
        await press(pilot, "k", "k", "k", "semicolon")  # on a selected row: out of the selection
        assert selected_rows(app) == [0, 3]
        await press(pilot, "escape")
        assert selected_rows(app) == []
        assert "selected" not in header(app)


async def test_V_extends_the_selection_with_j_and_k_and_V_again_keeps_it(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "semicolon", "j", "V", "j", "j", "j")
        assert selected_rows(app) == [0, 2, 3, 4, 5]
        assert "5 selected (visual)" in header(app)
        await press(pilot, "k", "k")  # back over rows: they leave the selection, what was before stays
        assert selected_rows(app) == [0, 2, 3]
        await press(pilot, "V", "j", "j")  # visual mode off: moving selects nothing more
        assert selected_rows(app) == [0, 2, 3]
        assert "3 selected ·" in header(app)


async def test_V_in_a_scrolled_long_list_then_star_marks_exactly_those_papers(corpora):
    collection = read_path(corpora / "iclr-2024-abstracts.txt")
    papers = collection.papers
    app = TriageApp(collection)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "G", "V", *["k"] * 4, "s")
        await until(pilot, lambda: last_message(app) == "Starred 5 papers")
        assert "5 ★" in header(app)
    get = stored()
    assert [p.id for p in papers if get(p.id).starred] == [p.id for p in papers[-5:]]


async def test_ctrl_a_selects_all_shown_and_a_bulk_star_above_50_asks_then_undoes_in_one_step(corpora):
    collection = read_path(corpora / "iclr-2024-abstracts.txt")
    papers = collection.papers
    app = TriageApp(collection)
    async with app.run_test(size=SIZE) as pilot:
        # Each step waits for what the user waits for (the screen it opens, the count it changes): under
        # load a key sent before the confirm screen is up went to the list, and one pause saw no count yet.
        await press(pilot, "ctrl+a")
        await until(pilot, lambda: f"{len(papers)} selected" in header(app))
        await press(pilot, "s")
        await until(pilot, lambda: isinstance(app.screen, Confirm))
        assert app.screen.question == f"Starred {len(papers)} of the {len(papers)} papers selected?"
        await press(pilot, "n")
        await until(pilot, lambda: not isinstance(app.screen, Confirm))
        assert "· 0 ★" in header(app)
        await press(pilot, "s")
        await until(pilot, lambda: isinstance(app.screen, Confirm))
        await press(pilot, "y")
        await until(pilot, lambda: f"· {len(papers)} ★" in header(app))
        await until(pilot, lambda: last_message(app) == f"Starred {len(papers)} papers")
        await press(pilot, "u")
        await until(pilot, lambda: "· 0 ★" in header(app))
        await press(pilot, "ctrl+r")
        await until(pilot, lambda: f"· {len(papers)} ★" in header(app))
    get = stored()
    assert all(get(p.id).starred for p in papers)


@pytest.mark.parametrize(("keys", "message", "field", "value"), [
    (("r",), "Marked read 3 papers", "read", True),
    (("d",), "Marked not for me 3 papers", "dismissed", True),
    (("3",), "Gave priority 3 to 3 papers", "priority", 3),
])
async def test_each_triage_key_acts_on_the_selection_and_u_undoes_it_all(seed_path, keys, message, field, value):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "j", "semicolon", "j", "semicolon", "j", "j", "semicolon", "k")
        cursor = app.query_one(PaperList).current
        await press(pilot, *keys)
        await until(pilot, lambda: last_message(app) == message)
        assert app.query_one(PaperList).current is cursor  # `d` on a selection does not move on
        chosen = [papers[1].id, papers[3].id, papers[6].id]
        assert [p.id for p in papers if getattr(app.state_of(p.id), field) == value] == chosen
        await press(pilot, "u")
        assert not any(getattr(app.state_of(p.id), field) for p in papers)
        await press(pilot, "ctrl+r")
    get = stored()
    assert [p.id for p in papers if getattr(get(p.id), field) == value] == chosen


async def test_a_toggle_on_a_selection_all_marked_takes_the_mark_off_all(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s", "V", "j", "s")  # one of two starred: star both
        await until(pilot, lambda: last_message(app) == "Starred 1 paper")
        assert app.state_of(papers[1].id).starred
        await press(pilot, "s")
        await until(pilot, lambda: last_message(app) == "Unstarred 2 papers")
        assert not app.state_of(papers[0].id).starred and not app.state_of(papers[1].id).starred
        await press(pilot, "0")
        await until(pilot, lambda: last_message(app) == "Nothing to change in the 2 papers selected")


async def test_t_adds_tags_to_each_selected_paper_keeping_theirs(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "t")
        app.screen.query_one(Input).value = "mine"
        await press(pilot, "enter", "semicolon", "semicolon", "t")
        assert isinstance(app.screen, TagEditor)
        app.screen.query_one(Input).value = "rl, later"
        await press(pilot, "enter")
        await until(pilot, lambda: last_message(app) == "Tagged 2 papers")
        assert app.state_of(papers[0].id).tags == ("mine", "rl", "later")
        assert app.state_of(papers[1].id).tags == ("rl", "later")
        await press(pilot, "u")
        assert app.state_of(papers[0].id).tags == ("mine",) and app.state_of(papers[1].id).tags == ()


async def test_c_Y_and_x_take_the_selection(seed_path, tmp_path):
    collection = read_path(seed_path)
    papers = collection.papers
    keys = citation_keys(papers)
    app = TriageApp(collection)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, "j", "semicolon", "j", "semicolon", "c")
        assert app.clipboard == cite.render([papers[1], papers[3]], "bibtex", keys)
        await settle(pilot, "Y")
        assert app.clipboard == cite.render([papers[1], papers[3]], "bibtex", keys)
        await press(pilot, "x")
        assert isinstance(app.screen, ExportDialog)
        assert app.screen.which == "selected" and app.screen.count == 2
        target = tmp_path / "two.jsonl"
        app.screen.query_one(Input).value = str(target)
        await press(pilot, "enter")
        assert [json.loads(line)["id"] for line in target.read_text().splitlines()] == [papers[1].id, papers[3].id]
        await settle(pilot, "escape", "c")  # no selection: the current paper again
        assert app.clipboard == cite.render([papers[4]], "bibtex", keys)
