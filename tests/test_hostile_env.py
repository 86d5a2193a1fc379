"""A hostile environment (and argv) through the real command: one line on stderr starting
"triage:", never a traceback, never a hang, never a damaged database.

Exit codes: 2 for input that is refused (a note that is not UTF-8, a
--db that is not a regular file, a database folder that cannot be made); 1 when marks could not be
saved (a full disk, a read-only database, a lock file that cannot be opened); 0 when they were
saved even if the snapshot could not be rewritten afterwards (a notice says so).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from store.readers import read_path
from tests.hostile import as_nobody, fill, mounted_tmpfs, one_line, remount_read_only, rows, shared_folder, triage
from tests.tmux import Tmux, triage_command



def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def marked_database(folder: Path, paper: str) -> Path:
    """A database in `folder` where `paper` is marked read (through the command)."""
    db = folder / "triage.json"
    assert triage("set", paper, "--read", "--db", str(db)).returncode == 0
    return db


# --- input ---------------------------------------------------------------------------------------


def test_a_note_that_is_not_utf8_is_refused_and_nothing_is_written(seed_path, tmp_path):
    db = Path(os.environ["TRIAGE_DB"])
    paper = read_path(seed_path).papers[0].id
    assert triage("set", paper, "--read").returncode == 0
    before = files_of(db.parent)
    result = triage("set", paper, "--note", b"caf\xe9")  # argv bytes from a Latin-1 terminal
    assert result.returncode == 2 and result.stdout == ""
    assert one_line(result) == "triage: --note is not UTF-8 text (b'caf\\xe9'); nothing was changed (is the terminal set to UTF-8?)"
    assert files_of(db.parent) == before


def test_a_fifo_as_the_database_is_refused_at_once(seed_path, tmp_path):
    fifo = tmp_path / "db.json"
    os.mkfifo(fifo)
    for command in (["list", "--format", "jsonl"], ["set", read_path(seed_path).papers[0].id, "--read"]):
        result = triage(*command, "--db", str(fifo))  # before: blocked opening it, for ever
        assert result.returncode == 2
        assert one_line(result) == f"triage: {fifo}: is not a regular file (a FIFO, socket or device); pass --db a database file"


# --- the database's folder and lock file ----------------------------------------------------------


def test_a_folder_where_the_lock_file_goes_leaves_the_database_readable_but_not_writable(seed_path, tmp_path):
    paper = read_path(seed_path).papers[0].id
    db = marked_database(tmp_path, paper)
    lock = tmp_path / "triage.json.lock"
    lock.unlink()
    lock.mkdir()
    listed = triage("list", "--format", "jsonl", "--db", str(db))
    assert listed.returncode == 0 and listed.stderr == "" and rows(listed)[0]["read"]
    before = files_of(tmp_path)
    result = triage("set", paper, "--star", "--db", str(db))
    assert result.returncode == 1 and result.stdout == ""
    assert one_line(result) == f"triage: {db}: not saved: its lock file {lock} is a folder, not a lock file"
    assert files_of(tmp_path) == before


def test_the_parent_of_triage_db_being_a_file_is_one_line(tmp_path):
    (tmp_path / "file").write_text("")
    result = triage("set", "abc", "--read", env={"TRIAGE_DB": str(tmp_path / "file" / "triage.json")})
    assert result.returncode == 2
    assert one_line(result) == f"triage: no folder {tmp_path / 'file'} for the database ($TRIAGE_DB)"


def test_an_unusable_home_is_one_line_naming_the_data_folder(seed_path, tmp_path):
    env = {"TRIAGE_DB": "", "HOME": "/proc", "XDG_DATA_HOME": ""}  # /proc: nothing can be made in it, even by root
    paper = read_path(seed_path).papers[0].id
    for command in (["set", paper, "--read"], ["list", "--format", "jsonl"]):
        result = triage(*command, env=env)
        assert result.returncode == 2 and result.stdout == ""
        line = one_line(result)
        assert line.startswith("triage: /proc/.local/share/paper-triage: cannot make the database folder: "), line


def test_a_read_only_file_system_is_read_and_a_change_is_refused_untouched(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    with mounted_tmpfs(tmp_path / "ro") as folder:
        db = marked_database(folder, papers[0].id)
        before = files_of(folder)
        remount_read_only(folder)
        listed = triage("list", "--format", "jsonl", "--db", str(db))
        assert listed.returncode == 0 and listed.stderr == ""
        assert [row["read"] for row in rows(listed)][:2] == [True, False]
        result = triage("set", papers[1].id, "--star", "--db", str(db))
        assert result.returncode == 1 and result.stdout == ""
        assert one_line(result) == f"triage: {db}: not saved: its lock file {db}.lock cannot be opened (Read-only file system)"
        assert files_of(folder) == before


def test_another_users_database_is_read_and_a_change_is_refused(seed_path):
    """As user nobody, on a database (and lock file) root made: what chmod means for everyone but root."""
    nobody = as_nobody()
    paper = read_path(seed_path).papers[0].id
    with shared_folder() as folder:
        db = marked_database(folder, paper)
        before = files_of(folder)
        env = {"TRIAGE_CACHE": str(folder / "no-cache")}
        listed = triage("list", "--format", "jsonl", "--db", str(db), env=env, user=nobody)
        assert listed.returncode == 0 and listed.stderr == "" and rows(listed)[0]["read"]
        result = triage("set", paper, "--star", "--db", str(db), env=env, user=nobody)
        assert result.returncode == 1 and result.stdout == ""
        assert one_line(result) == f"triage: {db}: not saved: its lock file {db}.lock cannot be opened (Permission denied)"
        assert files_of(folder) == before


# --- a full disk ----------------------------------------------------------------------------------


def test_a_full_disk_refuses_the_mark_and_leaves_the_database_as_it_was(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    with mounted_tmpfs(tmp_path / "small") as folder:
        db = marked_database(folder, papers[0].id)
        filler = fill(folder)
        before = {name: data for name, data in files_of(folder).items() if name != "filler"}
        result = triage("set", papers[1].id, "--star", "--db", str(db))
        assert result.returncode == 1 and result.stdout == ""  # no JSON line: nothing claimed saved
        assert one_line(result) == f"triage: {db}.journal: not saved: No space left on device"
        assert {name: data for name, data in files_of(folder).items() if name != "filler"} == before
        filler.unlink()
        listed = rows(triage("list", "--format", "jsonl", "--db", str(db)))
        assert (listed[0]["read"], listed[1]["starred"]) == (True, False)


def test_a_mark_saved_on_a_nearly_full_disk_is_saved_though_the_snapshot_is_not_rewritten(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    with mounted_tmpfs(tmp_path / "small") as folder:
        db = marked_database(folder, papers[0].id)
        filler = fill(folder, leave_pages=1)  # room for the journal line, none for a new snapshot
        result = triage("set", papers[1].id, "--star", "--db", str(db), "--format", "jsonl")
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["starred"]
        assert one_line(result) == f"triage: {db}: not rewritten (No space left on device); every change is kept in triage.json.journal"
        assert not [path for path in folder.iterdir() if path.name.endswith(".tmp")]
        filler.unlink()
        listed = rows(triage("list", "--format", "jsonl", "--db", str(db)))
        assert (listed[0]["read"], listed[1]["starred"]) == (True, True)


def test_quitting_the_app_on_a_nearly_full_disk_keeps_the_mark_and_says_the_snapshot_was_not_rewritten(seed_path, tmp_path):
    first = read_path(seed_path).papers[0].id
    with mounted_tmpfs(tmp_path / "small") as folder:
        db = marked_database(folder, first)
        filler = fill(folder, leave_pages=1)
        term = Tmux(f"{triage_command()} --db {db} 2>&1", width=250)
        try:
            term.wait_for(lambda s: "1 read" in s)
            term.send("s")
            term.wait_for(lambda s: "1 ★" in s)
            term.send("q")
            screen = " ".join(term.wait_for(lambda s: "EXIT=" in s).split())
            assert "EXIT=0" in screen and "Traceback" not in screen  # before: close() raised, a traceback, exit 1
            assert f"triage: {db}: not rewritten (No space left on device); every change is kept in triage.json.journal" in screen
        finally:
            term.kill()
        filler.unlink()
        row = rows(triage("list", "--format", "jsonl", "--db", str(db)))[0]
        assert (row["read"], row["starred"]) == (True, True)


# --- folders the user cannot read -----------------------------------------------------------------


def test_a_database_under_a_folder_the_user_cannot_read_is_one_line(seed_path):
    """As user nobody, $TRIAGE_DB (and --db) under a folder only root may enter. Before: a PermissionError
    traceback from tui/cli.py."""
    nobody = as_nobody()
    paper = read_path(seed_path).papers[0].id
    with shared_folder() as folder:
        private = folder / "private"
        private.mkdir(mode=0o700)
        db = private / "x" / "triage.json"
        env = {"TRIAGE_DB": str(db), "TRIAGE_CACHE": str(folder / "cache")}
        for command in (["list", "--format", "jsonl"], ["set", paper, "--read"], ["sync", str(folder)], []):
            result = triage(*command, env=env, user=nobody)
            assert result.returncode == 2 and result.stdout == "", result.stderr
            assert one_line(result) == f"triage: cannot reach the folder {db.parent} for the database ($TRIAGE_DB): Permission denied"
        result = triage("merge", str(folder / "other.json"), "--dry-run", "--db", str(db), env=env, user=nobody)
        assert one_line(result) == f"triage: cannot reach the folder {db.parent} for the database (--db): Permission denied"


def test_files_and_folders_the_user_cannot_read_at_start_are_one_line_each(seed_path):
    """As user nobody: a list, the cache folder, the keys file, a sync folder under a folder only root may enter."""
    nobody = as_nobody()
    with shared_folder() as folder:
        private = folder / "private"
        private.mkdir(mode=0o700)
        (private / "list.txt").write_bytes(seed_path.read_bytes())
        env = {"TRIAGE_DB": str(folder / "triage.json"), "TRIAGE_CACHE": str(folder / "cache")}
        result = triage("list", str(private / "list.txt"), env=env, user=nobody)
        assert result.returncode == 2
        assert one_line(result) == f"triage: {private / 'list.txt'}: Permission denied"
        result = triage("list", str(seed_path), env={**env, "TRIAGE_CACHE": str(private / "cache")}, user=nobody)
        assert result.returncode == 0 and result.stderr == ""  # a cache that cannot be written is not written
        result = triage("keys", env={**env, "TRIAGE_CONFIG": str(private / "keys.toml")}, user=nobody)
        assert result.returncode == 2
        assert one_line(result) == f"triage: {private / 'keys.toml'}: Permission denied"
        result = triage("sync", str(private / "sync"), env=env, user=nobody)
        assert result.returncode == 2
        assert one_line(result).startswith(f"triage: {private / 'sync'}: ")
