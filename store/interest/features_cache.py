"""The features entry of a list: For you and more like this load a long list's `Features` from the cache
instead of building them again on every call (seconds of CPU at 100,000 papers).

Beside its parse entry, a list of `FEATURES_FROM` papers or more keeps the arrays its features are made of
(`store.interest.vectors.Vectors`: the tf-idf rows' data, indices and row bounds, the terms as UTF-8 text and their
idf, the latent axes, lengths and rows), no pickles: `MAGIC`, the length and CRC-32 of a JSON header (the key, and
each array's type, shape, order, place and CRC-32), then each array at a 64-byte boundary in the very type scipy and
numpy compute with, so that a reopened list's arrays are views of the file mapped (nothing copied or converted: at
1,000,000 papers, its ~1 GB of arrays were read and their indices widened in ~1.8 s of CPU). Its key is its papers'
(the parse the papers are, else a digest of them: `store.readers.list_key`), the code of this wing and of the search
wing its words are of (`store.readers.cache.code_key`) and the versions of the libraries the vectors are computed
with: the list's papers alone. The library's papers of other lists learnt from beside them (`outside`) are projected into the list's space each time (milliseconds: a mark in
another list keeps the entry). It stands for those very papers only, and is checked before it is believed: its
header (CRC, key, each array's type, shape and room in the file: `_mapped`) and then the shapes the arrays must have
together (`_vectors`) before any is used; and each array's CRC and bounds (`_checking`), summed on another core while
the features are put together (the CRC and numpy let go of the interpreter's lock), and waited for before they are
returned. Any doubt means the features are built again, and then kept again (written whole, by a thread, as every
entry: `store.readers.cache`)."""
from __future__ import annotations

import json
import math
import mmap
import struct
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

import numpy as np

from store.common.checksum import crc32
from store.interest.ranking import Features
from store.interest.vectors import Vectors
from store.papers.model import Collection, Paper
from store.common.files import open_regular
from store.common.paged import pieces
from store.common.versions import version
from store.readers.cache import FEATURES_SUFFIX, code_key, entry_file, mark_used, save, settle
from store.readers.sealed import MOST_ENTRY
from store.readers.list_key import papers_key

FEATURES_FROM = 1_000
"""Lists of this many papers and more keep their features in the cache (the ICLR list's 2,260 build in ~1 s)."""
FORMAT = "features 3"
"""Named in the key: changes with what an entry holds and how."""
MAGIC = b"triage features\n"
"""What an entry file begins with, before its header's length and CRC-32 (`_HEAD`)."""
_HEAD = struct.Struct("<16sQI")
_ALIGN = 64
"""Each array begins at a multiple of this many bytes of the file (a page is mapped at one: so are they)."""
_TYPES = {"<f4": np.float32, "<f8": np.float64, "<i4": np.int32, "<i8": np.int64, "|u1": np.uint8}
"""The only types an entry's arrays may have (no objects: nothing is unpickled)."""
_LIBRARIES = ("numpy", "scipy", "scikit-learn")
"""The libraries the vectors are computed with (the latent space is a randomised SVD's)."""


def features(collection: Collection, outside: Sequence[Paper] = ()) -> tuple[Features, bool]:
    """The features of `collection`'s papers and, learnt from beside them, of `outside`'s (projected into the list's
    space); and whether the list's were built now (else they came from the cache). A long list's come from its cache
    entry when it holds these very papers' by this very code (its CRCs summed on another core while the features are
    put together, and waited for: features from an entry that fails them are never returned); else they are built
    (from the papers' words: store.interest.counts) and kept."""
    papers, own = collection.papers, len(collection.papers)
    if own < FEATURES_FROM or not collection.sources:
        return Features(papers, outside=outside), True
    key = _key(collection)
    entry = entry_file([Path(source) for source in collection.sources], FEATURES_SUFFIX)
    settle(entry)  # (one being written is read once it is whole)
    try:
        stored = _mapped(entry, key)
        if stored is not None:
            checked = _checking(stored)
            # (nothing below follows the rows' indices but the check, and nothing made is returned before it passes)
            made = Features(papers, _vectors(stored, own), outside)
            if checked():
                mark_used(entry)
                return made, False
    except Exception:  # missing, unreadable, truncated, damaged or from another format: built again
        pass
    made = Features(papers, outside=outside)
    save(entry, lambda out: write(out, key, _arrays(made.vectors)), behind=True)
    return made, True


