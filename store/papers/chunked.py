"""`Chunked`: a list's papers made a chunk at a time, when first asked for.

A reopened list's papers come from its parse entry's columns (store.readers.cache's `decode`); made all at once, a
million of them held the interpreter's lock ~1.5 s before its search was ready, while the first search needs none of
them (the engine answers with rows) and a screen shows forty. Here each chunk of `SIZE` papers is made the first time
one of its papers is asked for (a row drawn, a hit shown, a pass over them all later, off the app's thread), and is the
same objects from then on: a paper is one object however it is reached (marks, selection and the list's origin go by
identity). The ids are a column of their own, read without making a paper (`ids`), and so are the other fields
(`values`: which columns a list shows), and a paper alone, its values read one by one (`one`: a row drawn, a hit shown,
a marked paper found); the rows of an id or an arXiv id are found through the look-ups kept with the
columns (`lookups`: `store.papers.rows.Lookup`).
"""
from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import chain, islice
from operator import attrgetter, eq
from typing import overload

from store.common.collector import collector_paused
from store.common.sliced import SLICE, Column
from store.papers.model import Paper
from store.papers.rows import Lookup

SIZE = SLICE
"""Papers made at a time (~10 ms): as many as a slice of a parse entry's column (`store.common.sliced`)."""
ALONE = 64
"""Papers of a chunk made alone before it is made whole (a paper alone, ~0.1 ms: a screen of rows of a reopened list, a
screen of its hits, its marked papers found as it opens)."""

LET_GO = 16
"""Chunks made for a pass (`Chunked.passing`) between two lettings-go of the pages their columns were read from."""

Values = Callable[[str, int], Iterable[object]]
"""A field's values of the papers of chunk `k`, from the columns (the field's name, `k`)."""


