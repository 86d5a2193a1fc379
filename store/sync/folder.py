"""Marks shared through a folder the user already syncs (Syncthing, Dropbox, a git repo, a USB stick),
and another database folded into this one.

`sync(store, folder)`: every database writes only its own device file in the folder,
`<device>.triage-marks.jsonl` (`store.sync.marksfile`), so two devices never write the same file and a sync
tool never sees a conflict. It reads every device file there (its own too: a database put back from an
older copy gets back what it had sent), merges their records into the store (`store.marks.merge`: per field
the later change) as one durable write, then rewrites its own file with everything it holds, only when
that changes it. A device file that cannot be believed (cut short, garbage, from a newer version, a text
that is not Unicode) is skipped with a message: nothing of ours is changed by it. One written by a device
whose clock is far ahead of this one is merged, and named (`store.marks.clock`: a change made here after
it still wins). Others can write to the folder, so nothing there is followed or waited on: only regular
files are read (never through a symbolic link, never a FIFO or a device), a line at a time, at most
`MOST_BYTES` and `MOST_PAPERS` each; our own file is replaced by a file renamed over it, never written
through a link put in its place (the link is replaced, and told). Our own file holding marks made under our device
id that we do not hold means another database claims the id (`store.marks.device`): its marks are merged,
that is said, and this database takes a new id.

A device file already merged, unchanged since (the same file, size and time), is not read again, and
our own file is not encoded again while it holds what we hold (a digest of our records): the settings
document `sync` keeps what was seen, that digest, and when the last sync was. Running `sync` again with
nothing new changes no mark and rewrites no file.

`other_database(db, other)`: the records of another database file, to fold into this one; that file is
only read, and refused unless it is a database (`store.marks.journal_files.read_untouched`). `merge_preview`:
what the fold would change, writing nothing anywhere.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from store.library.shelf import Records, read_file
from store.marks.db import TABLE, TriageStore, folded, papers_path
from store.common.errors import ReadError
from store.common.files import open_regular, read_regular, write_whole
from store.marks.journal_files import journal_of, read_untouched
from store.sync.marksfile import encode_documents, header, read
from store.marks.merge import Record, merge_all, records_of
from store.papers.model import Triage
from store.common.collector import collector_paused
from store.marks.clock import ahead, now as wall
from store.marks.device import claims

SUFFIX = ".triage-marks.jsonl"
MOST_PAPERS = 100_000
"""The most papers one device file may bring: a file with marks on more is skipped whole (one person's
marks on the longest lists the app opens fit; a file that would swell this database for good does not)."""
MOST_BYTES = 64 * 1024 * 1024
"""The largest device file read (as large as `MOST_PAPERS` papers with long notes)."""
HEADER_BYTES = 4096
"""More than a marks file's header line takes."""
SYNC = "sync"
"""The settings document: the folder last synced with, the device files seen there, when."""


@dataclass
class Synced:
    """What a sync did: the device files read, those skipped (one line each, why), what else the user
    must be told (one line each: a device whose clock is far ahead), the papers whose marks changed here
    (state before, after), and whether this device's file was rewritten."""

    read: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    changed: dict[str, tuple[Triage, Triage]] = field(default_factory=dict)
    wrote: bool = False
    at: float = 0.0


def device_file(folder: Path, device: str) -> Path:
    return folder / f"{device}{SUFFIX}"


def _signature(file: Path | int) -> list[int]:
    """A device file's inode, size and time (of the link itself, when it is one; or of an open file)."""
    st = os.fstat(file) if isinstance(file, int) else file.lstat()
    return [st.st_ino, st.st_size, st.st_mtime_ns]


def _body(data: bytes) -> bytes:
    """A marks file's lines after its header (which says when it was written)."""
    return data.partition(b"\n")[2]


def combined(files: Iterable[Mapping[str, tuple[Record, str]]]) -> dict[str, tuple[Record, str]]:
    """The records of several files merged per paper (the first non-empty fingerprint kept)."""
    by_paper: dict[str, list[tuple[Record, str]]] = {}
    for records in files:
        for pid, entry in records.items():
            by_paper.setdefault(pid, []).append(entry)
    out = {}
    for pid, entries in by_paper.items():
        record = entries[0][0] if len(entries) == 1 else merge_all(record for record, _ in entries)
        out[pid] = (record, next((fp for _, fp in entries if fp), ""))
    return out


def folder_of(folder: str | os.PathLike[str]) -> Path:
    """The sync folder, or ReadError when it is not one."""
    path = Path(folder)
    try:
        if not path.is_dir():
            raise ReadError(str(path), "is not a folder" if path.exists() else "no such folder (the sync folder must exist)")
    except OSError as exc:  # a folder on the way the user may not enter
        raise ReadError(str(path), exc.strerror or str(exc)) from None
    return path


def sync(store: TriageStore, folder: str | os.PathLike[str], now: float | None = None) -> Synced:
    """Exchange marks with the other devices' files in `folder` (see the module docstring)."""
    with collector_paused():  # reading and merging makes some ten objects a mark, none in cycles
        return _sync(store, folder, now)