def _key(collection: Collection) -> str:
    """What an entry of `collection`'s features is stored under."""
    versions = [library if version(library) is None else f"{library} {version(library)}" for library in _LIBRARIES]
    return json.dumps([FORMAT, papers_key(collection), code_key("interest", "search"), versions])


def _arrays(made: Vectors) -> dict[str, np.ndarray]:
    """What an entry holds of `made` (beside its key): plain arrays, the tf-idf rows' indices and row bounds in the
    type scipy keeps them in (32 bits while they fit: then made into a matrix again, they are not copied)."""
    terms = "\n".join(made.terms).encode("utf-8", "surrogatepass")
    x = made.x
    index = np.int32 if max(x.nnz, *x.shape) < 1 << 31 else np.int64
    return {"data": x.data, "indices": x.indices.astype(index, copy=False), "indptr": x.indptr.astype(index, copy=False),
            "terms": np.frombuffer(terms, np.uint8), "idf": made.idf, "axes": made.axes, "length": made.length, "z": made.z}


def write(out: BinaryIO, key: str, arrays: Mapping[str, np.ndarray]) -> None:
    """Write an entry of `arrays` under `key` to `out` (see the module docstring), each array as it lies in memory (in
    Fortran order when it is so: the latent axes are an SVD's, and kept so, for the very same sums), read a piece at a
    time (a long list's just built are views of a file mapped, whose pages are let go of as they are read:
    store.common.paged)."""
    flat, described = [], {}
    at = 0
    for name, values in arrays.items():
        fortran = values.flags.f_contiguous and not values.flags.c_contiguous
        row = values.ravel(order="F" if fortran else "C")  # (a view of an array that lies so: no copy)
        flat.append(row)
        crc = 0
        for piece in pieces(row):  # (a long list's rows are views of a file mapped: store.common.paged)
            crc = crc32(piece, crc)
        described[name] = {"type": row.dtype.str, "shape": list(values.shape), "fortran": fortran, "at": at, "crc": crc}
        at = _aligned(at + row.nbytes)
    header = json.dumps({"key": key, "arrays": described}).encode()
    start = _aligned(_HEAD.size + len(header))
    out.write(_HEAD.pack(MAGIC, len(header), crc32(header)) + header)
    written = _HEAD.size + len(header)
    for row, about in zip(flat, described.values()):
        out.write(bytes(start + about["at"] - written))
        for piece in pieces(row):
            out.write(memoryview(piece).cast("B"))
        written = start + about["at"] + row.nbytes


def _aligned(at: int) -> int:
    return -(-at // _ALIGN) * _ALIGN


def _mapped(entry: Path, key: str) -> dict[str, tuple[np.ndarray, int]] | None:
    """The arrays of the entry file `entry`, each a view of the file mapped copy-on-write (nothing is copied, and a page
    is read when it is used) with the CRC-32 it must have (`_checking`), once its header passes its CRC and asks for
    arrays of the types an entry has that fit in the file as it is; None when its key is not `key`; ValueError (or
    another error) for anything else."""
    with open_regular(entry, MOST_ENTRY, "a features entry") as file:
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_COPY)  # (it outlives the file: the arrays hold it)
    magic, length, crc = _HEAD.unpack_from(mapped)
    header = mapped[_HEAD.size : _HEAD.size + length]
    if magic != MAGIC or len(header) != length or crc32(header) != crc:
        raise ValueError("not an entry, or a damaged one")
    about = json.loads(header)
    if about["key"] != key:
        return None  # (another version of the list, or of this code: the rest is not looked at)
    start = _aligned(_HEAD.size + length)
    arrays = {}
    for name, array in about["arrays"].items():
        kind, shape, at = np.dtype(_TYPES[array["type"]]), tuple(map(int, array["shape"])), start + int(array["at"])
        count = math.prod(shape)
        if min(shape, default=0) < 0 or at < start or at % _ALIGN or at + count * kind.itemsize > len(mapped):
            raise ValueError("an array that is not in the file")
        values = np.frombuffer(mapped, kind, count, at).reshape(shape, order="F" if array["fortran"] else "C")
        arrays[name] = (values, int(array["crc"]))
    return arrays