class Chunked(Sequence[Paper]):
    """`len(ids)` papers, made `SIZE` at a time by `make` (chunk `k` → its papers, in order) when first asked for;
    `values` gives a field's values of a chunk not made yet, from the columns (`Values`), which `forget(k)` is told can
    be let go once it is. The first `ALONE` papers of a chunk asked for alone (a row drawn, a hit shown) are made alone
    by `one` (its place → it: a screen of a long list's hits is forty papers of forty chunks), each the paper of its
    chunk once that is made (by the next of its papers asked for). `lookups`: field → the rows of
    its values (`Lookup`: the ids' and arXiv ids' a parse entry keeps); `let_go`: what takes the pages the columns were
    read from out of the process's memory (read again, they come back from the file: a parse entry mapped)."""

    __slots__ = ("ids", "lookups", "_make", "_one", "_values", "_made", "_alone", "_forget", "_let_go", "_lock")

    def __init__(self, ids: Sequence[str], make: Callable[[int], list[Paper]], one: Callable[[int], Paper],
                 values: Values, forget: Callable[[int], None], lookups: Mapping[str, Lookup] | None = None,
                 let_go: Callable[[], None] = lambda: None) -> None:
        self.ids = ids
        """The papers' ids, in order (a column: no paper made for it)."""
        self.lookups: Mapping[str, Lookup] = lookups or {}
        self._make = make
        self._one = one
        self._values = values
        self._forget = forget
        self._let_go = let_go
        self._made: list[list[Paper] | None] = [None] * -(-len(ids) // SIZE)
        self._alone: dict[int, dict[int, Paper]] = {}
        """Chunk → place in it → the paper made alone there, while the chunk is not made."""
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.ids)

    def _chunk(self, k: int) -> list[Paper]:
        chunk = self._made[k]
        if chunk is None:
            with self._lock:  # (made once: two threads asking for it get the same objects)
                chunk = self._made[k]
                if chunk is None:
                    with collector_paused():
                        chunk = self._make(k)
                        # (they live as long as the list, in no cycle: out of the cycle collector's walks before it runs
                        # again, which would first walk them as young objects: ~0.3 s over the chunks of 1,000,000)
                        gc.freeze()
                    if len(chunk) != min(SIZE, len(self.ids) - k * SIZE):
                        raise ValueError("damaged cache entry")
                    for at, paper in self._alone.pop(k, {}).items():  # (one object a paper, however it was reached)
                        chunk[at] = paper
                    self._made[k] = chunk
                    self._forget(k)
        return chunk

    @overload
    def __getitem__(self, at: int) -> Paper: ...

    @overload
    def __getitem__(self, at: slice) -> list[Paper]: ...

    def __getitem__(self, at: int | slice) -> Paper | list[Paper]:
        if isinstance(at, slice):
            start, stop, step = at.indices(len(self))
            if step != 1 or start >= stop:
                return [self[k] for k in range(start, stop, step)]
            first = start // SIZE  # (a run of papers: its chunks one after another, at C speed)
            run = chain.from_iterable(map(self._chunk, range(first, -(-stop // SIZE))))
            return list(islice(run, start - first * SIZE, stop - first * SIZE))
        if at < 0:
            at += len(self)
        if not 0 <= at < len(self):
            raise IndexError("paper index out of range")
        k, place = divmod(at, SIZE)
        chunk = self._made[k]
        return chunk[place] if chunk is not None else self._made_alone(k, place)

    def _made_alone(self, k: int, place: int) -> Paper:
        """The paper at `place` of chunk `k` (not made), made alone when fewer than `ALONE` of its chunk are; else from its
        chunk, made now (the rows of a list browsed on: a chunk's papers one after another)."""
        with self._lock:
            if self._made[k] is None:
                alone = self._alone.setdefault(k, {})
                paper = alone.get(place)
                if paper is None and len(alone) < ALONE:
                    with collector_paused():
                        paper = alone[place] = self._one(k * SIZE + place)
                if paper is not None:
                    return paper
        return self._chunk(k)[place]

    def __iter__(self) -> Iterator[Paper]:
        return chain.from_iterable(map(self._chunk, range(len(self._made))))

    def passing(self) -> Iterator[Paper]:
        """Every paper in order, for one pass over them (an index built of them): a chunk not made is made for the pass
        and let go after it, not kept (made and kept, a 2,700,000-paper list's papers would be GBs), and the pages of the
        columns read for it are let go of every `LET_GO` such chunks (`let_go`: a pass over a 2,700,000-paper list's
        features held its whole parse entry's, ~600 MB)."""
        made = 0
        for k in range(len(self._made)):
            with self._lock:  # (not while the chunk is made and its columns let go: `_chunk`)
                chunk = self._made[k]
                if chunk is None:
                    with collector_paused():
                        chunk = self._make(k)
                    made += 1
            yield from chunk
            if made == LET_GO:
                self._let_go()
                made = 0
        self._let_go()

    def __eq__(self, other: object) -> bool:
        """Equal to a list (or another `Chunked`) of equal papers in the same order, as a list of them would be."""
        if not isinstance(other, (list, Chunked)):
            return NotImplemented
        return len(self) == len(other) and all(map(eq, self, other))

    __hash__ = None  # type: ignore[assignment]  (as a list's)

    def __add__(self, other: Sequence[Paper]) -> list[Paper]:
        return [*self, *other]

    def __radd__(self, other: Sequence[Paper]) -> list[Paper]:
        return [*other, *self]

    def __mul__(self, times: int) -> list[Paper]:
        return list(self) * times

    __rmul__ = __mul__

    def values(self, name: str) -> Iterator[object]:
        """The field `name` of every paper, in order, a paper made only when its chunk is."""
        return chain.from_iterable(map(partial(self._values_of, name), range(len(self._made))))

    def _values_of(self, name: str, k: int) -> Iterable[object]:
        with self._lock:  # (a chunk made meanwhile lets its columns go)
            chunk = self._made[k]
            return list(self._values(name, k)) if chunk is None else map(attrgetter(name), chunk)


def values_of(papers: Sequence[Paper], name: str) -> Iterable[object]:
    """The field `name` of each of `papers`, in order (of `Chunked` papers without making them)."""
    return papers.values(name) if isinstance(papers, Chunked) else map(attrgetter(name), papers)


def passing(papers: Iterable[Paper]) -> Iterable[Paper]:
    """`papers`, in order, for one pass (of `Chunked` papers, those not made not kept after it: `Chunked.passing`)."""
    return papers.passing() if isinstance(papers, Chunked) else papers


def ids_at(papers: Sequence[Paper], rows: Sequence[int]) -> list[str]:
    """The ids of the papers at `rows` of `papers`, in that order: from their ids column when they keep one (a reopened
    list's, `store.common.sliced.Column`: each slice of it read once), no paper made."""
    ids = getattr(papers, "ids", None)
    if isinstance(ids, Column):
        return ids.at(rows)
    rows = rows.tolist() if hasattr(rows, "tolist") else rows  # (a numpy array's, as Python's numbers)
    return [papers[row].id for row in rows] if ids is None else list(map(ids.__getitem__, rows))


def ids_of(papers: Sequence[Paper]) -> Sequence[str]:
    """The ids of `papers`, in order: their `ids` column when they keep one (`Chunked`, and sequences taken from them)."""
    ids = getattr(papers, "ids", None)
    return ids if ids is not None else list(map(attrgetter("id"), papers))
