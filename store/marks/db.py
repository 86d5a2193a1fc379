"""`TriageStore`: the user's marks on papers, on TinyDB with a journaled storage (see `store.marks.journal`).

One document per paper, keyed by the paper's id: read, starred, priority, dismissed, note, tags, updated,
`fp`, a fingerprint of the abstract, and `fields`: when each mark was changed and by which device (the
record `store.marks.merge` merges; a document stored before it was kept has none, and reads as changed at
its `updated` time). Each database has a stable `device` id, and a clock (`store.marks.clock`): a mark made
here is timed after every mark the database holds. A paper whose marks are all taken off
keeps its document (its marks blank, their times kept), so that a merge knows they were taken off. When a source list fixes a typo in an abstract its id
changes; `attach()` finds the old state again by fuzzy-matching fingerprints (rapidfuzz ratio
≥ 90, `store.marks.refind`) of states whose paper is not in the list against papers that have no state
(papers with an abstract: a title-only entry has no text to be re-found by). Before that, a paper without a state
that is a marked paper under another id (`store.library.identity`) shares its state, which then is not moved.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from pathlib import Path
from threading import Event
from typing import Any, NamedTuple

from store.marks.documents import MarksDB, MarksTable, from_doc
from store.common.errors import NotSaved, Stopped
from store.marks.changes import Change
from store.marks.merge import Record, doc_of, edit, latest, merge, record_of
from store.marks.journal import JournalStorage, MIN_COMPACT_BYTES
from store.papers.chunked import ids_of
from store.papers.matching import Columns
from store.papers.model import Paper, Triage, fingerprint
from store.papers.rows import Attached, ById, lookup_of
from store.marks.clock import after, held
from store.marks.refind import Remembered, refound
from store.marks.device import instance, known, new_id
from store.marks.kept import KeptPapers
from store.marks.place import db_path
from store.library.record import paper_stage
from store.library.identity import Identities, updated_papers
from store.library.seen import Seen
from store.library.shelf import Shelf

TABLE = "triage"
SETTINGS = "settings"
"""Documents that are not marks on a paper: the theme, each source file's session (cursor, query, view, sort)."""



def papers_path(db: Path) -> Path:
    """The file of the records of the database `db`'s marked papers (`store.library.shelf`), beside it."""
    return db.with_name(db.name + ".papers")


DEVICE = "device"
"""The settings document holding this database's device id, and where the database was when it was made."""
CLOCK = "clock"
"""The settings document holding this database's clock: `at`, the latest time of a mark it made or merged in."""
_BLANK = Triage().marks()


class _Looked(NamedTuple):
    """What `TriageStore.attach` finds of the store for a list's papers: the `stored` documents, the papers `shared`
    (id → the marked paper's), those `marked` (id → paper) and `housed` (with a state of their own), and the `orphans`
    (id → fingerprint: states whose paper is not in the list, to re-find)."""

    stored: dict[str, Any]
    shared: dict[str, str]
    marked: dict[str, Paper]
    housed: Set[str]
    orphans: dict[str, str]


