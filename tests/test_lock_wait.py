"""Another process holds the database's lock and does not let go (stopped with kill -STOP, hung):
the commands wait a bounded time and say who holds it; the app keeps the marks and retries. And
two paths to one database (a symbolic link and its target) share one lock and one journal."""
from __future__ import annotations

import contextlib
import re
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from store.readers import read_path
from store.marks.changes import Change
from store.marks.db import TriageStore
from store.papers.model import Triage
from store.papers.rows import ById
from tests.hostile import LockHolder, one_line, rows, triage
from tests.tmux import Tmux, triage_command
from tests.waits import wait
from tui.saving import Saver

WAIT = {"TRIAGE_LOCK_TIMEOUT": "0.3"}


def marks(db, paper_id: str) -> dict:
    return next(row for row in rows(triage("list", "--format", "jsonl", "--db", str(db))) if row["id"] == paper_id)


def test_set_and_list_under_a_stopped_holder_exit_2_naming_its_process(seed_path, tmp_path):
    db = tmp_path / "triage.json"
    paper = read_path(seed_path).papers[0].id
    assert triage("set", paper, "--read", "--db", str(db)).returncode == 0
    with LockHolder(db) as holder:
        holder.stop()
        for command in (["set", paper, "--star"], ["list", "--format", "jsonl"]):
            result = triage(*command, "--db", str(db), env=WAIT)
            assert result.returncode == 2 and result.stdout == ""
            line = one_line(result)
            assert line.startswith(f"triage: the database {db} is locked by process {holder.pid} (running 'python")
            assert f"kill -CONT {holder.pid}" in line
        holder.release()
    assert marks(db, paper)["read"] and not marks(db, paper)["starred"]


def test_the_app_does_not_open_under_a_held_lock_and_says_who_holds_it(seed_path, tmp_path):
    db = tmp_path / "triage.json"
    with LockHolder(db) as holder:
        holder.stop()
        result = triage("--db", str(db), env=WAIT, stdin=None)
        assert result.returncode == 2
        assert one_line(result).startswith(f"triage: the database {db} is locked by process {holder.pid}")


@contextlib.contextmanager
def marked_under_a_stopped_holder(db, key: str) -> Iterator[tuple[Tmux, LockHolder]]:
    """The app open on `db`, then another process taking the lock and being stopped, then `key`
    pressed: the app has said the mark is not saved yet."""
    term = Tmux(f"{triage_command()} --db {db} 2>&1", env=WAIT)
    try:
        term.wait_for(lambda s: "Unread" in s and "of" in s)
        with LockHolder(db) as holder:
            holder.stop()
            term.send(key)
            screen = term.wait_for(lambda s: "Marks not saved yet" in s)
            assert f"process {holder.pid}" in re.sub(r"\s+", " ", screen)
            yield term, holder
    finally:
        term.kill()


def test_a_mark_made_while_the_lock_is_held_waits_is_told_and_is_saved_once_it_is_free(seed_path, tmp_path):
    db = tmp_path / "triage.json"
    with marked_under_a_stopped_holder(db, "r") as (term, holder):
        holder.release()
        term.wait_for(lambda s: "Marks saved" in s)
        assert marks(db, read_path(seed_path).papers[0].id)["read"]
        term.quit()


def test_for_you_and_more_like_this_wait_for_a_lock_held_from_the_first_frame(generated, tmp_path):
    """The lock taken while a long list is still read, before For you first reads the other lists' marks (the app
    used to end there, with a traceback): `m` says the database is locked and by whom, and once it is free `m` shows
    the papers most like the one under the cursor."""
    db = tmp_path / "triage.json"
    path = generated(20_000)
    term = Tmux(f"{triage_command()} --db {db} {path} 2>&1", env=WAIT)
    try:
        term.wait_for(lambda s: "Unread" in s, interval=0.05)
        with LockHolder(db) as holder:
            holder.stop()
            term.wait_for(lambda s: "20,000 of 20,000 shown" in s, timeout=300)
            term.send("m")
            screen = re.sub(r"\s+", " ", term.wait_for(lambda s: "not shown yet" in s or "EXIT" in s))
            assert "More like this not shown yet" in screen and f"process {holder.pid}" in screen
            holder.release()
        term.send("m")
        term.wait_for(lambda s: "like" in s.splitlines()[1])
        assert "Traceback" not in term.screen()
        term.quit()
    finally:
        term.kill()


def test_quitting_while_the_lock_is_held_exits_and_says_what_was_not_saved(seed_path, tmp_path):
    db = tmp_path / "triage.json"
    with marked_under_a_stopped_holder(db, "s") as (term, holder):
        term.send("q")
        screen = re.sub(r"\s+", " ", term.wait_for(lambda s: "EXIT=1" in s))
        assert "triage: 1 mark change made in the app could not be saved: the database" in screen
        assert f"locked by process {holder.pid}" in screen and "Traceback" not in screen
        holder.release()
    assert not marks(db, read_path(seed_path).papers[0].id)["starred"]


