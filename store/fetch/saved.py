"""Where fetched lists are saved: `lists/` beside the database, one file per feed and day
(`arxiv-cs.LG-2026-12-02.atom`), written whole or not at all (`store.common.files.write_whole`).

The latest file of a feed is where the next fetch starts from; it is read as a regular file (never
through a symbolic link) of at most `LIMIT` bytes. A source's JSON answer, or its saved JSON Lines, is
read by `json_value` and `json_lines` (an error names the file or URL and the line)."""
from __future__ import annotations

import json
import os
import re
import stat
import time
from pathlib import Path

from store.common.errors import ReadError
from store.common.files import write_whole

LIMIT = 1 << 30
_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")


def feed_name(*parts: str) -> str:
    """A file-name part from `parts` (`ICLR.cc/2025/Conference` → `ICLR.cc_2025_Conference`)."""
    return "-".join(_UNSAFE.sub("_", part).strip("._") or "_" for part in parts)


def folder_for(db: Path) -> Path:
    """The lists folder beside the database `db`."""
    return db.parent / "lists"


def dated(folder: Path, name: str, suffix: str, day: str | None = None) -> Path:
    return folder / f"{name}-{day or time.strftime('%Y-%m-%d', time.gmtime())}{suffix}"


def latest(folder: Path, name: str, suffix: str) -> Path | None:
    """The newest dated file of feed `name` in `folder`, if any."""
    pattern = re.compile(re.escape(name) + r"-\d{4}-\d{2}-\d{2}" + re.escape(suffix))
    try:
        names = [n for n in os.listdir(folder) if pattern.fullmatch(n)]
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ReadError(str(folder), exc.strerror or str(exc)) from None
    return folder / max(names) if names else None


def read(path: Path, limit: int = LIMIT) -> bytes:
    """The bytes of a saved file: a regular file, not a link, at most `limit` bytes; ReadError otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise ReadError(str(path), "a symbolic link: not read" if os.path.islink(path) else exc.strerror or str(exc)) from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReadError(str(path), "not a regular file: not read")
        if info.st_size > limit:
            raise ReadError(str(path), f"larger than {limit:,} bytes: not read")
        return file.read(limit + 1)


def write(path: Path, data: bytes) -> None:
    """`data` as the file `path`, whole or not at all; the folder made when missing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, data)
    except OSError as exc:
        raise ReadError(str(path), f"not saved: {exc.strerror or exc}") from None


def json_value(text: str, where: str) -> object:
    """The JSON value `text` holds; ReadError naming `where` (and the line) when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReadError(where, f"not valid JSON: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise ReadError(where, "nested too deeply to read") from None


def json_lines(body: bytes, where: str) -> tuple[list[bytes], list[dict]]:
    """A saved JSON Lines file's lines that hold an object, and those objects; ReadError naming `where`
    and the line of one that is not JSON."""
    lines, records = [], []
    for number, line in enumerate(body.decode("utf-8", "replace").split("\n"), start=1):
        if line.strip():
            try:
                record = json_value(line, where)
            except ReadError as exc:
                raise ReadError(where, exc.message, number) from None
            if isinstance(record, dict):
                lines.append(line.encode())
                records.append(record)
    return lines, records


def joined_lines(records: list[bytes]) -> bytes:
    """One JSON Lines file of `records`, a line each."""
    return b"".join(record + b"\n" for record in records)


FEED = ".feed"
"""The extension of a feed's sidecar: how to fetch it again (`remember`, `recall`), beside its dated files."""
_DATED = re.compile(r"(.+)-\d{4}-\d{2}-\d{2}\.[A-Za-z0-9]+")
SIDECAR_LIMIT = 64 << 10


def remember(folder: Path, name: str, words: list[str]) -> None:
    """Keep how feed `name` is fetched (the words of `triage fetch` that fetch it) in its sidecar in `folder`."""
    write(folder / f"{name}{FEED}", json.dumps({"fetch": words}, ensure_ascii=False).encode() + b"\n")


def recall(path: Path) -> list[str] | None:
    """The words that fetch the feed the dated list `path` is a day of (its sidecar's); None when `path` is
    not such a list or its sidecar is missing or unreadable (a list that was not fetched)."""
    found = _DATED.fullmatch(path.name)
    sidecar = path.parent / f"{found.group(1)}{FEED}" if found else None
    if sidecar is None or not os.path.lexists(sidecar):
        return None
    try:
        words = json.loads(read(sidecar, SIDECAR_LIMIT)).get("fetch")
    except (ReadError, ValueError, AttributeError):
        return None
    return words if isinstance(words, list) and words and all(isinstance(w, str) for w in words) else None
