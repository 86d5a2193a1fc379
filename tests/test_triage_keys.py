"""The triage keys in a Pilot: what the rows, header and detail show, and what the database keeps."""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from textual import events
from textual.widgets import Static

from store.readers import read_path
from store.marks.db import TriageStore
from store.papers.model import Paper, Triage
from tests.waits import told, until
from tui.app import TriageApp
from tui.widgets.status import StatusLine
from tui.screens.dialogs import Confirm, NoteEditor, TagEditor
from tui.widgets.detail import DetailPane
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList


SIZE = (120, 40)


def seed_app(seed_path) -> tuple[list[Paper], TriageApp]:
    collection = read_path(seed_path)
    return collection.papers, TriageApp(collection)


def row(app: TriageApp, index: int) -> str:
    """The text of the list row of paper `index` (the list is scrolled to the top)."""
    return app.query_one(PaperList).render_line(index).text


def marks(app: TriageApp, index: int) -> str:
    """The state columns of a row: unread dot, star, priority."""
    return row(app, index)[:4]


def stored(paper_id: str) -> Triage:
    return TriageStore(os.environ["TRIAGE_DB"]).get(paper_id)


async def press(pilot, *keys: str) -> None:
    """Press the keys and let the app settle: the marks they made saved (a row shows `…` until then)."""
    await pilot.press(*keys)
    await pilot.pause()
    await until(pilot, lambda: not pilot.app.saving)


async def see_dialog(pilot, *keys_then_screen) -> None:
    """Press the keys; the dialog of the given class is then on top."""
    *keys, screen_class = keys_then_screen
    await press(pilot, *keys)
    assert isinstance(pilot.app.screen, screen_class)


def header(app: TriageApp) -> str:
    """The counts of the header line: "19 of 19 shown · 19 unread · 0 ★ · 0 prioritised"."""
    return app.query_one(StatusLine).text


def detail_state(app: TriageApp) -> str:
    return str(app.query_one(DetailPane).part("state"))


async def test_rows_start_unread_and_opening_a_paper_marks_nothing(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "j", "j", "k")
        assert all(marks(app, i) == " •  " for i in range(5))
        assert "19 of 19 shown · 19 unread · 0 ★ · 0 prioritised" in header(app)
        assert detail_state(app) == "unread"
    assert TriageStore(os.environ["TRIAGE_DB"]).ids() == []
    assert papers


