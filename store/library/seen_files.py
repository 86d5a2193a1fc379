"""The two files what is new is kept in (`store.library.seen` says what they mean): `<database>.seen`, small, read
and written at every open, and `<database>.seen.first`, the identities first seen at each open, read only when they
are looked at and written only when they change.

    <database>.seen        {"format": "paper-triage seen 2", "opens": N, "identities": M,
                            "when": {...}, "opened": {...}, "read": {...}, "later": {...}}
    <database>.seen.first  {"format": "paper-triage seen first 2", "written": M, "first": {"N": [identity, ...], ...}}

The small file counts on the identities as written at open M (its "identities"); the identities file says the open
it was written at. The identities are written first, the small file then: a crash between the two leaves an
identities file the small file does not count on, whose identities first seen at an open after M are dropped when it
is read (their papers are new again, and arrive again) and whose lists are looked at paper by paper again (their
`read` keys forgotten). An identities file missing, damaged (set aside, said) or from another time (a copy put back)
is dropped alike: a paper may be counted new again, never counted old unseen. Where the identities file cannot be
written, the small file is not written either (the open is not counted: its papers are new again next time).

A single file of before (format "paper-triage seen 1", everything in `<database>.seen`) is carried over once: its
bytes become the identities file (read as one written at its last open), then the small file replaces it; until both
are written it stays the file read.

Each file is read only when it is a regular file of at most `MOST_BYTES`, written whole (`store.common.files.write_whole`,
a symbolic link in its place replaced, never followed), not at all on a disk that would keep less than `MARGIN` free,
and quietly not on a database only read (`QUIET`).
"""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from store.common.errors import ReadError
from store.common.files import move_aside, read_regular, write_whole

QUIET = (errno.EROFS, errno.EACCES, errno.EPERM)
"""Why a file beside a database only read cannot be written: not said (its marks are not written either)."""
MARGIN = 64 << 20
"""Free space the files leave to the marks: on a disk with less, they are not written (the marks' journal needs it more)."""

FORMAT = "paper-triage seen 2"
FIRST_FORMAT = "paper-triage seen first 2"
SINGLE_FORMAT = "paper-triage seen 1"
"""The single file of before, carried over."""
MOST_BYTES = 256 << 20
"""The largest file read: some 10 million identities."""

Groups = dict[str, list]
"""The identities first seen at each open: its number (a string, as JSON keys are) → them."""


def _damaged(path: Path) -> ValueError:
    return ValueError(f"{path}: not a paper-triage first-seen file")


def _loaded(path: Path) -> tuple[dict, bytes] | None:
    """The JSON object of the file `path` and its bytes; None when there is none (ReadError, ValueError: damaged)."""
    try:
        raw = read_regular(path, MOST_BYTES, "a first-seen file")
    except FileNotFoundError:
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
        groups = data.pop("first")
        small = {**data, "format": FORMAT, "identities": None}
        small["read"] = small["read"] if isinstance(small.get("read"), dict) else {}
        if self._write(self.first_path, raw, "what is new is read from the file of before again next time"):
            small["identities"] = data["opens"]
            self._write(self.path, json.dumps(small, separators=(",", ":")).encode(), "it is carried over again next time")
        return small, groups

    def groups(self, data: dict) -> tuple[Groups, bool]:
        """The identities the small file's `data` counts on, and whether the identities file must be written again
        (missing, damaged, or holding other opens: then `data` forgets its lists' `read` keys and the times of the opens
        dropped). OSError when a damaged file cannot be set aside."""
        counted = data["identities"]
        try:
            found = _loaded(self.first_path)
            if found is None:
                written, groups = 0, {}
            else:
                first = found[0]
                written = first.get("written") if first.get("format") == FIRST_FORMAT else first.get("opens")
                if not ((first.get("format") == FIRST_FORMAT or _single(first)) and type(written) is int
                        and isinstance(first.get("first"), dict)):
                    raise _damaged(self.first_path)
                groups = first["first"]
        except (ReadError, ValueError, RecursionError) as exc:
            self._set_aside(self.first_path, exc)
            written, groups = None, {}
        if written == counted:
            return groups, False
        groups = {serial: names for serial, names in groups.items() if serial.isdigit() and int(serial) <= counted}
        data["read"] = {}
        data["when"] = {serial: at for serial, at in data["when"].items() if serial in groups}
        return groups, True

    def save(self, data: dict, groups: Groups | None, changed: bool, lost: str) -> None:
        """Write the identities `groups` when they `changed` (or are not written apart yet: carried over) and then the
        small file's `data`, counting on them; the small file not when the identities it counts on are not written.
        What is not written is said (`lost`: what that costs)."""
        if groups is not None and (changed or data["identities"] is None):
            body = json.dumps({"format": FIRST_FORMAT, "written": data["opens"], "first": groups}, separators=(",", ":"))
            if not self._write(self.first_path, body.encode(), lost):
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
