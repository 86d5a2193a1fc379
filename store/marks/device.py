"""What tells one database instance from its copies, for its device id (`TriageStore.device`).

A database's device id names its file in a sync folder (`store.sync.folder`): two databases must never share
one. The id is made at random with the database, and made again when the database turns out to be a
copy: found on another host, at another path, or beside another instance file. The instance file,
`triage.json.device`, is made once beside the database (a random id, never replaced): a copy of the
database file alone (a restored backup) finds none there, or another's, and a copy of the whole folder
(`cp -a`, a new laptop named like the old one) finds one whose inode is not the one the database noted.

A copy nothing on disk tells from the original (a cloned disk keeps the inodes) is found at a sync:
its device file, named after the id both claim, holds marks made under that id that this database
does not hold (`claims`). The sync says so in one line and this database takes a new id.
"""
from __future__ import annotations

import json
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from store.common.files import fsync_dir, write_durably
from store.marks.merge import SCALARS, Record, merge

SUFFIX = ".device"
ID_BYTES = 64
"""At most this much of an instance file is read (it holds 33 bytes)."""


def new_id() -> str:
    """A new device id: 8 hex digits."""
    return secrets.token_hex(4)


def known(doc: Mapping[str, Any], where: str, here: str) -> tuple[str, dict[str, Any] | None]:
    """The device id of the settings document `doc` when it was made for this database (`where`: its host
    and real path, `here`: its `instance`), else a new one; and the document to store when it is new (or
    when a database from before instance files first notes its instance)."""
    if isinstance(doc.get("id"), str) and doc["id"] and doc.get("where") == where:
        if doc.get("instance") == here:
            return doc["id"], None
        if "instance" not in doc:
            return doc["id"], {**doc, "instance": here}
    made = {"id": new_id(), "where": where, "instance": here}
    return made["id"], made


def instance(database: Path) -> str:
    """The instance of the database file `database` (its real path): the random id in its instance file
    and that file's inode, the file made when there is none; "" when there is none and none can be made
    (a database only read), or it is not a regular file (never followed through a link)."""
    path = database.with_name(database.name + SUFFIX)
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            _make(path)
            continue  # read it back: another process may have made it first
        except OSError:
            return ""
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return ""
            made = os.read(fd, ID_BYTES).decode("ascii", "replace").strip()
        except OSError:
            return ""
        finally:
            os.close(fd)
        return f"{made}:{info.st_ino}"
    return ""


def _make(path: Path) -> None:
    """Make the instance file `path` with a new random id (durably), unless it is there by now."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError:  # there by now, or cannot be made: read (or not) by the caller
        return
    try:
        write_durably(fd, secrets.token_hex(16).encode("ascii") + b"\n")
    finally:
        os.close(fd)
    fsync_dir(path.parent)


def claims(held: Mapping[str, tuple[Record, str]], mine: Mapping[str, tuple[Record, str]], device: str) -> bool:
    """Whether the records of this database's own device file (`mine`) hold a change made as `device` that
    the records it holds (`held`) neither hold (for any paper: a state moves with its abstract's fix) nor
    have replaced: another database made it under this id."""
    unheld = []
    for pid, (theirs, _) in mine.items():
        ours = _entries(held.get(pid, ({}, ""))[0])
        unheld += [entry for entry in _entries(merge(held.get(pid, ({}, ""))[0], theirs)) - ours if entry[2] == device]
    if not unheld:
        return False
    everywhere = set().union(*(_entries(record) for record, _ in held.values()))
    return any(entry not in everywhere for entry in unheld)


def _entries(record: Record) -> set[tuple[Any, ...]]:
    """Every change a record holds, as (value, time, device, what)."""
    out = {(entry[0], entry[1], entry[2], name) for name in SCALARS if (entry := record.get(name)) is not None}
    out.update((entry[0], entry[1], entry[2], f"tag {tag}") for tag, entry in record.get("tags", {}).items())
    out.update((entry[0], entry[1], entry[2], json.dumps(entry[3], sort_keys=True)) for entry in record.get("note", ()))
    return out