@pytest.mark.slow
def test_two_paths_to_one_database_lose_no_acknowledged_mark(seed_path, tmp_path):
    """Two `triage set` loops at once, one through `--db LINK`, one through `--db TARGET` (the link points
    at it): every change a `triage set` acknowledged (exit 0) is in the database after."""
    target = tmp_path / "real" / "triage.json"
    target.parent.mkdir()
    link = tmp_path / "link.json"
    link.symlink_to(target)
    paper = read_path(seed_path).papers[0].id
    store = TriageStore(target)  # marks on papers of other lists: each write and fold takes a while
    store.put({f"other{n}": Triage(read=True, note="n" * 200, updated=1e9) for n in range(5000)})
    store.close()

    def loop(db, name: str) -> list[str]:
        acknowledged = []
        for n in range(20):
            tag = f"{name}{n}"
            done = subprocess.run([triage_command(), "set", paper, "--tag", tag, "--db", str(db)], capture_output=True, timeout=60)
            if done.returncode == 0:
                acknowledged.append(tag)
        return acknowledged

    with ThreadPoolExecutor(2) as pool:
        by_link, by_target = pool.map(loop, (link, target), ("link", "target"))
    assert len(by_link) == len(by_target) == 20
    held = set(marks(target, paper)["tags"])
    assert set(by_link + by_target) - held == set()


def test_a_holder_of_the_target_holds_the_link_too(seed_path, tmp_path):
    """The lock is named after the database's real path: `--db LINK` waits for the holder of TARGET
    (and writes no journal of its own beside the link)."""
    target = tmp_path / "triage.json"
    link = tmp_path / "elsewhere" / "link.json"
    link.parent.mkdir()
    link.symlink_to(target)
    paper = read_path(seed_path).papers[0].id
    with LockHolder(target) as holder:
        holder.stop()
        result = triage("set", paper, "--star", "--db", str(link), env=WAIT)
        assert result.returncode == 2 and f"locked by process {holder.pid}" in one_line(result)
        holder.release()
    assert not marks(target, paper)["starred"] and sorted(p.name for p in link.parent.iterdir()) == ["link.json"]


def test_an_open_noted_while_another_process_holds_the_lock_is_not_noted_and_nothing_fails(seed_path, tmp_path, monkeypatch):
    """The app notes a list's open behind its first frame: another window holding the lock past the wait then means the
    open is not noted (nothing is new this time; its papers are looked at again next time), not a crash."""
    monkeypatch.setenv("TRIAGE_LOCK_TIMEOUT", WAIT["TRIAGE_LOCK_TIMEOUT"])
    db = tmp_path / "triage.json"
    papers = read_path(seed_path).papers
    store = TriageStore(db)
    try:
        with LockHolder(db) as holder:
            holder.stop()
            assert store.opened([str(seed_path)], papers) == (frozenset(), frozenset())
            assert store.unseen(papers) == frozenset()
            holder.release()
        assert len(store.opened([str(seed_path)], papers).new) == len(papers)  # (noted once it is free)
    finally:
        store.close()


def test_what_waits_for_the_lock_is_named_a_mark_only_when_it_is_one(seed_path, tmp_path):
    """The list's place kept for the next start (a store job that is no mark) meets the lock held: the app says
    changes wait, not marks; a mark made then is told of as one; once the lock is free, the marks are said saved."""
    papers = read_path(seed_path).papers
    db = tmp_path / "triage.json"
    store = TriageStore(db)
    store.lock_timeout = 0.3
    told: list[str] = []
    saver = Saver(store, lambda: ById([], []), lambda callback: callback(), lambda states: None, lambda message: None,
                  lambda message, severity: told.append(message))
    try:
        with LockHolder(db) as holder:
            holder.stop()
            saver.run(store.put_setting, "session", {"cursor": papers[1].id})
            wait(lambda: told, timeout=60)
            assert told[0].startswith(f"Changes not saved yet: the database {db} is locked by process {holder.pid}")
            saver.save({papers[1].id: Change(old={"read": False}, new={"read": True}, stamp=0.0)}, lambda pid: Triage())
            wait(lambda: len(told) > 1, timeout=60)
            assert told[1].startswith("Marks not saved yet: the database")
            holder.release()
        saver.poll()
        wait(lambda: len(told) > 2, timeout=60)
        assert told[2] == "Marks saved: the changes that were waiting are stored."
    finally:
        saver.close()
    again = TriageStore(db)
    assert again.get(papers[1].id).read and again.setting("session") == {"cursor": papers[1].id}