async def test_s_stars_and_unstars_and_the_star_is_stored(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s")
        assert marks(app, 0) == " •★ "
        assert "1 ★" in header(app) and "★ starred" in detail_state(app)
        await press(pilot, "j", "s", "s")
        assert marks(app, 1) == " •  "
    assert stored(papers[0].id).starred and not stored(papers[1].id).starred


async def test_digits_set_the_priority_and_0_clears_it(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        for key in "12345":
            await press(pilot, key)
            assert marks(app, 0) == f" • {key}"
        assert "1 prioritised" in header(app) and "priority 5" in detail_state(app)
        await press(pilot, "j", "2", "k", "0")
        assert marks(app, 0) == " •  " and marks(app, 1) == " • 2"
        assert "1 prioritised" in header(app)
    assert stored(papers[0].id) == Triage() and stored(papers[1].id).priority == 2


async def test_r_toggles_read_and_space_marks_read_then_goes_to_the_next_unread(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("j", "r")  # paper 1 read
        await press(pilot, "k", "space")  # paper 0 read; paper 1 is read, so on to paper 2
        assert paper_list.cursor == 2
        assert [marks(app, i)[1] for i in range(4)] == [" ", " ", "•", "•"]
        assert "17 unread" in header(app)
        await press(pilot, "k", "r")  # paper 1 unread again
        assert marks(app, 1) == " •  "
    assert stored(papers[0].id).read and not stored(papers[1].id).read


async def test_n_and_N_go_to_the_next_and_previous_unread(seed_path):
    _, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("j", "r", "j", "r", "g")  # papers 1 and 2 read, back to the top
        await press(pilot, "n")
        assert paper_list.cursor == 3
        await press(pilot, "N")
        assert paper_list.cursor == 0
        await press(pilot, "N")  # wraps to the last unread
        assert paper_list.cursor == 18


async def test_u_undoes_and_ctrl_r_redoes_many_levels(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        paper_list = app.query_one(PaperList)
        await press(pilot, "s", "1", "space", "s")  # paper 0: ★, p1, read; paper 1: ★
        assert (marks(app, 0), marks(app, 1)) == ("  ★1", " •★ ")
        await press(pilot, "u", "u")
        assert (marks(app, 0), marks(app, 1)) == (" •★1", " •  ")
        assert paper_list.cursor == 0  # undo shows the paper it changed
        await press(pilot, "u", "u", "u")  # one more than there is: nothing breaks
        assert marks(app, 0) == " •  "
        await press(pilot, "ctrl+r", "ctrl+r")
        assert marks(app, 0) == " •★1"
    assert stored(papers[0].id) == Triage(starred=True, priority=1, updated=stored(papers[0].id).updated)
    assert stored(papers[1].id) == Triage()


async def test_d_dismisses_moves_on_and_u_undoes_it_and_the_unread_view_drops_it(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        paper_list = app.query_one(PaperList)
        await press(pilot, "j", "d")  # paper 1 not for me; on to the next unread, paper 2
        assert marks(app, 1) == " ✗  " and paper_list.cursor == 2
        assert "19 of 19 shown · 18 unread" in header(app) and str(app.query_one("#view-unread", Static).content) == "Unread 18"
        await press(pilot, "u")  # undone: unread again, and the cursor back on it
        assert marks(app, 1) == " •  " and paper_list.cursor == 1 and "19 unread" in header(app)
        await press(pilot, "ctrl+r")
        assert marks(app, 1) == " ✗  " and detail_state(app) == "not for me"
        await press(pilot, "k", "space")  # space goes on to the next unread too: past paper 1, not for me
        assert paper_list.cursor == 2 and "17 unread" in header(app)
        await press(pilot, "k", "k", "d")  # a read paper not for me: the mark takes the read one's place in the row
        assert marks(app, 0) == " ✗  " and "17 unread" in header(app)
        await press(pilot, "v")  # the Unread view leaves them out
        assert app.view == "unread" and [p.id for p in paper_list.papers] == [p.id for p in papers[2:]]
        await press(pilot, "v", "v", "v", "/")  # back to All, then a query
        await press(pilot, *"is:dismissed", "enter")
        assert [p.id for p in paper_list.papers] == [papers[0].id, papers[1].id]
        await press(pilot, "d")  # on a paper not for me: takes the mark off, the cursor stays
        assert marks(app, 0) == "    " and paper_list.cursor == 0
    assert stored(papers[1].id).dismissed and stored(papers[0].id) == Triage(read=True, updated=stored(papers[0].id).updated)
    again = TriageApp(read_path(seed_path))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await again.workers.wait_for_complete()
        await pilot.pause()
        assert again.query_one(FilterBar).value == "is:dismissed"  # the session's query, as left
        assert [p.id for p in again.query_one(PaperList).papers] == [papers[1].id] and marks(again, 0) == " ✗  "
        assert "1 of 19 shown · 0 unread" in header(again)


async def test_e_edits_the_note_ctrl_s_saves_esc_cancels(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        await see_dialog(pilot, "e", NoteEditor)
        await press(pilot, *"see p3", "enter", *"r", "ctrl+s")
        assert not isinstance(app.screen, NoteEditor)
        assert "Note: see p3\nr" in detail_state(app)
        assert marks(app, 0) == " •  "  # the `r` went into the note, not to the list
        await press(pilot, "e")
        await press(pilot, *" more", "escape")
        assert not isinstance(app.screen, NoteEditor)
    assert stored(papers[0].id).note == "see p3\nr"


async def test_ctrl_s_right_after_a_paste_saves_the_whole_paste(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        await see_dialog(pilot, "e", NoteEditor)
        # as the terminal delivers a paste and the ctrl+s typed at once: both queued before either is handled
        app.post_message(events.Paste("compare with KoLA\nand LLM-KICK"))
        app.post_message(events.Key("ctrl+s", None))
        await pilot.pause()
        assert not isinstance(app.screen, NoteEditor)
    assert stored(papers[0].id).note == "compare with KoLA\nand LLM-KICK"


async def test_t_edits_the_tags(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        await see_dialog(pilot, "t", TagEditor)
        await press(pilot, *"nlp, to-read nlp", "enter")
        assert "tags: nlp, to-read" in detail_state(app)
    assert stored(papers[0].id).tags == ("nlp", "to-read")


async def test_R_asks_how_many_then_marks_all_shown_as_read(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        await see_dialog(pilot, "r", "R", Confirm)
        assert "Mark 18 unread of the 19 papers shown as read?" in app.screen.question
        await press(pilot, "s", "n")  # `s` does nothing under the dialog; `n` answers no
        assert "18 unread" in header(app) and "0 ★" in header(app)
        await press(pilot, "R")
        await press(pilot, "y")
        assert "0 unread" in header(app)
        assert all(marks(app, i)[1] == " " for i in range(19))
    store = TriageStore(os.environ["TRIAGE_DB"])
    assert all(store.get(p.id).read for p in papers)


async def test_marks_made_in_one_run_show_in_the_next(seed_path):
    first = TriageApp(read_path(seed_path))
    async with first.run_test(size=SIZE) as pilot:
        await pilot.press("s", "3", "j", "space")
    second = TriageApp(read_path(seed_path))
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert (marks(second, 0), marks(second, 1)) == (" •★3", "    ")
        assert "18 unread · 1 ★ · 1 prioritised" in header(second)


async def test_marks_from_another_process_are_picked_up(seed_path):
    papers, app = seed_app(seed_path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s")
        other = TriageStore(os.environ["TRIAGE_DB"])
        other.put({papers[2].id: Triage(read=True, priority=4)})
        await until(pilot, lambda: marks(app, 2) == "   4")
        assert marks(app, 0) == " •★ "
        assert "18 unread" in header(app)
    assert TriageStore(os.environ["TRIAGE_DB"]).get(papers[0].id).starred


async def test_a_snapshot_damaged_while_the_app_runs_keeps_the_marks_and_says_so(seed_path):
    papers = read_path(seed_path).papers
    db = Path(os.environ["TRIAGE_DB"])
    before = TriageStore(db)
    before.put({papers[0].id: Triage(starred=True), papers[1].id: Triage(read=True, priority=3)})
    before.close()  # the marks are in the snapshot
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert (marks(app, 0), marks(app, 1)) == (" •★ ", "   3")
        db.write_bytes(b"\x00 another program wrote here")
        await until(pilot, lambda: any("moved aside" in n.message for n in told(app)))
        (notice,) = [n for n in told(app) if "moved aside" in n.message]
        assert notice.severity == "error" and "written again" in notice.message
        assert (marks(app, 0), marks(app, 1)) == (" •★ ", "   3")
        await press(pilot, "j", "s")
        assert marks(app, 1) == "  ★3"
    (aside,) = db.parent.glob("triage.json.corrupt-*")
    assert aside.read_bytes() == b"\x00 another program wrote here"
    again = TriageStore(db)
    assert again.notices == [] and again.get(papers[0].id).starred
    assert again.get(papers[1].id) == replace(again.get(papers[1].id), read=True, starred=True, priority=3)


async def test_an_unreadable_database_is_set_aside_and_the_app_says_so(seed_path, tmp_path):
    db = tmp_path / "broken.json"
    damaged = '{\n "checksum": "0", not json'  # (begins as the databases triage writes: its own, so repaired)
    db.write_text(damaged, encoding="utf-8")
    app = TriageApp(read_path(seed_path), db_path=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: any("moved aside" in n.message for n in told(app)))
        await pilot.press("s")
    (aside,) = tmp_path.glob("broken.json.corrupt-*")
    assert aside.read_text(encoding="utf-8") == damaged
    assert len(TriageStore(db).ids()) == 1
