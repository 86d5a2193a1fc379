"""Files that are not the program's own, handed to it by a mistyped command or by someone else, through
the real command: a paper list, a backup, any JSON or a binary where a database is expected (`--db`,
`triage merge OTHER_DB`), FIFOs, devices and huge files where a list, a backup or the keys file is read.

Each is refused with one line naming it (exit 2), never a hang or a traceback, and left byte for byte:
the store repairs (moves aside, rebuilds) only a database it wrote. `triage merge` only reads OTHER_DB
(no lock file, no journal, no repair), and `--dry-run` writes nothing anywhere."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from store.readers import read_path
from tests.hostile import one_line, triage


def listing(*folders: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file of `folders` (recursively): its bytes, inode and modification time (a file rewritten
    with the same bytes, or written to in place, shows too)."""
    found = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            info = path.lstat()
            content = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
            found[str(path)] = (content, info.st_ino, info.st_mtime_ns)
    return found


def marked(db: Path, seed_path: Path, *flags: str, index: int = 0) -> str:
    """Paper `index` of the seed list marked with `flags` in the database `db` (the real `triage set`)."""
    pid = read_path(seed_path).papers[index].id
    done = triage("set", pid, *flags, str(seed_path), "--db", str(db))
    assert done.returncode == 0, done.stderr
    return pid


def not_databases(folder: Path, seed_path: Path) -> dict[str, Path]:
    """A paper list, a `triage backup` file, any JSON and a binary, each in `folder`."""
    folder.mkdir()
    found = {"a paper list": folder / "papers.jsonl", "a backup": folder / "marks.jsonl",
             "some JSON": folder / "config.json", "a binary": folder / "photo.jpg"}
    papers = read_path(seed_path).papers[:40]
    found["a paper list"].write_text("".join(json.dumps({"title": p.title, "abstract": p.text}) + "\n" for p in papers))
    other = folder.parent / "other.json"
    marked(other, seed_path, "--star")
    assert triage("backup", str(found["a backup"]), "--db", str(other)).returncode == 0
    other.unlink()
    found["some JSON"].write_text('{"schema": "mine", "theme": "dark"}\n')
    found["a binary"].write_bytes(bytes(range(256)) * 64)
    return found


KINDS = ("a paper list", "a backup", "some JSON", "a binary")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dry_run", [True, False], ids=["dry-run", "merge"])
def test_merge_of_a_file_that_is_no_database_is_refused_and_changes_nothing(tmp_path, seed_path, kind, dry_run):
    """Before: `triage merge papers.jsonl --dry-run` said "0 papers' marks would change" and left papers.jsonl
    a 77-byte empty database, the list moved to papers.jsonl.corrupt-<time>."""
    mine = tmp_path / "mine"
    mine.mkdir()
    marked(mine / "triage.json", seed_path, "--read")
    other = not_databases(tmp_path / "given", seed_path)[kind]
    before = listing(tmp_path)
    result = triage("merge", str(other), "--db", str(mine / "triage.json"), *(["--dry-run"] if dry_run else []))
    assert result.returncode == 2 and result.stdout == ""
    line = one_line(result)
    assert line.startswith(f"triage: {other}: is not a paper-triage database"), line
    if kind == "a backup":
        assert line.endswith("(a backup is put back with triage restore)")
    assert listing(tmp_path) == before


@pytest.mark.parametrize("command", [["list", "--format", "jsonl"], ["set", "{pid}", "--star"], ["backup", "{out}"]])
def test_a_db_naming_a_paper_list_or_a_folder_is_refused_and_left_as_it_is(tmp_path, seed_path, command):
    """Before: the list was moved aside as papers.jsonl.corrupt-<time> and a database put in its place
    (a folder too)."""
    given = not_databases(tmp_path / "given", seed_path)
    folder = tmp_path / "folder"
    (folder / "inside").mkdir(parents=True)
    pid = read_path(seed_path).papers[0].id
    argv = [arg.format(pid=pid, out=tmp_path / "out.jsonl") for arg in command]
    for db in (given["a paper list"], given["a binary"], folder):
        before = listing(given["a binary"].parent, folder)
        result = triage(*argv, "--db", str(db))
        assert result.returncode == 2 and result.stdout == "", result.stderr
        assert one_line(result).startswith(f"triage: {db}: is not a paper-triage database"), result.stderr
        assert listing(given["a binary"].parent, folder) == before  # no lock file, no journal beside it either


