"""The journaled store's files on disk, and each operation on them.

Files, for a database at `triage.json` (its real path, resolved once by `store.marks.journal`: a symbolic
link to the database and the database itself name one lock and one journal):

- `triage.json` — the snapshot: readable JSON (sorted keys, a document a line) with a schema version,
  a generation number and a `checksum` of the rest. Only ever replaced whole (`store.common.files.
  write_whole`: through a symbolic link to its target, keeping the file's mode).
- `triage.json.journal` — one JSON line per write since the snapshot: the full new value of each
  document that changed, the ids of those removed and a checksum `c` of the rest. A line is
  written at the end of what was read and fsynced (`append_line`); a torn last line (a writer
  killed mid-append) is not read (`read_lines`) and is cut off by the next append.
- `triage.json.lock` — the cross-process lock (`store.marks.lock`).
- `triage.json.previous` and `triage.json.journal.previous` — the snapshot and journal a fold
  replaced (`keep_previous`, `new_journal`): a second name of the old snapshot's file and the old
  journal renamed, so nothing is copied.

Here: where each file is, reading the snapshot and the journal's lines from an offset, appending
a line, and the files a fold keeps and starts. What their bytes hold (and their checksums) is
`store.marks.sealed`'s; the tables in memory, what a damaged file or another process's write means, and
when to fold, are `store.marks.journal`'s.
"""
from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Any

from store.common.errors import NotSaved, ReadError
from store.common.files import fsync_dir, link_over, real, write_durably
from store.marks.sealed import Damaged, Tables, parse_line, parse_snapshot


def file_id(path: Path) -> tuple[int, int, int] | None:
    """What tells one snapshot file from its replacement (inode, time, size), or None when there is none."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def file_size(path: Path) -> int:
    """The size of `path` in bytes, 0 when there is none."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def previous_snapshot(target: Path) -> Path:
    """The name a fold keeps the snapshot `target` it replaced under."""
    return target.with_name(target.name + ".previous")


