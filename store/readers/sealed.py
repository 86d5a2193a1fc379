"""A cache entry file as read: a regular file behind `MAGIC` and the CRC-32 of what follows (`header_of`), read never
through a link (`entry_bytes`, `entry_mapped`) and believed only once its CRC holds (`unsealed`).

A reopened long list's parse entry is mapped and its CRC worked out before a byte of it is unmarshalled: ~55 ms at
1,000,000 papers (0.2 GB), spent without the interpreter's lock (store.common.checksum). `check_ahead` has that done on a thread
of its own while the app draws its first frame (on the other core), and `mapped` then gives the mapping so checked, as
long as the entry is still that very file (its device, inode, size and times: an entry is only ever replaced whole,
by a rename, never written in place)."""
from __future__ import annotations

import mmap
import os
import threading
from pathlib import Path

from store.common.checksum import crc32
from store.common.files import open_regular
from store.common.paged import PIECE, released

MAGIC = b"PTc2"
"""The start of a cache entry file, before the CRC-32 of the rest: an entry that fails it is made again."""
MOST_ENTRY = 8 << 30
"""The most bytes a cache entry is read of (a 100,000-abstract list's parse entry is ~46 MB, its features ~112 MB)."""
HEAD = len(MAGIC) + 4
"""The bytes of an entry file before its data (`header`)."""


def entry_bytes(entry: Path) -> bytes:
    """The bytes of the cache entry `entry`, a regular file of at most `MOST_ENTRY` bytes read never through a link
    and never waiting (a FIFO put in its place is refused, not read: it would hang the open): FileNotFoundError when
    there is none, ReadError for anything else (`store.common.files.open_regular`)."""
    with open_regular(entry, MOST_ENTRY, "a cache entry") as file:
        return file.read()


def entry_mapped(entry: Path) -> mmap.mmap:
    """The cache entry `entry` mapped to read (nothing read but what is used: a reopened 1,000,000-paper list's parse
    entry, 0.2 GB, was read and unmarshalled whole before its search was ready, ~0.25 s), opened as `entry_bytes` opens
    it; ValueError for an empty one."""
    return _mapped_now(entry)[0]


def header_of(*parts: bytes | bytearray) -> bytes:
    """What an entry file holds before its data, `parts` one after another: `MAGIC` and the CRC-32 of them all
    (4 bytes)."""
    crc = 0
    for part in parts:
        crc = crc32(part, crc)
    return header(crc)


def header(crc: int) -> bytes:
    """What an entry file holds before data whose CRC-32 is `crc`."""
    return MAGIC + crc.to_bytes(4, "big")


def _held(data: bytes | mmap.mmap) -> bool:
    """Whether an entry file's bytes are `MAGIC`, then the CRC-32 of the rest, then the rest: read a piece at a time,
    each piece's pages of an entry mapped let go of once read (store.common.paged: a 2,700,000-paper list's parse entry
    was ~0.7 GB of the app's resident memory while its first frame was drawn)."""
    if data[: len(MAGIC)] != MAGIC:
        return False
    stored, crc = data[len(MAGIC) : HEAD], 0
    for at in range(0, len(data), PIECE):
        with memoryview(data) as whole, whole[max(at, HEAD) : at + PIECE] as piece:
            crc = crc32(piece, crc)
        if isinstance(data, mmap.mmap):
            released(data, at, at + PIECE)
    return crc.to_bytes(4, "big") == stored


def unsealed(data: bytes | mmap.mmap, checked: bool = False) -> memoryview:
    """The payload of an entry file; ValueError when it fails its checksum (checked before unmarshalling: a damaged
    length inside could otherwise ask for gigabytes). `checked`: its CRC held already (`mapped`)."""
    if not (data[: len(MAGIC)] == MAGIC if checked else _held(data)):
        raise ValueError("damaged cache entry")
    return memoryview(data)[HEAD:]


_Pin = tuple[int, int, int, int, int, int]
_ahead: dict[Path, tuple[threading.Thread, list]] = {}
"""The entries being checked ahead (`check_ahead`): the thread, and what it found (`_checked`)."""


def _pin(info: os.stat_result) -> _Pin:
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_mode


def _mapped_now(entry: Path) -> tuple[mmap.mmap, _Pin]:
    with open_regular(entry, MOST_ENTRY, "a cache entry") as file:
        return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ), _pin(os.fstat(file.fileno()))


def _checked(entry: Path, found: list) -> None:
    try:
        data, pin = _mapped_now(entry)
        found += [data, pin, _held(data)]
        data.madvise(mmap.MADV_DONTNEED)  # (the pages read are the system's cache again, not the app's memory meanwhile)
    except Exception:  # noqa: BLE001 - missing, unreadable, empty: `mapped` maps it again, and says why
        found.clear()


def check_ahead(entry: Path) -> None:
    """Start working out the CRC of the entry file `entry` on a thread of its own (see the module's docstring)."""
    if entry not in _ahead:
        found: list = []
        thread = threading.Thread(target=_checked, args=(entry, found), name="triage entry check", daemon=True)
        _ahead[entry] = (thread, found)
        thread.start()


def mapped(entry: Path) -> tuple[mmap.mmap, bool]:
    """The entry file `entry` mapped (`entry_mapped`), and whether its CRC held already: checked ahead (waited for
    when it is still being checked) when the file is still the one checked then; else mapped now, its CRC to be
    checked (False). ValueError for one checked ahead that failed its CRC."""
    thread, found = _ahead.pop(entry, (None, []))
    if thread is not None:
        thread.join()
    if found:
        data, pin, held = found
        try:
            same = _pin(os.stat(entry, follow_symlinks=False)) == pin
        except OSError:
            same = False
        if same:
            if not held:
                raise ValueError("damaged cache entry")
            return data, True
        data.close()
    return entry_mapped(entry), False
