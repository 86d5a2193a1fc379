"""Files mapped read a piece at a time, each piece's pages let go of once it is read, so that a pass over them holds a
piece, not the file: arrays that are views of one (`pieces`, `let_go`: a cache entry's features,
store.interest.features_cache, and what their build puts aside, store.interest.spool), or a range of bytes of one
(`released`: a parse entry's CRC, store.readers.sealed).

A page of a file mapped stays in the process's resident memory once read, until the mapping ends: a pass over the
features of the whole arXiv (a 3 GB entry: its CRCs at an open, then For you's scores of every paper) held all of it,
~3 GB of resident memory for arrays read once a ranking. `madvise(MADV_DONTNEED)` takes a piece's pages out of the
process (the file's pages stay in the system's cache, which a next pass reads again from without the disk); pages of a
mapping that were never written (the entries' are mapped copy-on-write or to read, and only read) come back as the file
has them when read again. Nothing happens for an array of memory of its own, or where `madvise` is missing."""
from __future__ import annotations

import mmap
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

PIECE = 1 << 25
"""Bytes read between two lettings-go (`pieces`): 32 MB."""


def _mapping(array: np.ndarray) -> mmap.mmap | None:
    """The mapping `array` is a view of, if any."""
    import numpy as np  # (here: a parse entry's CRC, at every open, needs none of it)

    base = array
    while isinstance(base, np.ndarray):
        base = base.base
    if isinstance(base, memoryview):  # (what `np.frombuffer` of a mapping keeps)
        base = base.obj
    return base if isinstance(base, mmap.mmap) else None


def let_go(array: np.ndarray) -> None:
    """Take the pages that lie wholly within `array` (a view of a mapped file: else nothing) out of this process's
    resident memory: read again, they come back from the file."""
    import numpy as np

    mapped = _mapping(array)
    if mapped is not None and array.nbytes:
        start = array.ctypes.data - np.frombuffer(mapped, np.uint8, 1).ctypes.data
        released(mapped, start, start + array.nbytes)


def released(mapped: mmap.mmap, start: int, stop: int) -> None:
    """Take the pages that lie wholly within bytes `start` to `stop` of `mapped` out of this process's resident
    memory: read again, they come back from the file."""
    first, last = -(-start // mmap.PAGESIZE) * mmap.PAGESIZE, min(stop, len(mapped)) // mmap.PAGESIZE * mmap.PAGESIZE
    if last > first and hasattr(mapped, "madvise"):
        mapped.madvise(mmap.MADV_DONTNEED, first, last - first)


def pieces(array: np.ndarray, size: int = PIECE) -> Iterator[np.ndarray]:
    """`array` a piece of about `size` bytes at a time (of whole rows, when it has them), each piece let go of once the
    next is asked for (`let_go`)."""
    step = max(1, size // max(1, array[:1].nbytes))
    for at in range(0, len(array), step):
        piece = array[at : at + step]
        yield piece
        let_go(piece)