class TriageStore(KeptPapers):
    """The durable triage state. Every method is safe across threads and processes. The records of the marked
    papers, and when each paper was first seen, are kept by the methods of `store.marks.kept.KeptPapers`.

    `notices` lists what the user must be told after opening (a database moved aside…), and
    after closing (a snapshot a full disk kept from being rewritten).
    Raises `ReadError` when the database was written by a newer schema or is not a file; `Locked` when
    another process holds it longer than `lock_timeout`; a write raises `NotSaved` when nothing of it
    could be stored (a full disk, a database whose lock file cannot be opened, so only read).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, compact_bytes: int = MIN_COMPACT_BYTES) -> None:
        self.path = db_path(path)
        self._db = MarksDB(self.path, storage=JournalStorage, compact_bytes=compact_bytes)
        self._storage: JournalStorage = self._db.storage  # type: ignore[assignment]
        self._table: MarksTable = self._db.table(TABLE)  # type: ignore[assignment]
        self._settings: MarksTable = self._db.table(SETTINGS)  # type: ignore[assignment]
        self._attached = Attached()
        """The attached papers, for the fingerprint of its abstract stored with a paper's state (the paper, not its
        text: a paper may keep its text as less than a string, `store.papers.packed.Packed`)."""
        self._device: str | None = None
        self._shelf = Shelf(papers_path(self._storage.path))
        self.papers_file = self._shelf.path
        """The file of the marked papers' records (`store.library.shelf`)."""
        self._seen = Seen(self._storage.path.with_name(self._storage.path.name + ".seen"))
        self.shares: dict[str, str] = {}
        """Attached paper id → the id of the marked paper it is, whose state it shares (see `attach`)."""
        self.updated: frozenset[str] = frozenset()
        """The attached papers that are a later version than the record kept of their marked paper (`is:updated`)."""
        self._identities: tuple[object, Identities | None] = (None, None)
        self._seen_later: dict[str, list[tuple[int, int]]] | None = None
        """The later versions seen of the marked papers, when the library is attached (`attach`)."""

    @property
    def notices(self) -> list[str]:
        return self._storage.notices

    def take_notices(self) -> list[str]:
        """What the user must be told that came up since opening (or the last call), each once:
        a snapshot damaged while in use, damaged journal lines, a database that cannot be read now."""
        return self._storage.take_notices()

    @property
    def lock_timeout(self) -> float:
        """Seconds a read or write waits for another process's hold on the database (`$TRIAGE_LOCK_TIMEOUT`, else 10)."""
        return self._storage.lock.timeout

    @lock_timeout.setter
    def lock_timeout(self, seconds: float) -> None:
        self._storage.lock.timeout = seconds

    def attach(self, papers: Iterable[Paper] | ById, refind: bool = True, refresh: bool = False,
               kept: Callable[[Sequence[Paper]], Columns | None] | None = None, library: bool = False,
               stop: Event | None = None, fingerprints: Callable[[Sequence[Paper]], Sequence[str] | None] | None = None,
               source: object = None, remembered: Remembered | None = None) -> dict[str, Triage]:
        """The stored state of each paper that has one, re-finding states of slightly edited abstracts
        (unless not `refind`: for papers that are not all of a list, whose other papers own the states).
        A paper without a state of its own that is a marked paper under another id (the same arXiv id, DOI,
        OpenReview id, or title and an author: `store.library.identity`) shares that paper's state: its marks
        are read and written there (`shares`), and it is `updated` when it is a later version than the record kept.
        The record of each marked paper is kept when none is (`store.library`), or, with `refresh`, when the
        paper's says more than the one kept (a marked paper's does whenever it is marked again). `kept(papers)` may
        give what they are matched by (`store.readers.match_cache.columns`: a long list's, kept), else it is made; and
        `fingerprints(papers)` their fingerprints (`store.readers.ids.fingerprints`: a long list's, kept), else they are
        worked out from their texts when needed; `remembered` what the re-finds on them found before
        (`store.readers.refound`: marks of other lists' papers are not looked for again).
        A later version seen is remembered (`store.library.seen.Seen.note_later`): the `library`'s papers, the kept
        records themselves, are `updated` when one of theirs was seen. A mark made on a later version keeps its
        record: the papers of that marked paper are no longer `updated` (`put`). Once `stop` is set (the app quits) it
        raises `Stopped` within a moment, having stored nothing or whole writes that the next attach makes again
        (the states moved, the records and versions kept): it may be given up, and is done again at the next open.

        A re-found state moves to the paper's new id (durably). The papers' texts are remembered
        so later `put`s store their fingerprints. Fingerprints are computed only where needed
        (~10 µs each: a second at 100,000 papers): for papers without a state when some state has
        lost its paper, and on `put`. `papers` may be a list's `ById` (the app's, its look-up made: `put` finds the papers
        it marks through it). The papers attached before under the same `source` (not None: a list's files) are
        forgotten: of a paper in two lists, the later attached list's is the one `put` keeps the record of.
        """
        if isinstance(papers, ById):
            listed = papers
        else:  # (the ids at C speed: a list of 100,000 is attached as it lands; a reopened one's from their column)
            papers = papers if isinstance(papers, Sequence) else list(papers)
            listed = ById(papers, list(ids_of(papers)), lookup_of(papers, "id"))  # (a reopened long list's look-up: kept)
        self._attached.add(listed, source)
        with self._storage.locked():
            looked = self._looked_at(listed, refind, kept, stop)
            if not looked.orphans:
                return self._attached_states(listed, looked, {}, refresh, library)
        # The re-find's pass over the list's papers (seconds at 1,000,000) is made without the lock: another process
        # writing meanwhile (`triage set`, a second window) waited, and gave up after its timeout. What it found holds
        # where the store is still as it was for it: the orphan's state unchanged, the paper still without a state.
        found = refound(listed.papers, looked.housed, looked.stored, looked.shared, looked.orphans, fingerprints,
                        remembered, stop)
        with self._storage.locked():
            now = self._looked_at(listed, refind, kept, stop)
            moves = {new: old for new, old in found.items()
                     if now.orphans.get(old) == looked.orphans[old] and new not in now.stored and new not in now.shared}
            return self._attached_states(listed, now, moves, refresh, library)

    def _looked_at(self, listed: ById, refind: bool, kept: Callable[[Sequence[Paper]], Columns | None] | None,
                   stop: Event | None) -> _Looked:
        """What `attach` finds of the store for the papers of `listed` (under the lock)."""
        stored = dict(self._docs())  # (not TinyDB's documents: a database with many marks waiting costs little)
        shared = self._same_papers(listed.papers, stored, kept)
        if stop is not None and stop.is_set():
            raise Stopped
        # The list's papers with marks, found in one look through its ids (no set of them made: ~0.1 s at 1,000,000)
        marked = _those(listed, stored.keys() | shared.keys())
        housed = marked.keys() & stored.keys()
        # Without an abstract (a title-only entry) there is no text to re-find a state by; a shared state stays.
        orphans = {key: doc["fp"] for key, doc in stored.items() if key not in housed and doc.get("fp")} if refind else {}
        orphans = {key: fp for key, fp in orphans.items() if key not in shared.values()} if shared else orphans
        return _Looked(stored, shared, marked, housed, orphans)

    def _attached_states(self, listed: ById, looked: _Looked, moves: Mapping[str, str], refresh: bool,
                         library: bool) -> dict[str, Triage]:
        """`attach`'s states of `looked` (under the lock), the states `moves` re-found (new id → old id) moved."""
        stored, shared, marked, housed = looked.stored, looked.shared, looked.marked, set(looked.housed)
        self.shares.update(shared)
        if moves:
            moved = _those(listed, moves.keys())
            docs = {new: {**stored[old], "fp": fingerprint(moved[new].text)} for new, old in moves.items()}
            with contextlib.suppress(NotSaved):  # a database only read: the states are found again next time
                self._table.replace_many(docs, moves.values())
            stored.update(docs)
            marked.update(moved)
            housed |= moved.keys()
        kept = self._shelf.richness()
        self._keep_papers({pid: p for pid, p in marked.items() if pid in stored and (refresh or pid not in kept)})  # (~40 µs each)
        states = {pid: from_doc(stored[pid]) for pid in housed}
        states.update((pid, from_doc(stored[key])) for pid, key in shared.items())
        self._seen_later = self._seeing(Seen.later, {}) if library else None
        found = updated_papers(marked, states, shared, self._shelf.richness(), self._seen_later)
        self.updated = (self.updated - listed.among(self.updated)) | found
        if found and not library:
            self._seeing(lambda seen: seen.note_later({shared.get(pid, pid): paper_stage(marked[pid]) for pid in found}), None)
        return states

    def get(self, pid: str) -> Triage:
        doc = self._table.get(doc_id=self.shares.get(pid, pid))
        return from_doc(doc) if doc is not None else Triage()

    def ids(self) -> list[str]:
        """Ids of every paper that has marks stored."""
        return [doc.doc_id for doc in self._table if not from_doc(doc).blank]

    @property
    def device(self) -> str:
        """This database's device id: made at random the first time, and again when the database is
        found to be a copy (`store.marks.device`: a copy must not write the copied one's device file)."""
        device, made = self._device_id()
        if made is not None:
            with contextlib.suppress(NotSaved):  # a database only read: nothing it marks is stored anyway
                self.put_setting(DEVICE, made)
        self._device = device
        return device

    def _device_id(self) -> tuple[str, dict[str, Any] | None]:
        """This database's device id, and the settings document to store when it is new here (or,
        for a database from before instance files, when its instance is first noted)."""
        with self._storage.locked():
            doc = self.setting(DEVICE)
            if self._device is not None and doc.get("id", self._device) == self._device:  # (none: only read)
                return self._device, None
            return known(doc, f"{socket.gethostname()}:{self._storage.path}", instance(self._storage.path))

    def renew_device(self) -> str:
        """Take a new device id (another database claims this one: `store.marks.device.claims`); the new id."""
        with self._storage.locked():
            doc = {**self.setting(DEVICE), "id": new_id()}
            self.put_setting(DEVICE, doc)
        self._device = doc["id"]
        return doc["id"]

    def put(self, states: Mapping[str, Triage]) -> None:
        """Store these states as one durable write: each mark that changed from the stored one gets the
        state's `updated` time (its change's stamp), or just after the latest time this database holds
        when that is later (`store.marks.clock`), and this database's device (see `store.marks.merge.edit`)."""
        with self._storage.locked():
            device, made = self._device_id()
            clock = self._clock()
            docs = {}
            attached = self._attached.papers({*states, *(self.shares.get(pid, pid) for pid in states)})
            for pid, state in states.items():
                pid = self.shares.get(pid, pid)  # (a paper sharing a marked paper's state writes it there)
                doc = self._table.get(doc_id=pid)
                record = record_of(doc) if doc is not None else {}
                before = from_doc(doc).marks() if doc is not None else _BLANK
                new = edit(record, before, state.marks(), after(state.updated, clock), device)
                if new is not record:
                    docs[pid] = doc_of(new, self._fingerprint(pid, attached.get(pid)))
            if docs:  # a new device id goes in the same journal line as the first marks it made
                self._write(docs, settings={DEVICE: made} if made else {})
                self._device = device
            self._keep_papers({self.shares.get(pid, pid): attached[pid] for pid in states if pid in attached})
            targets = {self.shares.get(pid, pid) for pid in states}
            again = {pid for pid in self.updated if self.shares.get(pid, pid) in targets}  # (a later version marked: its record kept)
            if again:
                self.updated = (self.updated - again) | updated_papers(self._attached.papers(again), {pid: self.get(pid) for pid in again}, self.shares,
                                                                       self._shelf.richness(), self._seen_later)

    def _clock(self) -> float:
        """This database's clock (`store.marks.clock.held`; under the lock)."""
        return held(self.setting(CLOCK).get("at"), (latest(record_of(doc)) for doc in self._docs().values()))

    def _write(self, docs: Mapping[str, dict[str, Any]], remove: Iterable[str] = (),
               settings: Mapping[str, dict[str, Any]] | None = None) -> None:
        """Store mark documents (and settings documents, the clock moved on to their latest time) and remove
        those of `remove`, as one durable write."""
        clock = self._clock()
        at = max([clock, *(doc["updated"] for doc in docs.values())])
        if at > clock or self._settings.get(doc_id=CLOCK) is None:
            settings = {**(settings or {}), CLOCK: {"at": at}}
        tables = self._storage.read()
        table = tables.setdefault(TABLE, {})
        for key in remove:
            table.pop(key, None)
        table.update(docs)
        if settings:
            tables.setdefault(SETTINGS, {}).update(settings)
        self._storage.write(tables)
        self._table.clear_cache()
        self._settings.clear_cache()

    def documents(self) -> dict[str, dict[str, Any]]:
        """Every paper's stored document as `store.marks.merge.doc_of` makes it (one stored before marks had
        times made so), for a marks file (`store.sync.marksfile.encode_documents`)."""
        with self._storage.locked():
            return {pid: doc if isinstance(doc.get("fields"), str) else doc_of(record_of(doc), doc.get("fp", ""))
                    for pid, doc in self._docs().items()}

    def _docs(self) -> Mapping[str, Mapping[str, Any]]:
        """The stored mark documents by paper id, as the storage holds them (to read only; under the lock)."""
        return self._storage.read().get(TABLE, {})

    def digest(self) -> str:
        """A digest of every paper's record and fingerprint, and of how much each paper's kept record says: the
        same digest, the same marks and times, and the same papers' records."""
        hashed = hashlib.blake2b(digest_size=16)
        with self._storage.locked():
            hashed.update(json.dumps(sorted(self._shelf.richness().items())).encode())
            for pid, doc in self._docs().items():
                fields = doc.get("fields")
                hashed.update(f"{pid}\0{doc.get('fp', '')}\0{fields if isinstance(fields, str) else json.dumps(doc, sort_keys=True)}\n".encode())
        return hashed.hexdigest()

    def fold(self, incoming: Mapping[str, tuple[Record, str]]) -> dict[str, tuple[Triage, Triage]]:
        """Merge records from elsewhere (paper id → record, fingerprint) into those stored, as one durable
        write: each paper whose record changed, with its state before and after (`folded`)."""
        with self._storage.locked():
            docs, changed = folded(self._docs(), incoming)
            if docs:
                self._write(docs)
        return changed

    def replace_all(self, incoming: Mapping[str, tuple[Record, str]]) -> None:
        """Make these records (paper id → record, fingerprint) the only marks stored, as one durable write."""
        with self._storage.locked():
            docs = {pid: doc_of(record, fp) for pid, (record, fp) in incoming.items()}
            self._write(docs, [doc.doc_id for doc in self._table if doc.doc_id not in docs])

    def _fingerprint(self, pid: str, attached: Paper | None) -> str:
        """The fingerprint of the attached paper `attached`'s text (of id `pid`), else the one stored with its state."""
        fp = fingerprint(attached.text if attached is not None else "")
        if fp:
            return fp
        doc = self._table.get(doc_id=pid)
        return doc.get("fp", "") if doc is not None else ""

    def update(self, pid: str, change: Callable[[Triage], Triage]) -> Triage:
        """Read-modify-write one paper's state under the lock (safe against other processes); the new state."""
        return self.update_many([pid], change)[pid]

    def update_many(self, pids: Iterable[str], change: Callable[[Triage], Triage]) -> dict[str, Triage]:
        """`change` applied to each paper's state under one lock hold, stored as one durable write; the new states."""
        with self._storage.locked():
            states = {pid: change(self.get(pid)) for pid in pids}
            self.put(states)
        return states

    def apply(self, changes: Mapping[str, Change]) -> dict[str, Triage]:
        """Each paper's change made, field by field, to its state as stored now (what other processes wrote
        included: read under the lock), as one durable write; every paper's new state."""
        with self._storage.locked():
            before = {pid: self.get(pid) for pid in changes}
            after = {pid: change.apply(before[pid]) for pid, change in changes.items()}
            changed = {pid: state for pid, state in after.items() if state is not before[pid]}
            if changed:
                self.put(changed)
        return after

    def external_changes(self) -> dict[str, Triage]:
        """States other processes changed since the last call (a removed state comes back blank).

        A database that cannot be read or believed now changes no state here: see `take_notices`."""
        keys = [key for table, key in self._storage.take_external_changes() if table == TABLE]
        if not keys:
            return {}
        keys += [pid for pid, key in self.shares.items() if key in keys]  # (the papers sharing a state changed)
        with self._storage.locked():  # (what changed after the keys were taken is taken next time)
            return {key: self.get(key) for key in keys}

    def setting(self, key: str) -> dict[str, Any]:
        """The settings document stored under `key` (a copy; empty when there is none)."""
        with self._storage.locked():
            doc = self._settings.get(doc_id=key)
        return dict(doc) if doc is not None else {}

    def put_setting(self, key: str, value: Mapping[str, Any]) -> None:
        """Store the settings document `key` as one durable write (nothing is written when it is unchanged)."""
        with self._storage.locked():
            if self._settings.get(doc_id=key) != value:
                self._settings.replace_many({key: dict(value)}, ())

    def update_setting(self, key: str, change: Callable[[dict[str, Any]], Mapping[str, Any]]) -> dict[str, Any]:
        """Read-modify-write the settings document `key` under the lock, so a change another process
        made in between is kept; the new document."""
        with self._storage.locked():
            value = dict(change(self.setting(key)))
            self.put_setting(key, value)
        return value

    def close(self) -> None:
        self._shelf.flush()  # (an fsync: no lock needed)
        self._storage.notices.extend(self._shelf.notices)
        self._db.close()


