"""Long lists marshalled a slice at a time: one `marshal` call holds the interpreter's lock (the GIL) from start
to end, and a long list's parse entry made in one (store.readers.cache) held it for over a second at 100,000
abstracts while its thread wrote it behind the app, whose `q` (and every key) waited that long. The slices are laid
one after another in a file (`store.readers.entry_writer`) and read from it where they are (`taken`): an entry mapped,
not read. A column of few distinct values is kept as them (`sliced`) and each value's index of them (4-byte numbers):
`chained` and `joined` take that pair too."""
from __future__ import annotations

import contextlib
import marshal
import operator
from array import array
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, chain, islice
from typing import overload

SLICE = 4096
"""Items marshalled in one call (~6 MB of abstracts: milliseconds)."""


def sliced(values: Sequence) -> list[bytes]:
    """`values` as marshalled slices (`joined` gives them back as one list)."""
    return [marshal.dumps(list(values[at : at + SLICE])) for at in range(0, len(values), SLICE)]


_LIST = 5
"""The bytes of a marshalled list before its first value: its type and its length."""


def indexed(values: Sequence) -> tuple[list[bytes], list[bytes]]:
    """`values` as marshalled slices (`joined` gives them back as one list, as `sliced`'s), and where each value is in
    its slice (its start and the next one's, 4-byte numbers): `one` reads a value alone, not its whole slice (a hit of a
    long list shown: ~1 ms a paper for its slices, most of a screen's drawing). Each value is marshalled alone, in
    version 2 (never a reference to another value: a slice is the list of them, one after another)."""
    slices, ends = [], []
    for at in range(0, len(values), SLICE):
        parts = [marshal.dumps(value, 2) for value in values[at : at + SLICE]]
        slices.append(b"[" + len(parts).to_bytes(4, "little") + b"".join(parts))
        ends.append(array("I", accumulate(map(len, parts), initial=_LIST)).tobytes())
    return slices, ends


def one(piece: memoryview, ends: memoryview, place: int) -> object:
    """The value at `place` of a slice `indexed` made (`ends`: its values' ends, as 4-byte numbers)."""
    at = ends.cast("I")
    return marshal.loads(piece[at[place] : at[place + 1]])


def chained(slices: list[bytes] | tuple[list[bytes], bytes]) -> Iterator:
    """The values `sliced` made `slices` of (or a pair of distinct values and indices), one after another, never all in
    one list, and each slice let go once read (`slices` emptied so): a reopened list's papers are made of its columns so
    (at 1,000,000 papers, not a list of 8 MB a column first, nor its slices held to the end)."""
    if type(slices) is tuple:
        distinct, at = slices
        indices = array("I")
        indices.frombytes(at)
        return map(joined(distinct).__getitem__, indices)
    return chain.from_iterable(map(marshal.loads, _emptied(slices)))


