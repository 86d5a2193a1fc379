"""A list's papers by id without a dict of them: the first step from Paper objects to rows (issue 34).

`Lookup`: the rows of a column's values by a stable hash of each (CRC-32 of its UTF-8), kept sorted with each row in two
arrays of 4 bytes a value: at 1,000,000 papers 8 MB, made in ~0.3 s (numpy, imported then), or kept in a parse entry
beside the column (`store.readers.cache`) and read from it where it is, nothing made: a reopened list finds its papers
by id (and by arXiv id: `store.library.identity`) from its first moment. A look-up is a binary search (~2 µs) giving the
rows whose value may be the one asked (those sharing its hash: the caller compares).
`ById` answers "which paper (which row) has this id" over a list's ids column, the ids in the list's order as its parse
entry keeps them (`Collection.ids`, read without the papers) or, for a list parsed now, as its papers have them, through
the column's `Lookup` (its entry's, else made at the first look-up: a list's head is shown before it is, and the work
behind a list calls `indexed`), the id itself compared at each row found: not a dict of a million str → Paper (~30 MB,
made by a pass over every paper before search was ready).
`Attached`: the papers of the lists a marks database is attached to (`store.marks.db`), through their `ById`s.
"""
from __future__ import annotations

import zlib
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from itertools import compress
from operator import attrgetter, methodcaller
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from store.papers.model import Collection, Paper


_UTF8 = methodcaller("encode", "utf-8", "surrogatepass")
_HASH = zlib.crc32
"""What a value's UTF-8 is hashed by: the same in every process (Python's own hash is not), as a kept `Lookup` needs."""


def stable_hash(value: str) -> int:
    """The hash a `Lookup` keeps of `value`."""
    return _HASH(_UTF8(value))


class Lookup:
    """The rows of a column's values by their `stable_hash`: `hashes` sorted, `rows` the row of each (two arrays of
    unsigned 4-byte numbers, read as Python ints through memoryviews: ~20× quicker to get than a numpy scalar); of equal
    hashes, the first row first."""

    __slots__ = ("hashes", "rows")

    def __init__(self, hashes: memoryview, rows: memoryview) -> None:
        if len(hashes) != len(rows):
            raise ValueError(f"{len(hashes)} hashes for {len(rows)} rows")
        self.hashes, self.rows = hashes, rows

    @classmethod
    def of(cls, values: Sequence[str]) -> Lookup:
        """The look-up of `values` (strings), made now (~0.3 s at 1,000,000)."""
        import numpy as np

        return cls.hashed(np.fromiter(map(_HASH, map(_UTF8, values)), dtype=np.uint32, count=len(values)))

    @classmethod
    def hashed(cls, hashes: Any) -> Lookup:
        """The look-up of the values whose `stable_hash`es are `hashes`, in order (unsigned 4-byte numbers: an array)."""
        import numpy as np

        hashes = np.frombuffer(hashes, dtype=np.uint32)
        order = np.argsort(hashes, kind="stable").astype(np.uint32)
        return cls(memoryview(hashes[order]), memoryview(order))

    def candidates(self, value: str) -> Iterator[int]:
        """The rows whose value may be `value` (in order): those whose hash is its (more than one only when values share
        a hash, or repeat)."""
        hashes, rows = self.hashes, self.rows
        key = stable_hash(value)
        at = bisect_left(hashes, key)
        while at < len(hashes) and hashes[at] == key:
            yield rows[at]
            at += 1

    def among(self, values: Iterable[str]) -> list[int]:
        """The rows whose value may be one of `values`, in order."""
        return sorted({row for value in values for row in self.candidates(value)})


def lookup_of(papers: Sequence[Paper], name: str) -> Lookup | None:
    """The rows of the field `name`'s values of `papers` when they keep them (`lookups`: a reopened long list's,
    `store.papers.chunked.Chunked`), else None."""
    lookups = getattr(papers, "lookups", None)
    return None if lookups is None else lookups.get(name)


