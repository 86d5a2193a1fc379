"""A TinyDB `Storage` that never loses an acknowledged change: an fsynced journal line per write.

Files, for a database at `triage.json`:

- `triage.json` — the snapshot: readable JSON (sorted keys, indented) with a schema version and
  a generation number. Only ever replaced whole (temp file, fsync, `os.replace`, folder fsync).
- `triage.json.journal` — one JSON line per write since the snapshot: the full new value of each
  document that changed and the ids of those removed. A write is acknowledged once its line is
  fsynced; a torn last line (a writer killed mid-append) is ignored and cut off by the next writer.
- `triage.json.lock` — a file lock held around every read-modify-write and compaction, so several
  processes can share one database; each read first applies the lines others appended since.

When the journal grows past the snapshot's size it is folded into a new snapshot (generation + 1)
and emptied. Lines tagged with an older generation are skipped, so a crash between the snapshot
replace and the journal truncation replays nothing twice.
"""
from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from filelock import FileLock
from tinydb.storages import Storage

from store.errors import ReadError

SCHEMA = 1
"""The snapshot's format. A mark added with a default (`dismissed`) needs no new version: a document
without it reads as the default, and an older paper-triage ignores it; a higher number makes older
versions refuse the whole database."""
MIN_COMPACT_BYTES = 256 * 1024
LOCK_POLL = 0.001

Tables = dict[str, dict[str, dict[str, Any]]]


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