class Column(Sequence):
    """The values `sliced` made `slices` of (`count` of them), read a slice at a time where they are when asked for, the
    slice last read kept: a reopened list's ids column (at 2,700,000 papers, joined at its open: 0.69 s and ~170 MB of
    strings before the list could land, while one value, a row of them or a pass over them is all most users ask).
    `let_go` is called after each whole pass (the pages of a mapped entry it read given back: `store.common.paged`).
    ValueError when the slices cannot hold `count` values (its last slice is read to know)."""

    __slots__ = ("_slices", "_count", "_held", "_let_go")

    def __init__(self, slices: Sequence[bytes], count: int, let_go: Callable[[], object] = lambda: None) -> None:
        self._slices, self._count, self._let_go = slices, count, let_go
        self._held: tuple[int, list] = (-1, [])
        if len(slices) != -(-count // SLICE) or (slices and len(self._slice(len(slices) - 1)) != count - (len(slices) - 1) * SLICE):
            raise ValueError("damaged cache entry")

    def __len__(self) -> int:
        return self._count

    def _slice(self, k: int) -> list:
        held = self._held  # (one tuple, replaced whole: another thread reading sees either slice, never a mixed pair)
        if held[0] != k:
            held = self._held = (k, marshal.loads(self._slices[k]))
        return held[1]

    @overload
    def __getitem__(self, at: int) -> object: ...
    @overload
    def __getitem__(self, at: slice) -> list: ...
    def __getitem__(self, at: int | slice) -> object:
        if isinstance(at, slice):
            start, stop, step = at.indices(self._count)
            if step != 1 or start >= stop:
                return [self[i] for i in range(start, stop, step)]
            first = start // SLICE
            values = chain.from_iterable(map(self._slice, range(first, -(-stop // SLICE))))
            return list(islice(values, start - first * SLICE, stop - first * SLICE))
        if at < 0:
            at += self._count
        if not 0 <= at < self._count:
            raise IndexError("column index out of range")
        return self._slice(at // SLICE)[at % SLICE]

    def __iter__(self) -> Iterator:
        return chain(chain.from_iterable(map(marshal.loads, self._slices)), _after(self._let_go))

    def at(self, rows: Sequence[int]) -> list:
        """The values at `rows` (numbers from 0), in their order, each slice they are in read once (a query's hits,
        ranked, go from slice to slice: read one at a time, a slice each)."""
        import numpy as np  # (here: a column only read through needs none)

        rows = np.asarray(rows, dtype=np.int64)
        if len(rows) and (rows.min() < 0 or rows.max() >= self._count):
            raise IndexError("column index out of range")
        slices = rows // SLICE
        order = np.argsort(slices, kind="stable")
        out = np.empty(len(rows), dtype=object)
        starts = np.flatnonzero(np.diff(slices[order], prepend=-1)).tolist()
        for start, stop in zip(starts, [*starts[1:], len(order)]):
            taken = order[start:stop]
            k = int(slices[taken[0]])
            out[taken] = list(map(marshal.loads(self._slices[k]).__getitem__, (rows[taken] - k * SLICE).tolist()))
        return out.tolist()

    def __eq__(self, other: object) -> bool:  # (equal to a list of the same values, as the list it stands for)
        return isinstance(other, Sequence) and len(other) == self._count and all(map(operator.eq, self, other))

    __hash__ = None  # type: ignore[assignment]

    def __contains__(self, value: object) -> bool:
        return any(value in marshal.loads(piece) for piece in self._slices)

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The first place of `value` (at C speed within each slice; `start` and `stop` as a list's)."""
        start, stop, _ = slice(start, stop).indices(self._count)
        for k in range(start // SLICE, -(-stop // SLICE)):
            with contextlib.suppress(ValueError):
                return k * SLICE + self._slice(k).index(value, max(start - k * SLICE, 0), stop - k * SLICE)
        raise ValueError(f"{value!r} is not in the column")


def _after(work: Callable[[], object]) -> Iterator:
    """Nothing, once `work` is done (what ends a pass)."""
    work()
    yield from ()


def _emptied(slices: list[bytes]) -> Iterator[bytes]:
    slices.reverse()
    while slices:
        yield slices.pop()


def joined(slices: Sequence[bytes] | tuple[list[bytes], bytes]) -> list:
    """The list `sliced` made `slices` of (or a pair of distinct values and indices)."""
    return list(chained(slices if type(slices) is tuple else list(slices)))


def taken(places: Sequence[tuple[int, int]], blob: memoryview) -> list[memoryview]:
    """The slices laid in `blob` at `places` (offset, length), each read from it where it is (a mapped file's: nothing
    copied, a page read when a slice is unmarshalled); ValueError for one that is not in it."""
    size = len(blob)
    if any(at < 0 or length < 0 or at + length > size for at, length in places):
        raise ValueError("damaged cache entry")
    return [blob[at : at + length] for at, length in places]
