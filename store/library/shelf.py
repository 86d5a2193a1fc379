"""The file of records beside the database, `<database>.papers`: append-only, compressed, each part sealed.

    paper-triage papers 1\n            (the first line)
    frame, frame, …                     each: "PTR1", the sizes of its header and body and a CRC-32 of both
                                        (big-endian 32-bit numbers), then the header (JSON: paper id → the
                                        record's `richness`) and the body (zstd: JSON paper id → record)

A write appends one frame holding the records that are new or richer than those kept; the last frame of a
paper holds its record. Appends are made durable (fsynced) when the database is closed (`flush`), not at each
mark, which the marks' own fsync already costs: a crash of the machine (not of the program) may lose the last
records, never the marks, and a marked paper without its record gets it again when next seen in a list. Which papers the file holds, and how richly, is read from the headers
alone (no body is decompressed): what a mark asks before it writes. Past `COMPACT_FRAMES` frames the file is
written again whole as one frame (`store.common.files.write_whole`).

A frame cut short (a writer killed mid-append) is ignored and cut off by the next write; a frame whose CRC
does not match, or that cannot be read, ends what is believed of the file: the file is copied aside, said
(`notices`), and written again from the frames before it. The file is never followed through a symbolic link
and read only when it is a regular file of at most `MOST_BYTES` (`store.common.files.open_regular`); a body
that would decompress to more than `MOST_RECORDS_BYTES` is not decompressed.

`Shelf` is not locked: its owner (the triage store) calls it under the database's lock. `read_file` reads a
file of this format that someone else wrote (another database's, bounded the same way) without a `Shelf`.
"""
from __future__ import annotations

import json
import os
import struct
import zlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import zstandard

from store.common import json_out
from store.common.errors import NotSaved, ReadError
from store.common.files import copy_aside, fsync_dir, open_regular, write_whole
from store.library.record import MOST_BYTES as MOST_RECORD, checked, richness, size_of, too_large

MAGIC = b"paper-triage papers 1\n"
_FRAME = struct.Struct(">4sIII")
_TAG = b"PTR1"
MOST_BYTES = 1 << 30
"""The largest file read: some 1.5 million records."""
MOST_RECORDS_BYTES = 4 << 30
"""The most a frame's body may decompress to."""
COMPACT_FRAMES = 64
"""Frames past which the file is written again as one."""
_LEVEL = 6

Records = dict[str, dict[str, Any]]
T = TypeVar("T")


class Damaged(Exception):
    """What is believed of a records file ends before its end; `str()` says where and why."""


def encode_frame(records: Mapping[str, Mapping[str, Any]]) -> bytes:
    """One frame of these records."""
    head = json_out.dumps({pid: richness(record) for pid, record in records.items()}).encode("utf-8")
    body = zstandard.ZstdCompressor(level=_LEVEL).compress(json_out.dumps(records).encode("utf-8"))
    return _FRAME.pack(_TAG, len(head), len(body), zlib.crc32(body, zlib.crc32(head))) + head + body


def frames(data: bytes | memoryview, start: int) -> Iterator[tuple[int, dict[str, int], memoryview]]:
    """Each whole frame of `data` from `start`: where it ends, its header, its body. A frame cut short ends
    it; `Damaged` when one cannot be believed."""
    view = memoryview(data)
    at = start
    while at + _FRAME.size <= len(view):
        tag, head_size, body_size, crc = _FRAME.unpack_from(view, at)
        if tag != _TAG:
            raise Damaged(f"byte {at:,}: not a frame")
        end = at + _FRAME.size + head_size + body_size
        if end > len(view):
            return  # cut short
        head, body = view[at + _FRAME.size : end - body_size], view[end - body_size : end]
        if zlib.crc32(body, zlib.crc32(head)) != crc:
            raise Damaged(f"byte {at:,}: damaged (its checksum does not match)")
        try:
            ids = json.loads(bytes(head))
        except (ValueError, RecursionError):
            ids = None
        if not isinstance(ids, dict) or not all(type(value) is int for value in ids.values()):
            raise Damaged(f"byte {at:,}: damaged (its header is not readable)")
        yield end, ids, body
        at = end


def decoded(body: memoryview | bytes) -> Records:
    """A frame body's records (those shaped as records); `Damaged` when it cannot be read."""
    try:
        size = zstandard.frame_content_size(body)
        if size < 0 or size > MOST_RECORDS_BYTES:
            raise Damaged(f"a part would be {size:,} bytes once decompressed")
        data = json.loads(zstandard.ZstdDecompressor().decompress(body))
    except (zstandard.ZstdError, ValueError, RecursionError) as exc:
        raise Damaged(f"a part cannot be read ({exc})") from None
    if not isinstance(data, dict):
        raise Damaged("a part holds no records")
    return {pid: record for pid, raw in data.items() if (record := checked(raw)) is not None}


def _read(path: Path) -> bytes:
    """The bytes of the records file `path` (b'' when there is none); ReadError when it is no regular file or too large."""
    try:
        with open_regular(path, MOST_BYTES, "a records file") as opened:
            data = opened.read(MOST_BYTES + 1)
    except FileNotFoundError:
        return b""
    if len(data) > MOST_BYTES:
        raise ReadError(str(path), f"more than the {MOST_BYTES:,} bytes read from a records file")
    if data and not data.startswith(MAGIC[: len(data)]):
        raise ReadError(str(path), "not a paper-triage records file")
    return data


def read_file(path: str | os.PathLike[str]) -> Records:
    """Every record of the records file `path` (none when there is none), what is believed of it: ReadError
    when it is no records file, no regular file (never followed through a link) or too large."""
    data = _read(Path(path))
    records: Records = {}
    try:
        for _, _, body in frames(data, len(MAGIC)):
            records.update(decoded(body))
    except Damaged:
        pass  # the frames before the damage are believed
    return records


