"""The two files what is new is kept in (`store.library.seen` says what they mean): `<database>.seen`, small, read
and written at every open, and `<database>.seen.first`, the identities first seen at each open, read only when they
are looked at and written only when they change.

    <database>.seen        {"format": "paper-triage seen 2", "opens": N, "identities": M,
                            "when": {...}, "opened": {...}, "read": {...}, "later": {...}}
    <database>.seen.first  `MAGIC`, the length and CRC-32 of a JSON header {"written": M, "groups": [[N, count], ...],
                           "crc": the hashes' CRC-32}, then each group's identities as 64-bit hashes (`hashed`)

An identity is kept as a hash (8 bytes; as text, with JSON around it, ~30 bytes, and ~100 as a Python string when read:
the whole arXiv's ~7.8 million identities were a 133 MB file, and reading it for any list read anew took >1 GB); two
identities sharing one (a chance of ~1 in 300,000 among 10 million) would count a paper as seen that was not. The
identities file of before (JSON, "paper-triage seen first 2") is read as such, hashed, and written anew in this form
at the next write.

The small file counts on the identities as written at open M (its "identities"); the identities file says the open
it was written at. The identities are written first, the small file then: a crash between the two leaves an
identities file the small file does not count on, whose identities first seen at an open after M are dropped when it
is read (their papers are new again, and arrive again) and whose lists are looked at paper by paper again (their
`read` keys forgotten). An identities file missing, damaged (set aside, said) or from another time (a copy put back)
is dropped alike: a paper may be counted new again, never counted old unseen. Where the identities file cannot be
written, the small file is not written either (the open is not counted: its papers are new again next time).

A single file of before (format "paper-triage seen 1", everything in `<database>.seen`) is carried over once: its
identities become the identities file (as one written at its last open), then the small file replaces it; until both
are written it stays the file read.

Each file is read only when it is a regular file of at most `MOST_BYTES`, written whole (`store.common.files.write_whole`,
a symbolic link in its place replaced, never followed), not at all on a disk that would keep less than `MARGIN` free,
and quietly not on a database only read (`QUIET`).
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import struct
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from store.common.errors import ReadError
from store.common.files import move_aside, read_regular, write_whole

QUIET = (errno.EROFS, errno.EACCES, errno.EPERM)
"""Why a file beside a database only read cannot be written: not said (its marks are not written either)."""
MARGIN = 64 << 20
"""Free space the files leave to the marks: on a disk with less, they are not written (the marks' journal needs it more)."""

FORMAT = "paper-triage seen 2"
FIRST_FORMAT = "paper-triage seen first 2"
"""The identities file of before (JSON: each identity as text), read and written anew as `MAGIC`'s."""
MAGIC = b"paper-triage seen first 3\n"
_HEAD = struct.Struct("<QI")
SINGLE_FORMAT = "paper-triage seen 1"
"""The single file of before, carried over."""
MOST_BYTES = 256 << 20
"""The largest file read: some 33 million identities (as hashes), or 10 million as text in a file of before."""

if TYPE_CHECKING:
    import numpy as np

    Groups = dict[str, np.ndarray]
    """The identities first seen at each open: its number (a string, as JSON keys are) → their hashes (`hashed`)."""


def hashed(names: Iterable[str]) -> np.ndarray:
    """The 64-bit hash of each identity of `names` (uint64; the first 8 bytes of its BLAKE2b)."""
    import numpy as np  # (here: the app's first frame imports none of it)

    return np.fromiter((int.from_bytes(hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
                        for name in names), np.uint64)


def _hashed_groups(first: dict) -> Groups:
    """The identities of a file of before (`first`: each open's number → its identities as text), hashed."""
    return {serial: hashed(name for name in names if isinstance(name, str))
            for serial, names in first.items() if serial.isdigit() and isinstance(names, list)}


def _identities_bytes(written: int, groups: Groups) -> bytes:
    """The identities file of `groups` written at open `written` (see the module docstring)."""
    import numpy as np  # (here: the app's first frame imports none of it)

    body = b"".join(np.ascontiguousarray(hashes, "<u8").tobytes() for hashes in groups.values())
    header = json.dumps({"written": written, "groups": [[serial, len(hashes)] for serial, hashes in groups.items()],
                         "crc": zlib.crc32(body)}, separators=(",", ":")).encode()
    return MAGIC + _HEAD.pack(len(header), zlib.crc32(header)) + header + body


def _identities_of(path: Path, raw: bytes) -> tuple[int, Groups]:
    """The open an identities file (`raw`, read from `path`) was written at, and its groups; ValueError when damaged."""
    import numpy as np  # (here: the app's first frame imports none of it)

    start = len(MAGIC) + _HEAD.size
    length, crc = _HEAD.unpack_from(raw, len(MAGIC))
    header = raw[start : start + length]
    if len(header) != length or zlib.crc32(header) != crc:
        raise _damaged(path)
    about = json.loads(header)
    body = memoryview(raw)[start + length :]
    if not (isinstance(about, dict) and type(about.get("written")) is int and isinstance(about.get("groups"), list)
            and zlib.crc32(body) == about.get("crc")
            and all(isinstance(g, list) and len(g) == 2 and isinstance(g[0], str) and g[0].isdigit() and type(g[1]) is int
                    and g[1] >= 0 for g in about["groups"])
            and sum(count for _, count in about["groups"]) * 8 == len(body)):
        raise _damaged(path)
    hashes = np.frombuffer(body, "<u8").astype(np.uint64, copy=False)  # (read-only: a view of what was read)
    groups, at = {}, 0
    for serial, count in about["groups"]:
        groups[serial] = hashes[at : at + count]
        at += count
    return about["written"], groups


def _damaged(path: Path) -> ValueError:
    return ValueError(f"{path}: not a paper-triage first-seen file")


def _read(path: Path) -> bytes | None:
    """The bytes of the file `path`; None when there is none (ReadError: not to be read)."""
    try:
        return read_regular(path, MOST_BYTES, "a first-seen file")
    except FileNotFoundError:
        return None


def _loaded(path: Path, raw: bytes | None = None) -> tuple[dict, bytes] | None:
    """The JSON object of the file `path` (its bytes `raw`, when read) and its bytes; None when there is none
    (ReadError, ValueError: damaged)."""
    raw = _read(path) if raw is None else raw
    if raw is None:
        return None
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise _damaged(path)
    return data, raw


def _single(data: dict) -> bool:
    """Whether `data` is a whole single file of before."""
    return (data.get("format") == SINGLE_FORMAT and type(data.get("opens")) is int
            and all(isinstance(data.get(part), dict) for part in ("first", "when", "opened")))


def begun() -> dict:
    """A small file's data when there was none."""
    return {"format": FORMAT, "opens": 0, "identities": 0, "when": {}, "opened": {}, "read": {}}


class SeenFiles:
    """The two first-seen files of one database (see the module docstring); what reading them found to say is
    added to `notices`."""

    def __init__(self, path: Path, notices: list[str]) -> None:
        self.path = path
        self.first_path = path.with_name(path.name + ".first")
        self.notices = notices

    def _set_aside(self, path: Path, exc: Exception) -> None:
        """Say that `path` could not be read (`exc`) and move it aside (OSError when it cannot be moved)."""
        problem = str(exc) if isinstance(exc, ReadError) else f"{path}: {exc}"
        try:
            aside = move_aside(path)
            self.notices.append(f"{problem}; set aside as {aside.name}: every paper of this list counts as new")
        except OSError:
            self.notices.append(f"{problem}; what is new is not known")
            raise

    def read(self) -> tuple[dict, Groups | None]:
        """The small file's data, and the identities when they came with it (a single file of before, carried over:
        its "identities" then None while they are not written apart). OSError when a damaged file cannot be set aside."""
        try:
            found = _loaded(self.path)
            if found is None:
                return begun(), None
            data, raw = found
            if _single(data):
                return self._carry_over(data, raw)
            if not (data.get("format") == FORMAT and type(data.get("opens")) is int and type(data.get("identities")) is int
                    and all(isinstance(data.get(part), dict) for part in ("when", "opened", "read"))):
                raise _damaged(self.path)
            return data, None
        except (ReadError, ValueError, RecursionError) as exc:
            self._set_aside(self.path, exc)
        return begun(), None

    def _carry_over(self, data: dict, raw: bytes) -> tuple[dict, Groups]:
        """Split a single file of before (`raw`, read as `data`): its bytes become the identities file, then the small
        file replaces it (see the module docstring)."""
        groups = _hashed_groups(data.pop("first"))
        small = {**data, "format": FORMAT, "identities": None}
        small["read"] = small["read"] if isinstance(small.get("read"), dict) else {}
        if self._write(self.first_path, _identities_bytes(data["opens"], groups),
                       "what is new is read from the file of before again next time"):
            small["identities"] = data["opens"]
            self._write(self.path, json.dumps(small, separators=(",", ":")).encode(), "it is carried over again next time")
        return small, groups

    def groups(self, data: dict) -> tuple[Groups, bool]:
        """The identities the small file's `data` counts on, and whether the identities file must be written again
        (missing, damaged, or holding other opens: then `data` forgets its lists' `read` keys and the times of the opens
        dropped). OSError when a damaged file cannot be set aside."""
        counted = data["identities"]
        before = False  # (a file of before: written anew)
        try:
            raw = _read(self.first_path)
            if raw is None:
                written, groups = 0, {}
            elif raw.startswith(MAGIC):
                written, groups = _identities_of(self.first_path, raw)
            else:
                first = _loaded(self.first_path, raw)[0]  # type: ignore[index]
                written = first.get("written") if first.get("format") == FIRST_FORMAT else first.get("opens")
                if not ((first.get("format") == FIRST_FORMAT or _single(first)) and type(written) is int
                        and isinstance(first.get("first"), dict)):
                    raise _damaged(self.first_path)
                groups, before = _hashed_groups(first["first"]), True
        except (ReadError, ValueError, RecursionError, struct.error) as exc:
            self._set_aside(self.first_path, exc)
            written, groups = None, {}
        if written == counted:
            return groups, before
        groups = {serial: names for serial, names in groups.items() if serial.isdigit() and int(serial) <= counted}
        data["read"] = {}
        data["when"] = {serial: at for serial, at in data["when"].items() if serial in groups}
        return groups, True

    def save(self, data: dict, groups: Groups | None, changed: bool, lost: str) -> None:
        """Write the identities `groups` when they `changed` (or are not written apart yet: carried over) and then the
        small file's `data`, counting on them; the small file not when the identities it counts on are not written.
        What is not written is said (`lost`: what that costs)."""
        if groups is not None and (changed or data["identities"] is None):
            if not self._write(self.first_path, _identities_bytes(data["opens"], groups), lost):
                return
            data["identities"] = data["opens"]
        if data["identities"] is not None:
            self._write(self.path, json.dumps(data, separators=(",", ":")).encode(), lost)

    def _write(self, path: Path, body: bytes, lost: str) -> bool:
        """Write `path` whole with `body`: whether it was (what could not be is said, but on a database only read)."""
        if not self._room_for(len(body)):
            return False  # (a nearly full disk keeps its last bytes for the marks)
        try:
            write_whole(path, body, links=False)
        except OSError as exc:
            if exc.errno not in QUIET:  # (a database only read: nothing to say, as for its marks)
                self.notices.append(f"{path}: not saved ({exc.strerror or exc}): {lost}")
            return False
        return True

    def _room_for(self, size: int) -> bool:
        """Whether the disk keeps `MARGIN` free beyond a new copy of a file of `size` bytes."""
        try:
            disk = os.statvfs(self.path.parent)
        except OSError:
            return True  # (the write says what is wrong)
        return disk.f_bavail * disk.f_frsize >= size + MARGIN