def test_merge_only_reads_other_db_and_a_dry_run_writes_nothing_anywhere(tmp_path, seed_path):
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    mine.mkdir(), theirs.mkdir()
    marked(mine / "triage.json", seed_path, "--read")
    pid = marked(theirs / "triage.json", seed_path, "--star", "--priority", "2", index=1)
    before = listing(tmp_path)
    preview = triage("merge", str(theirs / "triage.json"), "--dry-run", "--db", str(mine / "triage.json"))
    assert preview.returncode == 0, preview.stderr
    assert preview.stdout == f"{pid}  starred: no → yes; priority: 0 → 2\n"
    assert listing(tmp_path) == before  # not even the lock files were touched
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert triage("merge", str(theirs / "triage.json"), "--dry-run", "--db", str(fresh / "t.json")).returncode == 0
    assert list(fresh.iterdir()) == []  # a dry run into a database not there yet makes none
    done = triage("merge", str(theirs / "triage.json"), "--db", str(mine / "triage.json"))
    assert done.returncode == 0 and done.stdout == preview.stdout
    assert listing(theirs) == {name: seen for name, seen in before.items() if name.startswith(f"{theirs}/")}


def test_a_damaged_other_db_is_refused_not_repaired(tmp_path, seed_path):
    """Before: OTHER_DB was moved aside as triage.json.corrupt-<time> and rebuilt, though only read."""
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    mine.mkdir(), theirs.mkdir()
    marked(mine / "triage.json", seed_path, "--read")
    marked(theirs / "triage.json", seed_path, "--star", index=1)
    damaged = bytearray((theirs / "triage.json").read_bytes())
    damaged[-5] ^= 1
    (theirs / "triage.json").write_bytes(bytes(damaged))
    before = listing(tmp_path)
    result = triage("merge", str(theirs / "triage.json"), "--db", str(mine / "triage.json"))
    assert result.returncode == 2
    assert one_line(result) == (f"triage: {theirs / 'triage.json'}: is damaged (its checksum does not match its content);"
                                " not merged: opened with --db it is repaired")
    assert listing(tmp_path) == before


# --- FIFOs, devices, huge files where a list, a backup or the keys file is read ---------------------


def special(tmp_path: Path, kind: str, name: str) -> Path:
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


KINDS = {"fifo": "a FIFO", "zero": "a device"}


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_restore_from_a_fifo_or_a_device_is_one_line_not_a_hang(tmp_path, kind):
    """Before: `restore FIFO` hung for ever; a link to /dev/zero grew until a MemoryError."""
    path = special(tmp_path, kind, "marks.jsonl")
    result = triage("restore", str(path))
    assert result.returncode == 2
    assert one_line(result) == f"triage: {path}: {KINDS[kind]}, not a regular file: not read"


def test_restore_from_a_huge_file_is_refused_without_reading_it(tmp_path):
    from store.sync.backup import BACKUP_LIMIT

    path = tmp_path / "marks.jsonl"
    with open(path, "wb") as f:  # sparse: no disk is used
        f.truncate(BACKUP_LIMIT + 1)
    result = triage("restore", str(path))
    assert result.returncode == 2
    assert one_line(result) == f"triage: {path}: {BACKUP_LIMIT + 1:,} bytes, larger than the {BACKUP_LIMIT:,} read from a backup: not read"


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_fifo_or_a_device_as_a_list_file_is_one_line_not_a_hang(tmp_path, seed_path, kind):
    path = special(tmp_path, kind, "papers.txt")
    pid = read_path(seed_path).papers[0].id
    for command in (["list", str(path)], ["set", pid, "--star", str(path)], [str(path)]):
        result = triage(*command)
        assert result.returncode == 2, result.stderr
        assert one_line(result) == f"triage: {path}: {KINDS[kind]}, not a regular file: not read"


def test_a_fifo_in_a_folder_of_lists_is_skipped_and_the_others_are_read(tmp_path, seed_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "a.txt").write_bytes(seed_path.read_bytes())
    os.mkfifo(folder / "b.jsonl")
    result = triage("list", str(folder))
    assert result.returncode == 0
    assert result.stdout.count("\n") == len(read_path(seed_path).papers)
    assert one_line(result) == f"triage: 1 skipped: skipped {folder / 'b.jsonl'}: a FIFO, not a regular file: not read"