def _those(listed: ById, wanted: Set[str]) -> dict[str, Paper]:
    """Each of `listed`'s ids that is in `wanted` → its paper, found through its look-up when it is made (the app's),
    else by one look through its ids (`ById.rows`): only those papers are asked for (a reopened long list's are made a
    chunk at a time, when first asked for: store.papers.chunked)."""
    return {listed.ids[row]: listed.papers[row] for row in listed.rows(wanted)}


def folded(stored: Mapping[str, Mapping[str, Any]], incoming: Mapping[str, tuple[Record, str]]
           ) -> tuple[dict[str, dict[str, Any]], dict[str, tuple[Triage, Triage]]]:
    """Records from elsewhere (paper id → record, fingerprint) merged into the `stored` documents: the
    documents that change, and each of their papers' state before and after."""
    docs, changed = {}, {}
    for pid, (theirs, fp) in incoming.items():
        doc = stored.get(pid)
        ours = record_of(doc) if doc is not None else {}
        if theirs == ours:
            continue
        new = merge(ours, theirs)
        if new != ours:
            docs[pid] = doc_of(new, doc.get("fp") or fp if doc is not None else fp)
            changed[pid] = (from_doc(doc) if doc is not None else Triage(), from_doc(docs[pid]))
    return docs, changed