def refuse_special(path: Path) -> None:
    """`ReadError` when `path` is there but is neither a file nor a folder (a FIFO would hang every read)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise ReadError(str(path), "is not a regular file (a FIFO, socket or device); pass --db a database file")


OWN_HEADS = (b'{\n "checksum": "', b'{\n "generation": ')
"""How every snapshot a paper-triage wrote begins: sealed (`store.marks.sealed`), or from before checksums."""
READ_TO_TELL = 16 << 20
"""A file up to this size that begins otherwise (a snapshot written by hand or by another tool) is a
database when it parses as one."""
MARKS_HEAD = b'{"paper-triage": '
"""How a marks file begins (`store.sync.marksfile`: a backup, a device file)."""


def journal_of(path: Path) -> Path:
    """The journal of the database `path`."""
    return path.with_name(path.name + ".journal")


def foreign(path: Path) -> str | None:
    """Why the file at `path` is no database a paper-triage made, which the store must then never repair
    (move aside, rebuild) nor write: a paper list, a backup, any other file or a folder given as one. None
    when it is one: it begins as every snapshot written does, or a file only the store makes is beside it
    (its journal, its previous snapshot: a damaged snapshot of ours may begin with anything); or when
    there is nothing there yet."""
    if not os.path.lexists(path):
        return None
    if os.path.isdir(path):
        return "is not a paper-triage database but a folder"
    beside = (journal_of(path), journal_of(real(path)), previous_snapshot(real(path)))
    if any(os.path.lexists(other) for other in beside):
        return None
    try:
        with open(path, "rb") as file:  # (a regular file: `refuse_special`)
            head = file.read(max(map(len, OWN_HEADS)))
            if head.startswith(OWN_HEADS):
                return None
            if head.lstrip().startswith(b"{") and os.fstat(file.fileno()).st_size <= READ_TO_TELL:
                parse_snapshot(str(path), head + file.read())
                return None
    except (OSError, ReadError):
        return None  # then reading it says why (a newer version wrote it: never written over either)
    except Damaged:
        pass
    hint = " (a backup is put back with triage restore)" if head.startswith(MARKS_HEAD) else ""
    return f"is not a paper-triage database; left as it is{hint}"


def read_untouched(path: Path) -> Tables:
    """The tables of the database `path` as its files hold them, read without writing anything (no lock
    file, no repair, no fold): for a database only looked at (`triage merge`'s OTHER_DB, a dry run).
    ReadError when it is no database (`foreign`), or is damaged: a damaged database is repaired only
    where it is opened to be written. Nothing there is no marks."""
    refuse_special(path)
    problem = foreign(path)
    if problem:
        raise ReadError(str(path), problem)
    journal = journal_of(path)
    while True:  # without the lock: read again when another process folded the journal meanwhile
        before = file_id(path)
        try:
            tables, generation = read_snapshot(path, in_use=False)
        except Damaged as exc:
            raise ReadError(str(path), f"{exc}; not merged: opened with --db it is repaired") from None
        entries, damaged, _ = read_lines(journal, 0)
        if damaged:
            raise ReadError(str(journal), f"{damaged} damaged line(s); not merged: opened with --db it is repaired")
        if file_id(path) == before:
            break
    for entry in entries:
        if entry["g"] >= generation:
            for name, change in entry["tables"].items():
                docs = tables.setdefault(name, {})
                for key in change["del"]:
                    docs.pop(key, None)
                docs.update(change["put"])
    return tables


def read_snapshot(path: Path, in_use: bool) -> tuple[Tables, int]:
    """The snapshot's tables and generation (nothing when there is none yet).

    `Damaged` when its content cannot be believed (or it vanished while `in_use`); `ReadError`
    when it cannot be read, or a newer schema wrote it."""
    if not path.exists():
        if in_use:
            raise Damaged("disappeared while in use")
        return {}, 0
    if path.is_dir():
        raise Damaged("is a folder, not a database file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ReadError(str(path), exc.strerror or str(exc)) from None
    return parse_snapshot(str(path), raw)


def read_lines(path: Path, start: int) -> tuple[list[dict[str, Any]], int, int]:
    """The valid journal lines of `path` from byte `start`, how many were damaged, and the bytes
    they took (a torn last line not included; one whose line end was damaged counts as damaged
    but is kept)."""
    end_of_file = file_size(path)
    if end_of_file <= start:
        return [], 0, 0
    with open(path, "rb") as f:
        f.seek(start)
        chunk = f.read(end_of_file - start)
    end = chunk.rfind(b"\n") + 1
    entries = [parse_line(line) for line in chunk[:end].splitlines()]
    damaged = entries.count(None)
    last = parse_line(chunk[end:-1]) if len(chunk) > end else None
    if last is not None:  # a whole line whose line end was damaged, not a torn one
        entries.append(last)
        damaged += 1
        end = len(chunk)
    return [entry for entry in entries if entry is not None], damaged, end


def append_line(path: Path, offset: int, line: bytes) -> None:
    """Write `line` at `offset` of the journal `path` and fsync it; `NotSaved` when it cannot be
    (no part of it is left)."""
    created = not path.exists()
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise NotSaved(f"{path}: not saved: {exc.strerror or exc}") from None
    try:
        if os.fstat(fd).st_size != offset:
            # A torn line from a killed writer (everything complete has been applied): cut it off.
            os.ftruncate(fd, offset)
        os.lseek(fd, offset, os.SEEK_SET)
        write_durably(fd, line)
    except OSError as exc:  # a full disk: what was written of the line goes, so no reader takes it for saved
        with contextlib.suppress(OSError):
            os.ftruncate(fd, offset)
        raise NotSaved(f"{path}: not saved: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if created:  # the journal's name is durable only once its folder is
        fsync_dir(path.parent)


def keep_previous(path: Path, built_from: tuple[int, int, int] | None) -> None:
    """Before a fold replaces the snapshot `path`: keep it as `<name>.previous` (a second name for
    the same file) when it is the one the tables were built from (`built_from`, its `file_id`),
    else leave no previous one."""
    target = real(path)
    kept = built_from is not None and file_id(target) == built_from
    if not (kept and link_over(target, previous_snapshot(target))):
        previous_snapshot(target).unlink(missing_ok=True)


def new_journal(path: Path, previous_journal: Path) -> None:
    """After a fold replaced the snapshot: the journal `path` renamed to `previous_journal` (or none
    kept when there was none) and a new, empty, durable one."""
    if path.exists():
        os.replace(path, previous_journal)
    else:
        previous_journal.unlink(missing_ok=True)
    with open(path, "wb") as f:
        f.flush()
        os.fsync(f.fileno())
    fsync_dir(path.parent)
