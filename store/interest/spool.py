"""`Spool`: arrays put aside while a long list's features are built a block of papers at a time
(store.interest.vectors): written one after another to an unnamed temporary file in the cache folder, read back one
at a time (`get`), or all of them as one array, a view of the file mapped (`whole`). At 2,700,000 papers they are
GBs (the words counted of every paper, the tf-idf rows, the latent rows) that memory need not hold: the file's pages
are the system's to keep or drop. A spool that need not be on disk (a short list's), or cannot be (no cache folder, or
a disk too full: the file's bytes are then taken into memory and it goes on there), keeps them in memory.
Nothing of it outlives the process: the file has no name, and its mapping is let go with the last array of it."""
from __future__ import annotations

import mmap
import os
import tempfile
from typing import IO, NamedTuple

import numpy as np

from store.common.files import cache_folder


class Place(NamedTuple):
    """Where `Spool.put` put an array: its first byte, its type and its number of values."""

    at: int
    kind: str
    count: int


class Spool:
    """Arrays of one type or more, put one after another (`put`): on disk when `on_disk` and it can be, else in
    memory."""

    def __init__(self, on_disk: bool) -> None:
        self._file: IO[bytes] | None = None
        self._memory = bytearray()
        self._size = 0
        if on_disk:
            try:
                folder = cache_folder()
                folder.mkdir(parents=True, exist_ok=True)
                self._file = tempfile.TemporaryFile(dir=folder, buffering=0)
            except OSError:  # no cache folder to be had: in memory
                self._file = None

    def put(self, values: np.ndarray) -> Place:
        """`values` (one-dimensional) put after the others; where they are."""
        data = memoryview(np.ascontiguousarray(values)).cast("B")
        place = Place(self._size, values.dtype.str, len(values))
        if self._file is not None:
            try:
                written = 0
                while written < len(data):  # (unbuffered: a full disk says so here, not at a later flush)
                    written += os.pwrite(self._file.fileno(), data[written:], self._size + written)
            except OSError:  # the disk is full: what is written is taken into memory, and the rest goes there
                self._to_memory()
        if self._file is None:
            self._memory += data
        self._size += len(data)
        return place

    def _to_memory(self) -> None:
        file, self._file = self._file, None
        assert file is not None
        with file:
            while len(self._memory) < self._size:  # (a read gives at most ~2 GB)
                piece = os.pread(file.fileno(), self._size - len(self._memory), len(self._memory))
                if not piece:
                    raise OSError("a spool file was cut short")
                self._memory += piece

    def get(self, place: Place) -> np.ndarray:
        """The array put at `place` (a copy, read from the file)."""
        kind = np.dtype(place.kind)
        if self._file is None:
            return np.frombuffer(self._memory, kind, place.count, place.at).copy()
        values = np.empty(place.count, kind)
        into, done = memoryview(values).cast("B"), 0
        while done < len(into):  # (read into the array itself: one copy, from the system's cache)
            read = os.preadv(self._file.fileno(), [into[done:]], place.at + done)
            if not read:
                raise OSError("a spool file was cut short")
            done += read
        return values

    def whole(self, kind: np.dtype | type) -> np.ndarray:
        """Every array put, as one of type `kind` (they must all be of it): a view of the file mapped copy-on-write (the
        file then closed: it is gone once the array is), else of the memory they are in."""
        kind = np.dtype(kind)
        if self._file is None:
            return np.frombuffer(self._memory, kind)
        file, self._file = self._file, None
        with file:
            if not self._size:
                return np.zeros(0, kind)
            mapped = mmap.mmap(file.fileno(), self._size, access=mmap.ACCESS_COPY)  # (writable, as scipy may want its arrays)
        return np.frombuffer(mapped, kind)

    def close(self) -> None:
        """Let the file go (what `whole` gave stays readable)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self._memory = bytearray()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