def _file_id(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def move_aside(path: Path) -> Path:
    """Rename `path` (file or folder) to `<name>.corrupt-<time>`, never over an existing name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    os.rename(path, target)
    return target


class JournalStorage(Storage):
    """TinyDB storage: tables in memory, each write one fsynced journal line, atomic compaction.

    `notices` collects what a user must be told (a database moved aside, damaged journal lines).
    A snapshot written by a newer schema raises `ReadError` and is left untouched.
    """

    def __init__(self, path: str | os.PathLike[str], compact_bytes: int = MIN_COMPACT_BYTES) -> None:
        super().__init__()
        self.path = Path(path)
        self.journal_path = self.path.with_name(self.path.name + ".journal")
        self.compact_bytes = compact_bytes
        self.notices: list[str] = []
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file_lock = FileLock(str(self.path.with_name(self.path.name + ".lock")))
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
            self._load()

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
            self._file_lock.acquire(poll_interval=LOCK_POLL)
            self._depth = 1
            try:
                if catch_up:
                    self._catch_up()
                yield
            finally:
                self._depth = 0
                self._file_lock.release()

    # --- loading -------------------------------------------------------------------------

    def _load(self) -> None:
        """(Re)build the in-memory tables from snapshot + journal. Caller holds the lock."""
        tables, generation = self._read_snapshot()
        self._snapshot_id = _file_id(self.path)
        self._generation = generation
        self._set_tables(tables)
        self._offset = 0
        self._catch_up(record=False)

    def _read_snapshot(self) -> tuple[Tables, int]:
        if not self.path.exists():
            return {}, 0
        problem = None
        data: Any = None
        if self.path.is_dir():
            problem = "is a folder, not a database file"
        else:
            try:
                raw = self.path.read_bytes()
            except OSError as exc:
                raise ReadError(str(self.path), exc.strerror or str(exc)) from None
            if not raw.strip():
                problem = "is empty"
            else:
                try:
                    data = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, ValueError) as exc:
                    problem = f"is not valid JSON ({exc})"
        if problem is None:
            problem = self._check_shape(data)
        if problem is None:
            return {name: dict(docs) for name, docs in data["tables"].items()}, data.get("generation", 0)
        aside = move_aside(self.path)
        self.notices.append(f"{self.path}: {problem}; moved aside to {aside.name}, starting with an empty store")
        if self.journal_path.exists():
            journal_aside = move_aside(self.journal_path)
            self.notices.append(f"{self.journal_path}: its snapshot was unreadable; moved aside to {journal_aside.name}")
        return {}, 0

    def _check_shape(self, data: Any) -> str | None:
        if not isinstance(data, dict) or not isinstance(data.get("schema"), int):
            return "is not a paper-triage database (no schema version)"
        if data["schema"] > SCHEMA:
            raise ReadError(
                str(self.path),
                f"written by a newer paper-triage (schema {data['schema']}, this version reads {SCHEMA}); "
                "upgrade paper-triage or use another --db",
            )
        tables = data.get("tables")
        if not isinstance(tables, dict) or not all(
            isinstance(docs, dict) and all(isinstance(doc, dict) for doc in docs.values()) for docs in tables.values()
        ):
            return "has no readable tables"
        if not isinstance(data.get("generation", 0), int):
            return "has no readable generation number"
        return None

    def _set_tables(self, tables: Tables) -> None:
        self._tables, self._prev = {}, {}
        for name, docs in tables.items():
            self._apply(name, docs, [])

    def _catch_up(self, record: bool = True) -> None:
        """Apply journal lines appended since our offset (by other processes). Caller holds the lock.

        A compaction by someone else (the snapshot replaced) means a full reload. With `record`,
        the documents that changed are remembered for `take_external_changes`.
        """
        try:
            size = self.journal_path.stat().st_size
        except FileNotFoundError:
            size = 0
        if _file_id(self.path) != self._snapshot_id or size < self._offset:
            before = {name: dict(docs) for name, docs in self._tables.items()}
            self._load()
            if record:
                self._external |= _differences(before, self._tables)
            return
        if size == self._offset:
            return
        with open(self.journal_path, "rb") as f:
            f.seek(self._offset)
            chunk = f.read(size - self._offset)
        end = chunk.rfind(b"\n") + 1
        damaged = 0
        for line in chunk[:end].splitlines():
            try:
                entry = json.loads(line)
                if entry["g"] < self._generation:
                    continue
                changes = entry["tables"]
                for name, change in changes.items():
                    self._apply(name, change["put"], change["del"])
                    if record:
                        self._external.update((name, key) for key in (*change["put"], *change["del"]))
            except (ValueError, KeyError, TypeError, AttributeError):
                damaged += 1
        self._offset += end
        if damaged:
            aside = self.path.with_name(f"{self.journal_path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
            aside.write_bytes(self.journal_path.read_bytes())
            self.notices.append(
                f"{self.journal_path}: {damaged} damaged line(s) skipped; a copy of the journal is in {aside.name}"
            )
            self._compact()

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
        """(table, key) of documents other processes changed since the last call; picks up their writes first."""
        with self.locked():
            changed, self._external = self._external, set()
        return changed

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
                for name, change in changes.items():
                    self._apply(name, change["put"], change["del"])
                for name in dropped:
                    self._tables.pop(name, None)
                    self._prev.pop(name, None)
                line = json.dumps({"g": self._generation, "tables": changes}, ensure_ascii=False) + "\n"
                self._append(line.encode("utf-8"))
            except BaseException:
                self._snapshot_id = None  # what is in memory may not be on disk: reload on next read
                raise
            if self._offset > max(self.compact_bytes, (self._snapshot_id or (0, 0, 0))[2]):
                self._compact()

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

    def _append(self, line: bytes) -> None:
        fd = os.open(self.journal_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size != self._offset:
                # A torn line from a killed writer (we have applied everything complete): cut it off.
                os.ftruncate(fd, self._offset)
            os.lseek(fd, self._offset, os.SEEK_SET)
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        self._offset += len(line)

    def _compact(self) -> None:
        """Fold the journal into a new snapshot: temp file, fsync, replace, fsync folder, empty journal."""
        self._generation += 1
        body = json.dumps(
            {"schema": SCHEMA, "generation": self._generation, "tables": self._tables},
            sort_keys=True,
            indent=1,
            ensure_ascii=False,
        )
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(body + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        _fsync_dir(self.path.parent)
        with open(self.journal_path, "r+b" if self.journal_path.exists() else "wb") as f:
            f.truncate(0)
            f.flush()
            os.fsync(f.fileno())
        self._offset = 0
        self._snapshot_id = _file_id(self.path)

    def close(self) -> None:
        """Fold a non-empty journal into the snapshot so the file on disk is current and readable."""
        with self.locked():
            self._catch_up()
            if self._offset:
                self._compact()


def _differences(before: Tables, after: Tables) -> set[tuple[str, str]]:
    changed = set()
    for name in before.keys() | after.keys():
        old, new = before.get(name, {}), after.get(name, {})
        changed.update((name, key) for key in old.keys() | new.keys() if old.get(key) != new.get(key))
    return changed
