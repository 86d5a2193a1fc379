"""Another process holds the database's lock and does not let go (stopped with kill -STOP, hung):
the commands wait a bounded time and say who holds it; the app keeps the marks and retries."""
from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from store.readers import read_path
from tests.hostile import LockHolder, one_line, rows, triage
from tests.tmux import Tmux, triage_command

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


def test_quitting_while_the_lock_is_held_exits_and_says_what_was_not_saved(seed_path, tmp_path):
    db = tmp_path / "triage.json"
    with marked_under_a_stopped_holder(db, "s") as (term, holder):
        term.send("q")
        screen = re.sub(r"\s+", " ", term.wait_for(lambda s: "EXIT=1" in s))
        assert "triage: 1 mark change made in the app could not be saved: the database" in screen
        assert f"locked by process {holder.pid}" in screen and "Traceback" not in screen
        holder.release()
    assert not marks(db, read_path(seed_path).papers[0].id)["starred"]
