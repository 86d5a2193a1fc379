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
