"""The features entry of a list: For you and more like this load a long list's `Features` from the cache
instead of building them again on every call (seconds of CPU at 100,000 papers).

Beside its parse entry, a list of `FEATURES_FROM` papers or more keeps the arrays
its features are made of (`store.interest.vectors.Vectors`: the tf-idf rows' data, indices and row bounds, the
terms as UTF-8 text and their idf, the latent axes, lengths and rows) in numpy's .npz, no pickles. Its key is its
papers' (the parse the papers are, else a digest of them: `store.readers.list_key`), the code of this wing
(`store.readers.cache.code_key`) and the versions of the libraries the vectors are computed with: the list's papers alone. The library's papers of other
lists learnt from beside them (`outside`) are projected into the list's space each time (milliseconds: a mark in
another list keeps the entry). It stands for those very papers only, and is checked before it is believed (each
array's header against the room it takes before it is read, zip CRCs, no pickles: `_read`; the key; then every
array's type, shape and bounds: `_vectors`); any doubt means the features are built again, and then kept again
(written whole, by a thread, as every entry: `store.readers.cache`)."""
from __future__ import annotations

import io
import json
import math
import mmap
import struct
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from store.interest.ranking import Features
from store.interest.vectors import Vectors
from store.papers.model import Collection, Paper
from store.common.files import open_regular
from store.common.versions import version
from store.readers.cache import FEATURES_SUFFIX, MOST_ENTRY, code_key, entry_file, mark_used, save, settle
from store.readers.list_key import papers_key

FEATURES_FROM = 1_000
"""Lists of this many papers and more keep their features in the cache (the ICLR list's 2,260 build in ~1 s)."""
FORMAT = "features 2"
"""Named in the key: changes with what an entry holds and how."""
_LIBRARIES = ("numpy", "scipy", "scikit-learn")
"""The libraries the vectors are computed with (the latent space is a randomised SVD's)."""


def features(collection: Collection, outside: Sequence[Paper] = ()) -> tuple[Features, bool]:
    """The features of `collection`'s papers and, learnt from beside them, of `outside`'s (projected into the list's
    space); and whether the list's were built now (else they came from the cache). A long list's come from its cache
    entry when it holds these very papers' by this very code; else they are built (from the papers' words:
    store.interest.counts) and kept."""
    papers, own = [*collection.papers, *outside], len(collection.papers)
    if own < FEATURES_FROM or not collection.sources:
        return Features(papers, own=own), True
    key = _key(collection)
    entry = entry_file([Path(source) for source in collection.sources], FEATURES_SUFFIX)
    settle(entry)  # (one being written is read once it is whole)
    try:
        stored = _read(entry, key)
        if stored is not None:
            made = Features(papers, own=own, vectors=_vectors(stored, own))
            mark_used(entry)
            return made, False
    except Exception:  # missing, unreadable, truncated, damaged or from another format: built again
        pass
    made = Features(papers, own=own)
    save(entry, lambda out: np.savez(out, key=np.frombuffer(key.encode(), np.uint8), **_arrays(made.vectors)), behind=True)
    return made, True


def _key(collection: Collection) -> str:
    """What an entry of `collection`'s features is stored under."""
    versions = [library if version(library) is None else f"{library} {version(library)}" for library in _LIBRARIES]
    return json.dumps([FORMAT, papers_key(collection), code_key("interest"), versions])


def _arrays(made: Vectors) -> dict[str, np.ndarray]:
    """What an entry holds of `made` (beside its key): plain arrays (the column of each value in two bytes when the
    terms are that few: at 100,000 papers, 21,505 terms and 10 M values, an entry of 94 MB instead of 115)."""
    terms = "\n".join(made.terms).encode("utf-8", "surrogatepass")
    indices = made.x.indices.astype(np.uint16) if len(made.terms) <= 1 << 16 else made.x.indices
    return {"data": made.x.data, "indices": indices, "indptr": made.x.indptr,
            "terms": np.frombuffer(terms, np.uint8), "idf": made.idf, "axes": made.axes, "length": made.length, "z": made.z}


