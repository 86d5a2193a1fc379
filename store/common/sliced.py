"""Long lists marshalled a slice at a time: one `marshal` call holds the interpreter's lock (the GIL) from start
to end, and a long list's parse entry made in one (store.readers.cache) held it for over a second at 100,000
abstracts while its thread wrote it behind the app, whose `q` (and every key) waited that long. The slices are laid
one after another in a file (`store.readers.entry_writer`) and read from it where they are (`taken`): an entry mapped,
not read. A column of few distinct values is kept as them (`sliced`) and each value's index of them (4-byte numbers):
`chained` and `joined` take that pair too."""
from __future__ import annotations

import marshal
from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate, chain

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