class ById(Mapping[str, "Paper"]):
    """Each of `papers` by its id, `ids` their ids in their order (the first of an id, should one repeat)."""

    __slots__ = ("papers", "ids", "_index")

    def __init__(self, papers: Sequence[Paper], ids: Sequence[str], lookup: Lookup | None = None) -> None:
        if len(ids) != len(papers) or (lookup is not None and len(lookup.rows) != len(ids)):
            raise ValueError(f"{len(ids)} ids for {len(papers)} papers")
        self.papers = papers
        self.ids = ids
        self._index = lookup
        """The ids' `Lookup`: kept with them (a reopened list's), else made at the first look-up."""

    @classmethod
    def of(cls, collection: Collection) -> ById:
        """The papers of `collection` by id, through its ids column and their look-up when it has them (else its papers'
        ids)."""
        ids = collection.ids
        if ids is None:
            return cls(collection.papers, list(map(attrgetter("id"), collection.papers)))
        return cls(collection.papers, ids, lookup_of(collection.papers, "id"))

    def indexed(self) -> ById:
        """This, its look-up made now when it is not kept (off the app's thread: ~0.3 s at 1,000,000 papers)."""
        self._rows()
        return self

    def _rows(self) -> Lookup:
        if self._index is None:
            self._index = Lookup.of(self.ids)
        return self._index

    def row(self, paper_id: object) -> int | None:
        """The row of the paper whose id is `paper_id`, None when none is."""
        if type(paper_id) is not str:
            return None
        ids = self.ids
        return next((row for row in self._rows().candidates(paper_id) if ids[row] == paper_id), None)

    def found(self, paper_id: str) -> int | None:
        """`row(paper_id)`, by a scan of the ids while there is no look-up (one id asked, as the cursor's when the
        rows change: ~10 ms at 1,000,000 papers, and numpy not imported for it)."""
        if self._index is not None:
            return self.row(paper_id)
        try:
            return self.ids.index(paper_id)
        except ValueError:
            return None

    def rows(self, paper_ids: Set[str]) -> Iterator[int]:
        """The rows of those of `paper_ids` that are ids here (a repeated id's first): through the look-up when there
        is one (kept or made), else by one scan of the ids (at C speed, ~35 ms at 1,000,000 papers, and numpy not
        imported for it; through a set: a dict's keys asked were ~90 ms)."""
        if self._index is not None or not paper_ids:
            return (row for row in map(self.row, paper_ids) if row is not None)
        wanted = paper_ids if isinstance(paper_ids, (set, frozenset)) else set(paper_ids)
        return compress(range(len(self.ids)), map(wanted.__contains__, self.ids))

    def among(self, paper_ids: Set[str]) -> set[str]:
        """Those of `paper_ids` that are ids here (`rows`: no look-up made for a few)."""
        ids = self.ids
        return {ids[row] for row in self.rows(paper_ids)}

    def __getitem__(self, paper_id: str) -> Paper:
        row = self.row(paper_id)
        if row is None:
            raise KeyError(paper_id)
        return self.papers[row]

    def get(self, paper_id: str, default: Any = None) -> Any:  # type: ignore[override]
        row = self.row(paper_id)
        return default if row is None else self.papers[row]

    def __contains__(self, paper_id: object) -> bool:
        return self.row(paper_id) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)


class Attached:
    """The papers of lists by id, each list's a `ById` (`store.marks.db.TriageStore.attach`): a paper in two lists is the
    later attached list's, and a list attached again under its `source` replaces its papers. No dict of every paper
    is made (~30 MB and ~0.3 s at 1,000,000): the few papers asked at a time (those marked) are found through each
    list's look-up when one is made (the app's), else by a scan of its ids (`ById.rows`)."""

    __slots__ = ("_lists",)

    def __init__(self) -> None:
        self._lists: dict[object, ById] = {}

    def add(self, papers: ById, source: object = None) -> None:
        """`papers` attached, after all others; those attached before under `source` (not None) no longer."""
        key = object() if source is None else source
        self._lists.pop(key, None)
        self._lists[key] = papers

    def papers(self, pids: Iterable[str]) -> dict[str, Paper]:
        """Each of `pids` that is an attached paper's id → that paper."""
        wanted = set(pids)
        found: dict[str, Paper] = {}
        for by_id in reversed(self._lists.values()):
            if not wanted:
                break
            for row in by_id.rows(wanted):
                found.setdefault(by_id.ids[row], by_id.papers[row])
            wanted.difference_update(found)
        return found
