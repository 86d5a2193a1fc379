"""A search index's parts as its cache entry holds them: packed small.

`SearchIndex.parts` (store.search.index) gives plain arrays; `packed` makes each of them a zstd-compressed
byte array (`write` writes them as an .npz, each as it is made), the sorted ones (posting lists, sorted
within each word, and their bounds) as the differences of neighbours, which are small: at 100,000 papers
the entry is ~25 MB instead of ~68 MB.
`unpacked` gives the plain arrays back, or ValueError for a part that is damaged or does not unpack
to whole values of its type (its size is read before a byte is decompressed). Whether the parts fit
together is `SearchIndex.from_parts`'s to check (store.readers.cache keeps the entries).
"""
from __future__ import annotations

import zipfile
from collections.abc import Iterator, Mapping
from typing import BinaryIO

import numpy as np
import zstandard

from store.search.phrases import LETTERS

_POSTINGS = ("body", "title", "author", "keyword")
_TYPES = {"words": np.uint8, "names": np.uint8, "lengths": np.int64, "letters": np.uint16, "chars": np.uint32,
          "char_bounds": np.int64, "char_papers": np.uint32,
          **{name: np.uint32 for name in _POSTINGS}, **{f"{name}_bounds": np.int64 for name in _POSTINGS}}
"""Each part's type: all are one-dimensional but the letter counts (a row per letter)."""
_SORTED = {*_POSTINGS, *(f"{name}_bounds" for name in _POSTINGS), "chars", "char_bounds", "char_papers"}
"""The parts kept as the differences of neighbours (modulo their type's range: exact however they run)."""
_LEVEL = 3
_SLICE = 1 << 16
"""Values of a part compressed at a time (`packed`). Smaller, less is held while an entry is written: the blocks a
slice's differences and its compressed bytes take are freed between others, where the heap keeps their room. For
an index of 100,000 abstracts just built, writing held up to 61–65 MB more with a million values a slice, 37–39 with
256 K, 28–29 with 64 K (measured in process; `bench/peak.py` shows a cold open's peak)."""
_MOST = 1000
"""No part unpacks to more than this many times its packed size (plus a MB) : one claiming more is damaged."""


def packed(parts: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """`parts` compressed, each a uint8 array: one zstd frame each, that says its size (see `_frame`)."""
    return {name: np.frombuffer(b"".join(_frame(parts, name)), np.uint8) for name in _TYPES}


def write(out: BinaryIO, parts: Mapping[str, np.ndarray], **plain: np.ndarray) -> None:
    """Write to `out` what `np.savez(out, **plain, **packed(parts))` writes (numpy's .npz: `np.load` reads it), each
    part compressed twice, a piece at a time: once to know its size, which the .npy header gives first, then as it
    is written. No part's compressed bytes are held whole (at 100,000 papers all of them were ~25 MB, the body's
    ~19 MB: at the peak of a cold open, its index entry written after the titles), for ~0.4 s more of the writer's CPU."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, values in plain.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, values, allow_pickle=False)
        for name in _TYPES:
            size = sum(map(len, _frame(parts, name)))
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                header = {"descr": np.lib.format.dtype_to_descr(np.dtype(np.uint8)), "fortran_order": False, "shape": (size,)}
                np.lib.format.write_array_header_1_0(member, header)
                for piece in _frame(parts, name):
                    member.write(piece)


def _frame(parts: Mapping[str, np.ndarray], name: str) -> Iterator[bytes]:
    """The zstd frame of the part `name` of `parts`, in pieces, made as they are asked for: a frame that says its
    size, compressed `_SLICE` values at a time (whole, a part's differences and its bytes beside it were ~100 MB
    more at once for the body postings of 100,000 papers)."""
    kind = _TYPES[name]
    values = np.ascontiguousarray(parts[name], dtype=kind).reshape(-1)
    stream = zstandard.ZstdCompressor(level=_LEVEL, write_checksum=True).compressobj(size=values.nbytes)
    for start in range(0, len(values), _SLICE):
        piece = values[start : start + _SLICE]
        if name in _SORTED:
            piece = np.diff(piece, prepend=values[start - 1] if start else kind(0))
        yield stream.compress(memoryview(piece).cast("B"))
    yield stream.flush()


def unpacked(stored: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The parts `packed` made `stored` of; ValueError when one is damaged or not of whole values of its
    type (KeyError for a missing one)."""
    out = {}
    for name, kind in _TYPES.items():
        values = np.frombuffer(_bytes(stored[name], np.dtype(kind).itemsize), kind)
        out[name] = np.cumsum(values, dtype=kind) if name in _SORTED else values  # (wraps as the differences did)
    out["letters"] = out["letters"].reshape(len(LETTERS), -1)  # ValueError when not a whole number of rows
    return out


def _bytes(packed: np.ndarray, unit: int) -> bytes:
    """What `packed` (a zstd frame, as a uint8 array) holds, a whole number of `unit` bytes; ValueError
    for anything else."""
    if packed.dtype != np.uint8 or packed.ndim != 1:
        raise ValueError("packed part of another shape")
    try:
        size = zstandard.frame_content_size(packed)  # (read before a byte is decompressed)
        if size < 0 or size % unit or size > _MOST * len(packed) + (1 << 20):
            raise ValueError("packed part of another size")
        data = zstandard.ZstdDecompressor().decompress(packed)
    except zstandard.ZstdError as error:
        raise ValueError(f"packed part damaged: {error}") from None
    if len(data) != size:
        raise ValueError("packed part of another size")
    return data
