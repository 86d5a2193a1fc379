"""Marks in the app while other processes mark the same papers: a mark keeps what others stored a moment
before, undo takes back only this session's changes, and a mark not yet durable looks unsaved."""
from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

from filelock import FileLock

from store.readers import read_path
from store.marks.db import TriageStore
from store.papers.model import Paper
from tests.tmux import triage_command
from tests.waits import told, until
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList

SIZE = (120, 40)


def row(app: TriageApp, index: int) -> str:
    return app.query_one(PaperList).render_line(index).text


def saving(app: TriageApp) -> str:
    """What the header line says about marks not yet saved ("" when every mark shown is saved)."""
    return str(app.query_one("#status-saving").content)


def on_one_database(tmp_path, seed_path) -> tuple[Path, list[Paper], TriageApp, TriageStore]:
    """The database file, the seed's papers, an app on them and another store on the same file."""
    db = tmp_path / "db.json"
    collection = read_path(seed_path)
    return db, collection.papers, TriageApp(collection, str(db)), TriageStore(db)


def triage_set(db, seed_path, *args: str) -> None:
    """`triage set` in its own process; it has stored the change when this returns."""
    subprocess.run([triage_command(), "set", *args, str(seed_path), "--db", str(db)], check=True, capture_output=True)


async def test_a_mark_keeps_what_another_process_stored_just_before(tmp_path, seed_path):
    """Another process sets a priority and a tag; a moment later (before the app has looked) the app
    marks the paper read: the star, the read mark, the priority and the tag are all stored. On three
    papers, so that the app's look at the database (twice a second) cannot fall in between each time."""
    db, papers, app, other = on_one_database(tmp_path, seed_path)
    async with app.run_test(size=SIZE) as pilot:
        for index, paper in enumerate(papers[:3]):
            pid = paper.id
            await pilot.press("s")
            await until(pilot, lambda: other.get(pid).starred)
            other.update(pid, lambda state: replace(state, priority=4, tags=("x",)))
            await pilot.press("r", "j")
            await until(pilot, lambda: other.get(pid).read)
            stored = other.get(pid)
            assert (stored.starred, stored.read, stored.priority, stored.tags) == (True, True, 4, ("x",))
            await until(pilot, lambda: row(app, index)[1:4] == " ★4")  # and the app shows them all
    assert all(TriageStore(db).get(paper.id).tags == ("x",) for paper in papers[:3])


async def test_two_windows_adding_tags_keep_both(tmp_path, seed_path):
    """A tag added in the app and one added by another process a moment before are both kept (also when
    the app picked the other's up while its tag editor was open)."""
    db, papers, app, other = on_one_database(tmp_path, seed_path)
    pid = papers[0].id
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", *"mine", "enter")
        await until(pilot, lambda: other.get(pid).tags == ("mine",))
        other.update(pid, lambda state: replace(state, tags=(*state.tags, "theirs")))
        await pilot.press("t", "end", *", also", "enter")
        await until(pilot, lambda: "also" in other.get(pid).tags)
        assert set(other.get(pid).tags) == {"mine", "theirs", "also"}


async def test_undo_leaves_the_marks_another_process_made_meanwhile(tmp_path, seed_path):
    """`s`, then `triage set ID --priority 4 --tag x`, then `u`: the star is gone, the priority and tag stay."""
    db, papers, app, other = on_one_database(tmp_path, seed_path)
    pid = papers[0].id
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: other.get(pid).starred)
        triage_set(db, seed_path, pid, "--priority", "4", "--tag", "x")
        await pilot.press("u")
        await until(pilot, lambda: not other.get(pid).starred)
        stored = other.get(pid)
        assert (stored.priority, stored.tags) == (4, ("x",))
        await until(pilot, lambda: row(app, 0)[1:4] == "• 4")


async def test_undo_leaves_a_field_another_process_changed_since(tmp_path, seed_path):
    """The app sets priority 2, `triage set` then sets 4: undo leaves 4 (the newer mark) and takes back
    the app's star of the same action's paper only where no one changed it."""
    db, papers, app, other = on_one_database(tmp_path, seed_path)
    pid = papers[0].id
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "s")
        await until(pilot, lambda: other.get(pid).starred)
        triage_set(db, seed_path, pid, "--priority", "4")
        await pilot.press("u", "u")
        await until(pilot, lambda: not other.get(pid).starred)
        await until(pilot, lambda: row(app, 0)[1:4] == "• 4")
        assert other.get(pid).priority == 4
        await pilot.press("ctrl+r")  # redo sets 2 again only where undo left the field as it found it
        await until(pilot, lambda: "saving" not in saving(app))
        assert other.get(pid).priority == 4


async def test_a_mark_looks_unsaved_until_it_is_durable(tmp_path, seed_path):
    """While another process holds the database's lock the app cannot write: the starred row shows `…`
    in its first column and the header says "saving…"; once the write is through both go."""
    db, papers, app, other = on_one_database(tmp_path, seed_path)
    lock = FileLock(str(db) + ".lock")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        with lock:
            await pilot.press("s")
            await until(pilot, lambda: row(app, 0)[:4] == "…•★ ")
            assert "saving" in saving(app)
            await pilot.press("j", "3")
            await until(pilot, lambda: row(app, 1)[:4] == "…• 3")
            assert row(app, 0)[:4] == "…•★ ", "still not saved"
        await until(pilot, lambda: row(app, 0)[:4] == " •★ " and row(app, 1)[:4] == " • 3")
        assert saving(app) == ""
        assert TriageStore(db).get(papers[1].id).priority == 3


async def test_a_failed_write_is_said_and_the_mark_is_not_shown_as_saved(tmp_path, seed_path):
    """The journal cannot be written (a folder stands where it goes): the app says the marks were not
    saved, and the row shows what is stored (no star), not the star as if it were."""
    db, papers, app, other = on_one_database(tmp_path, seed_path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        journal = tmp_path / "db.json.journal"
        journal.unlink(missing_ok=True)  # (the session, saved a second after the start, may have made it)
        journal.mkdir()
        await pilot.press("s")
        await until(pilot, lambda: any("not saved" in n.message for n in told(app)))
        await until(pilot, lambda: row(app, 0)[:4] == " •  ")
        assert saving(app) == ""
        journal.rmdir()  # the trouble over, the next mark is saved
        await pilot.press("s")
        await until(pilot, lambda: row(app, 0)[:4] == " •★ ")
    assert TriageStore(db).get(papers[0].id).starred
