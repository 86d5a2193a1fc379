"""A list's papers by id without a dict of them: the first step from Paper objects to rows (issue 34).

`ById` answers "which paper (which row) has this id" over a list's ids column, the ids in the list's order as its parse
entry keeps them (`Collection.ids`, read without the papers) or, for a list parsed now, as its papers have them. The
ids' hashes are kept sorted (numpy), each with its row: at 1,000,000 papers 8 MB (and the ids column's 8 MB), not a
dict of a million str → Paper (~30 MB, made by a pass over every paper before search was ready). A look-up is a binary
search (~2 µs), the id itself compared at the row found. numpy is imported when the first look-up is made (a list's
head is shown before it is: the first frame does not wait for it), or by `indexed`, which the work behind a list calls.
`Attached`: the papers of the lists a marks database is attached to (`store.marks.db`), through their `ById`s.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from itertools import compress
from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from store.papers.model import Collection, Paper


_WHOLE = 1 << 32
_HALF = 1 << 31


class ById(Mapping[str, "Paper"]):
    """Each of `papers` by its id, `ids` their ids in their order (the first of an id, should one repeat)."""

    __slots__ = ("papers", "ids", "_index")

    def __init__(self, papers: Sequence[Paper], ids: Sequence[str]) -> None:
        if len(ids) != len(papers):
            raise ValueError(f"{len(ids)} ids for {len(papers)} papers")
        self.papers = papers
        self.ids = ids
        self._index: tuple[memoryview, memoryview] | None = None
        """(the ids' hashes sorted, the row of each): made at the first look-up."""

    @classmethod
    def of(cls, collection: Collection) -> ById:
        """The papers of `collection` by id, through its ids column when it has one (else its papers' ids)."""
        ids = collection.ids
        return cls(collection.papers, ids if ids is not None else list(map(attrgetter("id"), collection.papers)))

    def indexed(self) -> ById:
        """This, its look-up made now (off the app's thread: ~0.2 s at 1,000,000 papers)."""
        self._rows()
        return self

    def _rows(self) -> tuple[memoryview, memoryview]:
        if self._index is None:
            import numpy as np

            # (a hash's low 32 bits: at 1,000,000 ids ~120 pairs share one, each told apart by its id at the look-up)
            hashes = np.fromiter(map(hash, self.ids), dtype=np.int64, count=len(self.ids)).astype(np.int32)
            order = np.argsort(hashes, kind="stable")  # (stable: of equal hashes, the first row first)
            # (read through memoryviews: an item is a Python int, ~20× quicker to get than a numpy scalar)
            self._index = (memoryview(hashes[order]), memoryview(order.astype(np.int32 if len(order) < 2**31 else np.int64)))
        return self._index

    def row(self, paper_id: object) -> int | None:
        """The row of the paper whose id is `paper_id`, None when none is."""
        if type(paper_id) is not str:
            return None
        hashes, rows = self._rows()
        key = (hash(paper_id) + _HALF) % _WHOLE - _HALF  # (its low 32 bits as a signed number, as `_rows` keeps them)
        at = bisect_left(hashes, key)
        while at < len(hashes) and hashes[at] == key:  # (more than once only when two ids share a hash)
            row = rows[at]
            if self.ids[row] == paper_id:
                return row
            at += 1
        return None

    def found(self, paper_id: str) -> int | None:
        """`row(paper_id)`, by a scan of the ids while the look-up is not made (one id asked, as the cursor's when the
        rows change: ~10 ms at 1,000,000 papers, and numpy not imported for it)."""
        if self._index is not None:
            return self.row(paper_id)
        try:
            return self.ids.index(paper_id)
        except ValueError:
            return None

    def rows(self, paper_ids: Set[str]) -> Iterator[int]:
        """The rows of those of `paper_ids` that are ids here (a repeated id's first): through the look-up when it is
        made, else by one scan of the ids (at C speed, ~35 ms at 1,000,000 papers, and numpy not imported for it; through
        a set: a dict's keys asked were ~90 ms)."""
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
