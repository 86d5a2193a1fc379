"""The identity keys of the records kept (`store.library.identity.record_keys`), cached frame by frame of the records
file (`store.library.shelf`): which marked paper a paper is (`store.library.identity.Identities`, on a paper's first
mark by `triage set`, or a list opened) is then found without decompressing and reading every record kept (at
10,000 marked papers, ~150 ms of CPU each time a mark or a record changed).

One cache file a records file, in the cache folder (`store.common.files.cache_folder`), named by a hash of the
records file's absolute path, `.keys`: "PTk1", a CRC-32 of the rest, then (marshal) the version of the keys (a
digest of the source of `store.library.identity` and `store.papers.matching`, which make them, and of the Python
version, whose Unicode they are normalised by), the digest of each frame the records file held when the cache was
written, in order, and the keys of each paper's record as those frames leave it (paper id → keys). A frame's digest
is a BLAKE2b of its frame header and its header (the ids and how much each record says), which hold the CRC-32 of
its body: the frames are read from the first one the cache does not have (all of them when the file was written
again whole), and the cache written again (through a temporary file renamed over it). A cache file that cannot be
read (damaged, of another format) or written is no cache: the frames are read.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
import zlib
from contextlib import suppress
from functools import lru_cache
from pathlib import Path

from store.common.errors import ReadError
from store.common.files import cache_folder, read_regular
from store.library import identity
from store.papers import matching
from store.library.shelf import MAGIC, decoded, frames

SUFFIX = ".keys"
_MAGIC = b"PTk1"
Keys = dict[str, list[str]]
"""Paper id → the keys of its record."""
_MOST_FIXED, _MOST_PER_BYTE = 1 << 20, 64
"""The most a cache file may hold: its keys are a part of the records, which the records file holds compressed
(a title repeated for each author: ~0.5 byte of keys a byte of the file at 10,000 marked papers)."""


def entry(records_file: Path) -> Path:
    """The cache file of the records file `records_file`."""
    named = str(records_file.absolute()).encode("utf-8", "surrogatepass")
    return cache_folder() / (hashlib.blake2b(named, digest_size=16).hexdigest() + SUFFIX)


def keys_of(data: bytes, cache: Path) -> Keys:
    """The keys of each record of the records file whose believed bytes are `data` (its magic line, then whole
    frames; the last frame holding a paper holds its record), by paper id; `store.library.shelf.Damaged` as
    `frames` and `decoded` raise it."""
    digests, bodies = [], []
    at = len(MAGIC)
    for end, _, body in frames(data, at):
        digests.append(hashlib.blake2b(data[at : end - len(body)], digest_size=16).digest())
        bodies.append(body)
        at = end
    version = _version()
    cached, found = _read(cache, version, _MOST_FIXED + _MOST_PER_BYTE * len(data))
    start = len(cached) if digests[: len(cached)] == cached else 0
    if not start:
        found = {}
    for body in bodies[start:]:
        found.update((pid, identity.record_keys(record)) for pid, record in decoded(body).items())
    if digests != cached and version:
        _write(cache, (version, digests, found))
    return found


@lru_cache(maxsize=1)
def _version() -> bytes:
    """What the keys are made by (b'' when it cannot be told: no cache is then written nor read)."""
    try:
        source = b"".join(Path(module.__file__).read_bytes() for module in (identity, matching))  # type: ignore[arg-type]
    except (OSError, TypeError):
        return b""
    return hashlib.blake2b(source + sys.version.encode(), digest_size=16).digest()


def _read(cache: Path, version: bytes, most: int) -> tuple[list[bytes], Keys]:
    """The frame digests and keys the cache file holds, when made by `version` (nothing else: no cache); a file that
    is not a regular one, is a link or holds more than `most` bytes is no cache either (never read)."""
    if not version:
        return [], {}
    try:
        data = read_regular(cache, most, "a keys cache")
        payload = memoryview(data)[len(_MAGIC) + 4 :]
        if data[: len(_MAGIC)] != _MAGIC or zlib.crc32(payload).to_bytes(4, "big") != data[len(_MAGIC) : len(_MAGIC) + 4]:
            return [], {}
        made_by, digests, keys = marshal.loads(payload)
    except (OSError, ReadError, ValueError, EOFError, TypeError):
        return [], {}
    return (digests, keys) if made_by == version and isinstance(digests, list) and isinstance(keys, dict) else ([], {})


def _write(cache: Path, content: tuple[bytes, list[bytes], Keys]) -> None:
    data = marshal.dumps(content)
    temp = None
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=cache.parent, prefix=f".{cache.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(_MAGIC + zlib.crc32(data).to_bytes(4, "big") + data)
        os.replace(temp, cache)
    except OSError:  # a read-only or full cache folder: the frames are read next time
        if temp is not None:
            with suppress(OSError):
                os.unlink(temp)