_FINITE = ("data", "idf", "axes", "length", "z")
"""The arrays of numbers that must all be finite."""


def _checking(stored: Mapping[str, tuple[np.ndarray, int]]) -> Callable[[], bool]:
    """Whether each of the `stored` arrays has its CRC-32, the tf-idf rows' columns are among the terms (as many as
    their weights, `idf`: `_vectors` checks there are) and the values are finite, found out on a thread of its own
    (the CRC and numpy let go of the interpreter's lock: ~0.3 s of the other core at 1,000,000 papers, a ~1 GB entry)
    while the caller goes on, in one pass over each array a piece at a time, its pages let go of as they are read
    (store.common.paged: the 3 GB of 2,700,000 papers' features were all resident after it); a call that waits for
    the answer."""
    passed = [False]

    def held(name: str, array: np.ndarray, crc: int) -> bool:
        values = array.ravel(order="A")  # (a view: the arrays lie whole in the entry)
        if name == "indices":
            values = values.view(np.uint64 if values.itemsize == 8 else np.uint32)
        found, most, finite = 0, -1, True
        for piece in pieces(values):
            found = crc32(piece, found)
            if name == "indices":
                most = max(most, int(piece.max()))
            elif name in _FINITE:
                finite = finite and bool(np.isfinite(piece.sum()))
        return found == crc and finite and most < len(stored["idf"][0])

    def check() -> None:
        try:
            passed[0] = all(held(name, array, crc) for name, (array, crc) in stored.items())
        except Exception:  # noqa: BLE001 - not passed: built again
            pass

    checker = threading.Thread(target=check, name="triage features check", daemon=True)
    checker.start()
    return lambda: (checker.join(), passed[0])[1]


def _vectors(stored: Mapping[str, tuple[np.ndarray, int]], papers: int) -> Vectors:
    """The vectors an entry holds for `papers` papers; ValueError when its arrays are not what `_arrays` makes of
    features of that many papers (types, shapes, row bounds, positive weights and lengths: what can be looked at
    without a pass over the large arrays, which `_checking` makes)."""
    from scipy import sparse

    data, indices, indptr, idf, axes, length, z, text = (stored[name][0] for name in
                                                         ("data", "indices", "indptr", "idf", "axes", "length", "z", "terms"))
    if text.dtype != np.uint8 or text.ndim != 1:
        raise ValueError("terms of another type")
    terms = bytes(text).decode("utf-8", "surrogatepass").split("\n") if len(text) else []
    count = len(terms)
    dims = axes.shape[0] if axes.ndim == 2 else 0
    if not (data.dtype == axes.dtype == length.dtype == z.dtype == np.float32 and indices.dtype in (np.int32, np.int64)
            and indptr.dtype == indices.dtype and idf.dtype == np.float64
            and data.ndim == indices.ndim == indptr.ndim == length.ndim == 1 and z.ndim == 2):
        raise ValueError("arrays of another type or shape")
    if not (dims >= 1 and axes.shape == (dims, count) and idf.shape == (count,) and z.shape == (papers, dims) and length.shape == (papers,)
            and indptr.shape == (papers + 1,) and len(data) == len(indices) == indptr[-1] and indptr[0] == 0):
        raise ValueError("arrays of another shape")
    if np.any(np.diff(indptr) < 0):
        raise ValueError("rows out of bounds")
    if not (np.all(length > 0) and np.all(idf > 0)):  # (False for NaN too)
        raise ValueError("values out of bounds")
    return Vectors(sparse.csr_matrix((data, indices, indptr), shape=(papers, count)), terms, idf, axes, length, z)
