"""A TinyDB `Storage` that never loses an acknowledged change: an fsynced journal line per write.

Here: the tables in memory (and which documents a write changed, `_Tracked`), kept equal to the
database's files — a snapshot replaced whole and a journal of a line per write since, each sealed
by a checksum (`store.marks.sealed`); catching up with other processes, recovery, and when to fold.
Each operation on a file (where it is, reading it, appending a line) is `store.marks.journal_files`'s.

A write is acknowledged once its line is fsynced; a torn last line (a writer killed mid-append)
is ignored and cut off by the next writer. A line that fails its checksum is skipped and reported.
A file lock (`store.marks.lock`, its wait bounded) is held around every read-modify-write and
compaction, so several processes can share one database; each read first applies the lines
others appended since. When it cannot be opened at all (a read-only folder) the database is only
read: a write raises `NotSaved`, and nothing is compacted.

A write that cannot be stored (a full disk) raises `NotSaved` and leaves no part of its line behind.
A compaction that fails leaves the journal as it was (every change is in it) and adds a notice.

When the journal grows past the snapshot's size it is folded into a new snapshot (generation + 1)
and a new, empty journal; the snapshot and journal replaced stay as `triage.json.previous` and
`triage.json.journal.previous`. Lines tagged with an older generation are skipped, so a crash
between the snapshot replace and the journal's renaming replays nothing twice.

Files without checksums (older versions) are believed as they are. A file that is no database a
paper-triage made (`journal_files.foreign`: a paper list or a folder given as one) raises
`ReadError` at once and is never touched. A snapshot of ours that fails its checksum or does not
parse is moved aside and rebuilt from what is in memory or, when newer (always, at open), the
previous snapshot and journal, plus the valid journal lines: it never replaces what is in memory,
and the journal is never set aside with it. One that cannot be read (no permission, a newer
schema) raises `ReadError` and is never written over.
"""
from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from store.common.errors import NotSaved, ReadError
from store.marks import journal_files
from store.common.files import copy_aside, move_aside, real, write_whole
from store.marks.lock import DatabaseLock
from store.marks.sealed import Damaged, Tables, journal_line, parse_snapshot, snapshot

MIN_COMPACT_BYTES = 256 * 1024


class _Tracked(dict):
    """A table (`key` None) or a document that records which documents changed in place.

    TinyDB's operations mutate tables and documents; recording `(table, key)` of each change
    lets a write journal only what changed instead of comparing every document.
    """

    __slots__ = ("_touched", "_name", "_key")

    def __init__(self, data: dict[str, Any], touched: set[tuple[str, str]], name: str, key: str | None = None) -> None:
        super().__init__(data)
        self._touched = touched
        self._name = name
        self._key = key

    def _mark(self, keys: Iterable[str]) -> None:
        if self._key is not None:
            self._touched.add((self._name, self._key))
        else:
            self._touched.update((self._name, key) for key in keys)

    def __setitem__(self, key: str, value: Any) -> None:
        self._mark((key,))
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._mark((key,))
        super().__delitem__(key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        other = dict(*args, **kwargs)
        self._mark(other)
        super().update(other)

    def pop(self, key: str, *default: Any) -> Any:
        self._mark((key,))
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, Any]:
        item = super().popitem()
        self._mark((item[0],))
        return item

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._mark((key,))
        return super().setdefault(key, default)

    def clear(self) -> None:
        self._mark(tuple(self))
        super().clear()

    def __ior__(self, other: Any) -> _Tracked:
        self.update(other)
        return self