def _read(entry: Path, key: str) -> dict[str, np.ndarray] | None:
    """The arrays of the .npz file `entry` (as `np.savez` writes them: stored, not compressed), mapped, not read: each
    a view of the file mapped copy-on-write (nothing is copied, and a page is read when it is used), taken once its
    member's bytes match its CRC and its header asks for exactly the room the member holds (a damaged one never asks
    for memory the file does not hold); None as soon as its first, the key, is not `key`; ValueError (or another
    error) for anything else. (Read whole instead, the 94 MB of a 100,000-paper list's entry took 0.3 s.)"""
    arrays: dict[str, np.ndarray] = {}
    with open_regular(entry, MOST_ENTRY, "a features entry") as file, zipfile.ZipFile(file) as archive:
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_COPY)  # (it outlives the file: the arrays hold it)
        for info in archive.infolist():
            if info.compress_type != zipfile.ZIP_STORED or not info.filename.endswith(".npy") or info.flag_bits & 1:
                raise ValueError("not an entry")
            member = _member(mapped, info)
            if zlib.crc32(member) != info.CRC:
                raise ValueError("a member that fails its CRC")
            head = io.BytesIO(member[:_MOST_HEADER])
            read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                           (2, 0): np.lib.format.read_array_header_2_0}[np.lib.format.read_magic(head)]
            shape, fortran, kind = read_header(head)
            if kind.hasobject or not kind.isnative:
                raise ValueError("an array of another kind")
            if math.prod(shape) * kind.itemsize != len(member) - head.tell():
                raise ValueError("an array of another size")
            # (in the order it was written: the latent axes are an SVD's, in Fortran order, and kept so)
            values = np.frombuffer(member, kind, offset=head.tell()).reshape(shape, order="F" if fortran else "C")
            arrays[info.filename.removesuffix(".npy")] = values
            if len(arrays) == 1 and not np.array_equal(arrays.get("key"), np.frombuffer(key.encode(), np.uint8)):
                return None  # (another version of the list, or of this code: the rest is not looked at)
    return arrays


_MOST_HEADER = 1 << 17
"""The most an array's .npy header is read for (numpy writes a few hundred bytes; a longer one is damage)."""


def _member(mapped: mmap.mmap, info: zipfile.ZipInfo) -> memoryview:
    """The bytes of the stored member `info` in the mapped zip file (after its local header, which must name it)."""
    start = info.header_offset
    header = mapped[start : start + 30]
    if len(header) != 30 or header[:4] != b"PK\x03\x04":
        raise ValueError("a member without its header")
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    if mapped[start + 30 : start + 30 + name_length] != info.orig_filename.encode():
        raise ValueError("a member under another name")
    begin = start + 30 + name_length + extra_length
    if info.compress_size != info.file_size or begin + info.file_size > len(mapped):
        raise ValueError("a member cut short")
    return memoryview(mapped)[begin : begin + info.file_size]


def _vectors(stored: Mapping[str, np.ndarray], papers: int) -> Vectors:
    """The vectors an entry holds for `papers` papers; ValueError when its arrays are not what `_arrays` makes of
    features of that many papers (types, shapes, bounds, finite values)."""
    from scipy import sparse

    data, indices, indptr, idf, axes, length, z = (stored[name] for name in ("data", "indices", "indptr", "idf", "axes", "length", "z"))
    text = stored["terms"]
    if text.dtype != np.uint8 or text.ndim != 1:
        raise ValueError("terms of another type")
    terms = bytes(text).decode("utf-8", "surrogatepass").split("\n") if len(text) else []
    count = len(terms)
    dims = axes.shape[0] if axes.ndim == 2 else 0
    if not (data.dtype == axes.dtype == length.dtype == z.dtype == np.float32 and indices.dtype in (np.uint16, np.int32, np.int64)
            and indptr.dtype.kind == "i" and idf.dtype == np.float64
            and data.ndim == indices.ndim == indptr.ndim == length.ndim == 1 and z.ndim == 2):
        raise ValueError("arrays of another type or shape")
    if not (dims >= 1 and axes.shape == (dims, count) and idf.shape == (count,) and z.shape == (papers, dims) and length.shape == (papers,)
            and indptr.shape == (papers + 1,) and len(data) == len(indices) == indptr[-1] and indptr[0] == 0):
        raise ValueError("arrays of another shape")
    if np.any(np.diff(indptr) < 0) or (len(indices) and (indices.min() < 0 or indices.max() >= count)):
        raise ValueError("rows out of bounds")
    if not all(np.isfinite(values).all() for values in (data, idf, axes, length, z)) or np.any(length <= 0) or np.any(idf <= 0):
        raise ValueError("values out of bounds")
    x = sparse.csr_matrix((data, indices.astype(np.int32) if indices.dtype == np.uint16 else indices, indptr), shape=(papers, count))
    return Vectors(x, terms, idf, axes, length, z)