def _sync(store: TriageStore, folder: str | os.PathLike[str], now: float | None) -> Synced:
    path = folder_of(folder)
    now = wall() if now is None else now
    report = Synced(at=now)
    mine = device_file(path, store.device)
    where = str(path.resolve())
    state = store.setting(SYNC)
    seen: dict[str, Any] = state.get("seen", {}) if state.get("folder") == where and isinstance(state.get("seen"), dict) else {}
    now_seen: dict[str, list[int]] = {}
    files, ours, papers = [], None, {}
    for file in sorted(path.glob("*" + SUFFIX)):
        if file.name.startswith("."):
            continue  # a sync tool's or our own temporary file
        try:
            signature = _signature(file)
            if seen.get(file.name) == signature:
                now_seen[file.name] = signature
                continue
            with open_regular(file, MOST_BYTES) as opened:
                signature = _signature(opened.fileno())
                files.append(read(str(file), opened, MOST_PAPERS, MOST_BYTES, papers))
                opened.seek(0)
                head = header(str(file), opened.readline(HEADER_BYTES))
            mine = _tell(store, file, head, files[-1], mine, report)
        except ReadError as exc:
            if file == mine:
                ours = exc  # written over below, and told then
            else:
                report.skipped.append(f"{exc}; skipped")
            continue
        except OSError as exc:
            report.skipped.append(f"{file}: {exc.strerror or exc}; skipped")
            continue
        now_seen[file.name] = signature
        report.read.append(file.name)
    if files:
        report.changed = store.fold(combined(files))
        store.keep_records(papers)  # (each paper's richest record: a poorer one is not kept over it)
    held = store.digest()
    try:
        if held != state.get("sent") or mine.name not in now_seen:  # else our file holds what we hold
            data = encode_documents("marks", store.device, store.documents(), written=now, papers=store.records(marked_only=False))
            if not _holds(mine, data):
                write_whole(mine, data, links=False)  # a link planted in its place is replaced, never written through
                report.wrote = True
                if ours is not None:
                    report.skipped.append(f"{ours}; replaced by this device's file")
            now_seen[mine.name] = _signature(mine)
    except OSError as exc:
        raise ReadError(str(mine), f"not written: {exc.strerror or exc}") from None
    store.update_setting(SYNC, lambda doc: {**doc, "folder": where, "seen": now_seen, "sent": held, "last": now})
    return report


def _holds(file: Path, data: bytes) -> bool:
    """Whether our device file (a regular file) holds the lines of `data` after its header (which says when
    it was written)."""
    try:
        return _body(read_regular(file, len(data) + HEADER_BYTES)) == _body(data)
    except (ReadError, FileNotFoundError):
        return False


def _tell(store: TriageStore, file: Path, head: Mapping[str, Any], records: Mapping[str, tuple[Record, str]],
          mine: Path, report: Synced) -> Path:
    """What the device file `file` (its header, its records) says beyond its marks, in `report.told`: it was
    written by a device whose clock is far ahead (`store.marks.clock`); it is ours (`mine`) and holds marks made
    under our device id that we do not hold (`store.marks.device`: we take a new id). Our device file after."""
    far = ahead(head.get("written"), report.at)
    if far:
        report.told.append(f"{file}: written by a device whose clock is {far} ahead of this one (is one of"
                           " them wrong?); its marks are merged, and a change made here after them wins")
    if file != mine or not claims(records_of(store.documents()), records, store.device):
        return mine
    old, new = store.device, store.renew_device()
    report.told.append(f"{file}: holds marks made as device {old} that this database does not hold: another database"
                       f" (a copy of this one: a restored backup, a cloned disk) has the same device id; its marks are"
                       f" merged, and this database is now device {new}")
    return device_file(file.parent, new)


def last_synced(store: TriageStore) -> float | None:
    """When this database last synced with a folder (None: never)."""
    last = store.setting(SYNC).get("last")
    return float(last) if isinstance(last, (int, float)) and not isinstance(last, bool) else None


def merge_preview(db: Path, other: str | os.PathLike[str]) -> dict[str, tuple[Triage, Triage]]:
    """What folding the database file `other` into the database `db` would change (`TriageStore.fold`),
    both only read: nothing is written anywhere (no lock file, no journal, no repair), even for a
    database not there yet."""
    records = other_database(db, other)
    return folded(read_untouched(db).get(TABLE, {}), records)[1]


def other_papers(other: str | os.PathLike[str]) -> Records:
    """The papers' records the database file `other` keeps (`store.library.shelf.read_file`: only read)."""
    return read_file(papers_path(Path(other)))


def other_database(db: Path, other: str | os.PathLike[str]) -> dict[str, tuple[Record, str]]:
    """The records of the database file `other`, only read (`store.marks.journal_files.read_untouched`: no lock
    file, no repair, no write). ReadError when it is none (a paper list, a backup, any other file), is damaged,
    or is the database `db` itself."""
    path = Path(other)
    if not os.path.lexists(path) and not os.path.isfile(journal_of(path)):
        raise ReadError(str(path), "no such database file")
    if os.path.realpath(path) == os.path.realpath(db):
        raise ReadError(str(path), "is this database itself")
    return records_of(read_untouched(path).get(TABLE, {}))
