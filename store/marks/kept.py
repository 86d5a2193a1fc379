"""`KeptPapers`: what the triage store keeps besides the marks, the marked papers' records (`store.library.shelf`)
and when each paper was first seen (`store.library.seen`), as methods of `store.marks.db.TriageStore`.

Each method is a thin wrapper taking the database's lock (the shelf and the first-seen files are not locked
themselves) and passing on what the user must be told to the store's notices; `TriageStore.attach` asks
`_same_papers` which papers of a list are a marked paper under another id (`store.library.identity`), and
`TriageStore.put` keeps the records of the papers it marks (`_keep_papers`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from threading import Event
from typing import TYPE_CHECKING, Any, TypeVar

from store.common.errors import Locked, NotSaved
from store.library.identity import Identities, one_per_paper, sharing
from store.library.keys_cache import entry as keys_entry, keys_of
from store.library.record import record_of as paper_record
from store.library.seen import NOTHING, Opened, Seen, list_name
from store.library.shelf import Records, Shelf
from store.marks.documents import marked_doc
from store.papers.chunked import passing
from store.papers.matching import Columns
from store.papers.model import Paper

if TYPE_CHECKING:
    from store.marks.journal import JournalStorage

T = TypeVar("T")
FEW = 16
"""Papers looked up as a few (`_same_papers`): when the marked papers are this many times as many, the identities
made are of the marked papers that have a key of theirs alone (`store.library.identity.sharing`), not kept."""


def _papers(papers: Iterable[Paper]) -> Iterator[Paper]:
    """Those of `papers` that are papers (not the ids a long list's cache gives), for one pass (`passing`: a reopened
    list's not kept made)."""
    return (paper for paper in passing(papers) if isinstance(paper, Paper))


class KeptPapers:
    """The records and first-seen methods of `store.marks.db.TriageStore`, which holds what they use: the journaled
    storage (its lock and notices), the shelf, the first-seen file and the identities made last."""

    _storage: JournalStorage
    _shelf: Shelf
    _seen: Seen
    _identities: tuple[object, Identities | None]

    if TYPE_CHECKING:
        def _docs(self) -> Mapping[str, Mapping[str, Any]]: ...

        def ids(self) -> list[str]: ...

    def opened(self, sources: Iterable[str], papers: Iterable[Paper], read_as: str | None = None,
               stop: Event | None = None) -> Opened:
        """The ids of the papers new in the list of the files `sources`, and of those the database sees first now
        (`store.library.seen.Opened`), now that it is opened with `papers` (`read_as`: the parse they are, when
        known: `store.readers.list_key.read_key`); none when the database cannot be locked (only read). Once `stop`
        is set: `store.common.errors.Stopped`, the list not opened (`store.library.seen.Seen.open`)."""
        name = list_name(sources)
        files = self._seeing(lambda seen: seen.to_look_up(name, read_as), None)
        # (its papers looked up without the lock, which other processes then wait for only while the files are written)
        looked = Seen.looked(files, name, _papers(papers), stop) if files is not None else None
        return self._seeing(lambda seen: seen.open(name, _papers(papers), read_as, stop, looked), NOTHING)

    def new(self, sources: Iterable[str], papers: Iterable[Paper], read_as: str | None = None) -> frozenset[str]:
        """The ids of the papers new in the list of the files `sources` (`store.library.seen`), as opening it with
        `papers` (read as `read_as`, as for `opened`) would find them, without opening it (what `triage export` asks)."""
        return self._seeing(lambda seen: seen.new(list_name(sources), _papers(papers), read_as),
                            frozenset())

    def unseen(self, papers: Iterable[Paper]) -> frozenset[str]:
        """The ids of `papers` the database never saw in any list (`store.library.seen`); none is seen now."""
        return self._seeing(lambda seen: seen.unseen(_papers(papers)), frozenset())

    def _seeing(self, work: Callable[[Seen], T], nothing: T) -> T:
        """What `work` does with the first-seen files under the lock (`nothing` when it cannot be taken: a database only
        read, or another process holding it past the wait, as the app's open is noted behind its first frame); its
        notices told."""
        try:
            with self._storage.locked():
                return work(self._seen)
        except (NotSaved, Locked):
            return nothing
        finally:
            self._storage.notices.extend(self._seen.notices)
            self._seen.notices.clear()

    def _same_papers(self, papers: list[Paper], stored: Mapping[str, Mapping[str, Any]],
                     kept_columns: Callable[[Sequence[Paper]], Columns | None] | None) -> dict[str, str]:
        """Each of `papers` without a state of its own that is a marked paper under another id → that id (none
        when they are not `Paper`s: the ids a long list's cache gives say too little)."""
        kept = self._shelf.richness() if papers and isinstance(papers[0], Paper) else {}  # (a list's papers are all one kind)
        marked = sorted((pid for pid in kept if marked_doc(stored.get(pid))), key=lambda pid: stored[pid].get("updated", 0.0))
        if not marked:
            return {}
        identities = self._identities[1] if self._identities[0] == (self._shelf.path, marked, kept) else None
        if identities is None:  # (made again when a mark or record changed; of the few papers' alone for a few)
            keys, told = self._shelf.read(partial(keys_of, cache=keys_entry(self._shelf.path)), {})  # (no record read)
            self._storage.notices.extend(told)
            if len(papers) * FEW < len(marked):
                identities = sharing(keys, marked, papers)
            else:
                identities = Identities(keys, marked)
                self._identities = ((self._shelf.path, marked, kept), identities)
        return {pid: found for pid, found in identities.shared(papers, kept_columns).items() if pid not in stored}

    def _keep_papers(self, papers: Mapping[str, Paper]) -> None:
        """Keep the records of these papers (paper id → paper; those that are `Paper`s: not the ids a long list's
        cache gives) that say more than those kept (under the lock; what cannot be kept is said, the marks are stored)."""
        records = {pid: paper_record(paper) for pid, paper in papers.items() if isinstance(paper, Paper)}
        if records:
            self.keep_records(records)

    def keep_records(self, records: Mapping[str, Mapping[str, Any]]) -> None:
        """Keep each of these records (paper id → `store.library.record` record) that says more than the one
        kept of its paper (`store.library.shelf.Shelf.keep`)."""
        with self._storage.locked():
            self._storage.notices.extend(self._shelf.keep(records))

    def records(self, marked_only: bool = True) -> Records:
        """The record kept of each paper that has marks (paper id → record); of every paper once marked when
        not `marked_only` (what a sync or a backup carries)."""
        with self._storage.locked():
            kept, told = self._shelf.records()
            self._storage.notices.extend(told)
            marked = set(self.ids()) if marked_only else kept.keys()
        return {pid: record for pid, record in kept.items() if pid in marked}

    def library(self) -> Records:
        """The record of each marked paper, one per paper (`store.library.identity.one_per_paper`)."""
        with self._storage.locked():
            docs = self._docs()
            return one_per_paper(self.records(), sorted(docs, key=lambda pid: docs[pid].get("updated", 0.0)))

    def kept(self) -> dict[str, int]:
        """Paper id → how much its kept record says (`store.library.record.richness`), from the file's headers alone."""
        with self._storage.locked():
            return self._shelf.richness()
