"""`triage backup` / `triage restore`: every mark in one portable file, and that file put back.

The file is a marks file (`store.sync.marksfile`, kind "backup"): JSON Lines, one paper a line with its id,
fingerprint, marks with their times and the paper's record, readable on another machine and by a later version. A restore
merges it into the database (`store.marks.merge`: per field the later change, so nothing newer is lost), or
replaces the database's marks with it; replacing a database that holds marks must be asked for.
"""
from __future__ import annotations

import os
from pathlib import Path

from store.marks.db import TriageStore
from store.common.errors import ReadError
from store.common.files import read_regular, write_whole
from store.sync.marksfile import decode, encode_documents
from store.library.shelf import Records
from store.marks.merge import Record
from store.papers.model import Triage
from store.sync.folder import SYNC


BACKUP_LIMIT = 256 << 20
"""The largest backup read: some 700,000 papers' marks (a line is ~350 bytes); a larger file is refused
unread, as is one that is no regular file (a FIFO, /dev/zero: `store.common.files.read_regular`)."""


class NotEmpty(ReadError):
    """A restore that would replace marks the database holds, not asked to (the caller says how)."""


def backup(store: TriageStore, path: str | os.PathLike[str], force: bool = False) -> int:
    """Write every paper's marks to `path` (whole or not at all): how many papers. An existing file is
    kept unless `force` (ReadError then)."""
    target = Path(path)
    if target.is_dir():
        raise ReadError(str(target), "is a folder")
    if target.exists() and not force:
        raise ReadError(str(target), "already exists (pass --force to overwrite it)")
    docs = store.documents()
    try:
        write_whole(target, encode_documents("backup", store.device, docs, papers=store.records(marked_only=False)))
    except OSError as exc:
        raise ReadError(str(target), f"not written: {exc.strerror or exc}") from None
    return len(docs)


def read_backup(path: str | os.PathLike[str], papers: Records | None = None) -> dict[str, tuple[Record, str]]:
    """The records of a backup (or device) file, its papers' records put in `papers`; ReadError naming the file and line."""
    target = Path(path)
    try:
        data = read_regular(target, BACKUP_LIMIT, "a backup", follow=True)
    except FileNotFoundError as exc:
        raise ReadError(str(target), exc.strerror or str(exc)) from None
    return decode(str(target), data, papers)


def restore(store: TriageStore, path: str | os.PathLike[str], merge: bool = False,
            replace: bool = False) -> dict[str, tuple[Triage, Triage]]:
    """Put the marks of backup `path` into `store`: merged (`merge`), or as the only marks (`replace`,
    needed when the database holds marks); each paper whose marks changed, before and after."""
    papers: Records = {}
    records = read_backup(path, papers)
    store.keep_records(papers)
    if merge:
        return store.fold(records)
    marked = store.ids()
    if marked and not replace:
        raise NotEmpty(str(store.path), f"holds marks on {len(marked)} papers: pass --merge to merge {path} into them,"
                       " or --replace to replace them with it")
    before = {pid: store.get(pid) for pid in {*marked, *records}}
    store.replace_all(records)
    store.put_setting(SYNC, {})  # the device files seen before: read again at the next sync
    after = {pid: store.get(pid) for pid in before}
    return {pid: (before[pid], after[pid]) for pid in before if before[pid] != after[pid]}
