"""Another process holds the database's lock and does not let go (stopped with kill -STOP, hung):
the commands wait a bounded time and say who holds it."""
from __future__ import annotations

from store import read_path
from tests.hostile import LockHolder, one_line, rows, triage

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