class Shelf:
    """The records file of one database (see the module docstring); called under the database's lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.notices: list[str] = []
        self._index: dict[str, int] = {}
        """Paper id → the richness of its record (`store.library.record.richness`)."""
        self._frames = 0
        self._end = 0
        """Where the last whole frame read ends (0: nothing read)."""
        self._seen: tuple[int, int] | None = None
        """The inode and size of the file when last read."""
        self._unsynced = ""
        """What `flush` has to make durable: "" nothing, "written" the file, "made" the file and its folder's entry."""

    def _catch_up(self) -> None:
        """Read the frames appended since (all of them again when the file was replaced); nothing is read
        while the file is as this shelf last left or saw it (the same inode and size)."""
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            self._index, self._frames, self._end, self._seen = {}, 0, 0, None
            return
        if (st.st_ino, st.st_size) == self._seen:
            return
        data = _read(self.path)
        if self._seen is None or st.st_ino != self._seen[0] or len(data) < self._end:
            self._index, self._frames, self._end = {}, 0, 0
        self._seen = (st.st_ino, len(data))
        try:
            for end, ids, _ in frames(data, max(self._end, len(MAGIC))):
                self._index.update(ids)
                self._frames += 1
                self._end = end
        except Damaged as exc:
            self._repair(data, str(exc))

    def _repair(self, data: bytes, problem: str) -> None:
        """Keep a copy of the damaged file and write it again from what is believed of it."""
        aside = copy_aside(self.path)
        believed = data[: max(self._end, len(MAGIC))]
        records = self._all(believed)
        self.notices.append(f"{self.path}: {problem}; a copy is in {aside.name}, and the records before it are kept")
        self._rewrite(records)

    def richness(self) -> dict[str, int]:
        """Paper id → the richness of the record kept (read from the frames' headers alone); none when the
        file cannot be read."""
        try:
            self._catch_up()
        except ReadError:
            return {}
        return dict(self._index)

    def records(self) -> tuple[Records, list[str]]:
        """Every record kept, by paper id, and what the user must be told (the file cannot be read, was repaired)."""
        return self.read(self._all, {})

    def read(self, how: Callable[[bytes], T], nothing: T) -> tuple[T, list[str]]:
        """What `how` makes of what is believed of the file (its bytes up to the end of its last whole frame, or
        b''), and what the user must be told; `nothing` when the file cannot be read (`how` raising `Damaged` too)."""
        try:
            self._catch_up()
            found = how(_read(self.path)[: self._end])
        except (ReadError, Damaged) as exc:
            return nothing, [f"{exc}; the papers' records are not read"]
        return found, self._told()

    def _told(self) -> list[str]:
        told, self.notices = self.notices, []
        return told

    @staticmethod
    def _all(data: bytes) -> Records:
        records: Records = {}
        if data:
            for _, _, body in frames(data, len(MAGIC)):
                records.update(decoded(body))
        return records

    def keep(self, records: Mapping[str, Mapping[str, Any]]) -> list[str]:
        """Keep each record that says more than the one kept of its paper (or is the first), as one fsynced
        append; what the user must be told (a record too large to keep, a file that cannot be written)."""
        try:
            self._catch_up()
            told, new = [], {}
            for pid, record in records.items():
                held = self._index.get(pid)
                if held is not None and held >= richness(record):
                    continue
                size = size_of(record)
                if size > MOST_RECORD:
                    told.append(too_large(pid, size))
                    continue
                new[pid] = record
            if new:
                self._append(encode_frame(new))
                self._index.update((pid, richness(record)) for pid, record in new.items())
                if self._frames > COMPACT_FRAMES:
                    self._rewrite(self._all(_read(self.path)[: self._end]))
        except (NotSaved, ReadError, Damaged) as exc:
            return [f"{exc}; the papers' records are not kept (their marks are)"]
        return told + self._told()

    def _append(self, frame: bytes) -> None:
        created = self._end == 0
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise NotSaved(f"{self.path}: not saved: {exc.strerror or exc}") from None
        start = self._end or 0
        try:
            os.ftruncate(fd, start)  # a frame cut short by a killed writer goes
            os.lseek(fd, start, os.SEEK_SET)
            view = memoryview((MAGIC if created else b"") + frame)
            while view:  # (fsynced by `flush`: see the module docstring)
                view = view[os.write(fd, view) :]
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
            except OSError:
                pass
            raise NotSaved(f"{self.path}: not saved: {exc.strerror or exc}") from None
        finally:
            os.close(fd)
        self._unsynced = self._unsynced or ("made" if created else "written")
        self._end = start + (len(MAGIC) if created else 0) + len(frame)
        self._frames += 1
        self._seen = (os.lstat(self.path).st_ino, self._end)

    def flush(self) -> None:
        """Make what was appended durable (fsync the file, and its folder when the file was made)."""
        if not self._unsynced:
            return
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            if self._unsynced == "made":
                fsync_dir(self.path.parent)
        except OSError as exc:
            self.notices.append(f"{self.path}: not written to the disk ({exc.strerror or exc})")
        self._unsynced = ""

    def _rewrite(self, records: Records) -> None:
        """The file written again whole as one frame of `records`."""
        data = MAGIC + encode_frame(records) if records else MAGIC
        try:
            write_whole(self.path, data, links=False)
        except OSError as exc:
            self.notices.append(f"{self.path}: not rewritten ({exc.strerror or exc}); its records are kept as they were")
            return
        self._index = {pid: richness(record) for pid, record in records.items()}
        self._frames, self._end = (1 if records else 0), len(data)
        self._seen = (os.lstat(self.path).st_ino, len(data))