class JournalStorage(Storage):
    """TinyDB storage: tables in memory, each write one fsynced journal line, atomic compaction.

    `notices` collects what a user must be told (a snapshot set aside, damaged journal lines);
    `take_notices` gives those that came after opening. A snapshot written by a newer schema, or
    one that cannot be read, raises `ReadError` and is left untouched (and so is what is in memory).
    """

    def __init__(self, path: str | os.PathLike[str], compact_bytes: int = MIN_COMPACT_BYTES) -> None:
        super().__init__()
        self.path = real(Path(path))
        """The database's real path, resolved once: a symbolic link and its target name one lock and
        one journal (named after the link, two processes would each hold a lock of their own)."""
        self.journal_path = self.path.with_name(self.path.name + ".journal")
        self.previous_journal = self.journal_path.with_name(self.journal_path.name + ".previous")
        self.compact_bytes = compact_bytes
        self.notices: list[str] = []
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ReadError(str(self.path.parent), f"cannot make the database folder: {exc.strerror or exc}") from None
        for file in (self.path, self.journal_path):
            journal_files.refuse_special(file)
        foreign = journal_files.foreign(self.path)
        if foreign:  # (before its lock file is made beside it)
            raise ReadError(str(self.path), foreign)
        self.lock = DatabaseLock(self.path)
        self._thread_lock = threading.RLock()
        self._tables: Tables = {}
        self._prev: dict[str, dict[str, dict[str, Any]]] = {}
        self._touched: set[tuple[str, str]] = set()
        self._external: set[tuple[str, str]] = set()
        self._generation = 0
        self._snapshot_id: tuple[int, int, int] | None = None
        self._offset = 0
        self._depth = 0
        with self.locked(catch_up=False):
            self._reload(opening=True)
        self._told = len(self.notices)
        self._unreadable = ""

    # --- locking -------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self, catch_up: bool = True) -> Iterator[None]:
        """Hold this process's thread lock and the cross-process file lock; re-entrant.

        The outermost hold first applies what other processes wrote (unless `catch_up` is False).
        """
        with self._thread_lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            held = self.lock.acquire()
            self._depth = 1
            try:
                if catch_up:
                    self._catch_up()
                yield
            finally:
                self._depth = 0
                if held:
                    self.lock.release()

    @property
    def read_only(self) -> str | None:
        """Why this database can only be read (its lock file cannot be opened), or None."""
        return self.lock.unavailable

    # --- loading -------------------------------------------------------------------------

    def _reload(self, opening: bool = False) -> None:
        """(Re)build the in-memory tables from snapshot + journal. Caller holds the lock.

        A snapshot whose content cannot be believed never replaces what is in memory: `_recover`.
        One that cannot be read at all raises `ReadError`, changing nothing.
        """
        try:
            tables, generation = journal_files.read_snapshot(self.path, in_use=self._snapshot_id is not None)
        except Damaged as exc:
            self._recover(str(exc), opening=opening)
            return
        self._snapshot_id = journal_files.file_id(self.path)
        self._generation = generation
        self._set_tables(tables)
        self._offset = 0
        self._replay(record=False)

    def _recover(self, problem: str, opening: bool = False, set_aside: bool = True) -> None:
        """The snapshot (or, without `set_aside`, the journal) was damaged: set the damaged snapshot
        aside, start from what is in memory (nothing when opening) or, when newer, the previous
        snapshot (see `_compact`) with its journal, apply every valid journal line of that
        generation or later (again: the same lines give the same state), and make that the new
        snapshot: nothing but the damaged part is lost, and the damaged file is kept."""
        notice = f"{self.path}: {problem}"
        if set_aside and os.path.lexists(self.path):
            notice += f"; moved aside to {move_aside(self.path).name}"
        self._snapshot_id = None
        self._offset = 0
        source = "the marks this app holds" if not opening else "the changes in its journal"
        previous = journal_files.previous_snapshot(self.path)
        try:
            tables, generation = parse_snapshot(str(previous), previous.read_bytes())
        except (OSError, Damaged, ReadError):
            tables, generation = None, 0
        if set_aside and tables is not None and (opening or generation > self._generation):
            self._generation = generation
            self._set_tables(tables)
            source = f"{previous.name} and the journals"
        if set_aside:
            entries, damaged, _ = journal_files.read_lines(self.previous_journal, 0)
            self._apply_entries(entries, record=not opening)
            if damaged:
                notice += f"; {damaged} damaged line(s) of {self.previous_journal.name} skipped"
        self._replay(record=not opening)
        self.notices.append(f"{notice}; {'starting from' if opening else 'written again from'} {source}")
        self._compact()

    def _set_tables(self, tables: Tables) -> None:
        self._tables, self._prev = {}, {}
        for name, docs in tables.items():
            self._apply(name, docs, [])

    def _catch_up(self, record: bool = True) -> None:
        """Apply journal lines appended since our offset (by other processes). Caller holds the lock.

        A compaction by someone else (the snapshot replaced) means a full reload. With `record`,
        the documents that changed are remembered for `take_external_changes`.
        """
        size = journal_files.file_size(self.journal_path)
        replaced = journal_files.file_id(self.path) != self._snapshot_id
        if not replaced and size >= self._offset:
            self._replay(record)
            return
        before = {name: dict(docs) for name, docs in self._tables.items()}
        if replaced:
            self._reload()
        else:  # only a compaction empties the journal, and it replaces the snapshot first
            self._recover(f"{self.journal_path.name} was cut short while in use", set_aside=False)
        if record:
            self._external |= _differences(before, self._tables)

    def _replay(self, record: bool) -> None:
        """Apply the journal's lines past our offset. A damaged line is skipped and reported, and the
        journal copied aside and folded into a new snapshot; a torn last line (a writer killed
        mid-append) is left for the next writer to cut off."""
        entries, damaged, end = journal_files.read_lines(self.journal_path, self._offset)
        self._apply_entries(entries, record)
        self._offset += end
        if damaged:
            aside = copy_aside(self.journal_path)
            self.notices.append(
                f"{self.journal_path}: {damaged} damaged line(s) skipped; a copy of the journal is in {aside.name}"
            )
            self._compact()

    def _apply_entries(self, entries: list[dict[str, Any]], record: bool) -> None:
        for entry in entries:
            if entry["g"] < self._generation:
                continue
            self._generation = entry["g"]  # later only while recovering a snapshot lost with its number
            for name, change in entry["tables"].items():
                self._apply(name, change["put"], change["del"])
                if record:
                    self._external.update((name, key) for key in (*change["put"], *change["del"]))

    def _apply(self, name: str, put: dict[str, dict[str, Any]], removed: list[str]) -> None:
        """Bring table `name` up to date with a change already on disk (recording nothing)."""
        docs = self._tables.get(name)
        if not isinstance(docs, _Tracked):
            docs = self._tables[name] = _Tracked({}, self._touched, name)
        for key in removed:
            dict.pop(docs, key, None)
        for key, doc in put.items():
            dict.__setitem__(docs, key, _Tracked(doc, self._touched, name, key))
        self._prev[name] = docs

    def take_external_changes(self) -> set[tuple[str, str]]:
        """(table, key) of documents other processes changed since the last call; picks up their writes first.

        A database that cannot be read now changes nothing here: the first time (for each problem)
        it becomes a notice, and writes fail until it reads again."""
        try:
            with self.locked():
                changed, self._external = self._external, set()
        except ReadError as exc:
            if str(exc) != self._unreadable:
                self._unreadable = str(exc)
                self.notices.append(f"{exc}; marks are not saved until it can be read again")
            return set()
        self._unreadable = ""
        return changed

    def take_notices(self) -> list[str]:
        """The notices that came since opening, or since the last call: each is given once."""
        with self._thread_lock:
            fresh, self._told = self.notices[self._told :], len(self.notices)
        return fresh

    # --- TinyDB's Storage interface -------------------------------------------------------

    def read(self) -> Tables:
        with self.locked():
            return self._tables

    def write(self, data: Tables) -> None:
        """Append the documents that changed since the last read as one fsynced journal line."""
        with self.locked(catch_up=False):
            changes = self._changes(data)
            dropped = self._prev.keys() - data.keys()
            self._touched.clear()
            self._tables = dict(self._prev)
            try:
                self._catch_up()
                if not changes:
                    return
                if self.read_only:
                    raise NotSaved(f"{self.path}: not saved: {self.read_only}")
                for name, change in changes.items():
                    self._apply(name, change["put"], change["del"])
                for name in dropped:
                    self._tables.pop(name, None)
                    self._prev.pop(name, None)
                line = journal_line(self._generation, changes)
                journal_files.append_line(self.journal_path, self._offset, line)
                self._offset += len(line)
            except BaseException:
                self._snapshot_id = None  # what is in memory may not be on disk: reload on next read
                raise
            if self._offset > max(self.compact_bytes, (self._snapshot_id or (0, 0, 0))[2]):
                self._compact_or_tell()

    def _changes(self, data: Tables) -> dict[str, dict[str, Any]]:
        """Per table, the documents `data` has new or changed (`put`) and those it lost (`del`)."""
        changes: dict[str, dict[str, Any]] = {}
        for name in self._prev.keys() | data.keys():
            old, new = self._prev.get(name, {}), data.get(name, {})
            keys = {key for table, key in self._touched if table == name}
            if new is not old:  # the table was rebuilt (TinyDB's own Table does that) or dropped
                keys.update(key for key, doc in new.items() if old.get(key) is not doc)
                keys.update(old.keys() - new.keys())
            if keys:
                changes[name] = {
                    "put": {key: dict(new[key]) for key in keys if key in new},
                    "del": sorted(key for key in keys if key not in new),
                }
        return changes

    def _compact(self) -> None:
        """Fold the journal into a new snapshot (`write_whole`) and start an empty journal.

        The snapshot it replaces stays as `<name>.previous` (a second name for the same file) and
        the journal as `<journal>.previous` (renamed): nothing is copied, and a damaged snapshot is
        rebuilt exactly from them. A snapshot that is not the one the tables were built from (or
        none) leaves no previous one."""
        self._generation += 1
        journal_files.keep_previous(self.path, self._snapshot_id)
        try:
            write_whole(self.path, snapshot(self._generation, self._tables))
        except BaseException:
            self._generation -= 1  # the snapshot was not replaced: the journal's lines still count
            raise
        journal_files.new_journal(self.journal_path, self.previous_journal)
        self._offset = 0
        self._snapshot_id = journal_files.file_id(self.path)

    def _compact_or_tell(self) -> None:
        """`_compact`, or when it cannot be written (a full disk) a notice: the journal keeps every change."""
        try:
            self._compact()
        except OSError as exc:
            notice = f"{self.path}: not rewritten ({exc.strerror or exc}); every change is kept in {self.journal_path.name}"
            if notice not in self.notices:
                self.notices.append(notice)

    def close(self) -> None:
        """Fold a non-empty journal into the snapshot so the file on disk is current and readable;
        a snapshot that cannot be read now is never written over (the journal keeps the writes), nor
        one that is only read (see `_compact_or_tell` for a full disk)."""
        with contextlib.suppress(ReadError), self.locked():
            if self._offset and not self.read_only:
                self._compact_or_tell()


def _differences(before: Tables, after: Tables) -> set[tuple[str, str]]:
    changed = set()
    for name in before.keys() | after.keys():
        old, new = before.get(name, {}), after.get(name, {})
        changed.update((name, key) for key in old.keys() | new.keys() if old.get(key) != new.get(key))
    return changed
