"""An engine's folder: built whole from papers (`build`), sealed by a manifest, and checked before it is opened
(`intact`), so a truncated or damaged folder is built again, never served.

A build writes into a folder of its own beside the final one (`….building-PID`) and renames it into place (the
one there moved aside, then removed) once the index is committed and merged, its lexicon written
(store.search.engine.lexicon) and its manifest last: `manifest.json` names the key the folder was built under
(what the caller keys it by: the list files' identity and this code's version), the number of papers, and the
size and CRC-32 of every file a search reads. A folder without one (a build that died), under another key, with
a file missing, of another size or failing its CRC, is not intact. The CRCs are read a large piece at a time: a
piece's CRC is worked out without the interpreter's lock (store.common.checksum), so a check runs on one core while the list is read on the
other (`sealed`, before the papers are there: store.readers.engine_cache's `ahead`). They are read once, not at
every open (1.6 GB at 1,000,000 papers: 3 s of the reopen's second core, search ready waiting for it): a folder whose
CRCs held is stamped (`STAMP`: each file's size, times, inode and device, the manifest's too), and a folder whose
files all still have what its stamp says has not been written since, not by a rename in place either (every write
moves a file's change time, which no program sets back): its CRCs are not read again. Any file not as stamped, or a
stamp missing or not a plain file, has them read again (and stamped anew when they hold: a cache copied elsewhere).
Files changed less than `SETTLED` before are not stamped (a write within the clock's tick after it would leave their
times as they were: the next open checks them again), so a folder just built is checked once more, at its reopen.

The writer indexes on one thread, so each segment holds rows one after another, and the index keeps each segment's
documents in row order, a merge's too (store.search.engine.documents' `new_index`: without it a merge of the
writer's, a long list over its budget, joined its segments in the order of their size); the segments are then
listed in row order: the documents are in list order, which is how tantivy breaks ties (`ordered`; ICLR×44, ~100,000
papers, is one segment; 1,000,000 papers are several, each one run of rows). A folder whose segments' rows are not
runs is not `ordered`, and its ties are asked for again (store.search.engine.engine).
"""
from __future__ import annotations

import hashlib
import json
import mmap
import os
import re
import shutil
import stat
import threading
import time
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

import tantivy

from store.common.checksum import crc32
from store.common.errors import ReadError
from store.common.files import Abandoned, read_regular, write_whole
from store.papers.chunked import passing
from store.papers.model import Paper
from store.search.engine import lexicon
from store.search.engine.documents import document, new_index

MANIFEST = "manifest.json"
MANIFEST_MOST = 1 << 20
"""The most bytes a manifest is read of (one names a folder's few dozen files)."""
STAMP = ".checked"
"""A folder's stamp: what its files were when their CRCs last held (`_stamp`); a dot file, not sealed itself."""
SETTLED = 2_000_000_000
"""Nanoseconds since a file's last change before a stamp vouches for it (file times move by the clock's tick)."""
HEAP = 128_000_000
"""The writer's memory budget in bytes (tantivy's, over its threads): the build's peak is this, not the list's size."""
_CHUNK = 8 << 20
"""Bytes read and summed at a time by `_crc`: each piece's CRC is worked out without the interpreter's lock, which
it takes again between pieces (waiting up to its switch interval, 5 ms, while a read holds it)."""
STOP_EVERY = 256
"""A build asked to stop (`fill`'s `stop`) stops within this many papers (~50 ms of indexing)."""
_LEFT: list[tantivy.IndexWriter] = []
"""The writers of builds that stopped, never dropped: dropping one waits for its threads, which finish their
segment first, holding the interpreter's lock (a second and more at 100,000 papers). They stop at a quit: the process
ends instead."""


def _crc(path: Path) -> int:
    crc = 0
    with path.open("rb", buffering=0) as source:
        size = source.seek(0, os.SEEK_END)
        source.seek(0)
        if not size:
            return crc
        # (a mapping of its own, unmapped at the end: not the heap's, which would keep the room: store.common.heap)
        with mmap.mmap(-1, min(_CHUNK, size)) as buffer, memoryview(buffer) as piece:
            while count := source.readinto(piece):
                crc = crc32(piece[:count], crc)
    return crc


def _sealed_files(folder: Path) -> list[Path]:
    """The files a manifest covers: all but itself and tantivy's own bookkeeping (its locks, the list of the files
    a writer made: `.managed.json`), which no search reads."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != MANIFEST and not p.name.startswith("."))


def fill(index: tantivy.Index, papers: Sequence[Paper], stop: threading.Event | None = None) -> None:
    """Index `papers` (in list order) into `index` (in a folder or in memory), committed and merged, and reload it.
    `Abandoned` once `stop` is set (checked every `STOP_EVERY` papers): the index is left as it is."""
    writer = index.writer(HEAP, 1)  # (one thread: each segment holds rows one after another; Python is the slower side)
    for row, paper in enumerate(passing(papers)):
        if stop is not None and row % STOP_EVERY == 0 and stop.is_set():
            _LEFT.append(writer)
            raise Abandoned("search index build stopped")
        writer.add_document(document(paper, row))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()


def build(papers: Sequence[Paper], folder: Path, key: str, stop: threading.Event | None = None) -> None:
    """Index `papers` (in list order) into `folder` under `key`, replacing whatever was there. OSError when the
    folder cannot be written (tantivy's own errors of the disk as theirs: a full disk is ENOSPC), nothing of the
    build left. `Abandoned` once `stop` is set (at a quit): the folder it was building in is left to the cache's
    clean-up, which removes it once this process is gone (store.readers.cache), and `folder` is as it was."""
    temp = folder.with_name(f"{folder.name}.building-{os.getpid()}")
    shutil.rmtree(temp, ignore_errors=True)
    try:
        _sealed(papers, temp, key, stop)
    except Abandoned:
        raise
    except BaseException as error:
        shutil.rmtree(temp, ignore_errors=True)
        if isinstance(error, ValueError) and (code := _OS_ERROR.search(str(error))):
            raise OSError(int(code[1]), f"{os.strerror(int(code[1]))}: {temp}") from error
        raise
    _placed(temp, folder, key, len(papers))


_OS_ERROR = re.compile(r"\(os error (\d+)\)")
"""How tantivy (its errors are ValueErrors) names the system's error of a file it could not write."""


def _sealed(papers: Sequence[Paper], temp: Path, key: str, stop: threading.Event | None) -> None:
    temp.mkdir(parents=True)
    index = new_index(str(temp))
    fill(index, papers, stop)
    ordered = _in_row_order(temp, index.searcher())
    lexicon.write(index.searcher(), temp)
    files = {str(p.relative_to(temp)): [p.stat().st_size, _crc(p)] for p in _sealed_files(temp)}
    (temp / MANIFEST).write_text(json.dumps({"key": key, "papers": len(papers), "ordered": ordered, "files": files}))


def _placed(temp: Path, folder: Path, key: str, papers: int) -> None:
    """The sealed build `temp` renamed into `folder`."""
    # the folder there is moved aside whole first (removing it in place races with tantivy's threads of an index
    # still open on it, which make their lock files again), then removed
    old = folder.with_name(f"{folder.name}.old-{os.getpid()}")
    shutil.rmtree(old, ignore_errors=True)
    with suppress(FileNotFoundError):
        os.replace(folder, old)
    try:
        os.replace(temp, folder)
    except OSError:  # another build (a second window) put its folder there in between: that one stands
        shutil.rmtree(temp, ignore_errors=True)
        if not intact(folder, key, papers):
            raise
    shutil.rmtree(old, ignore_errors=True)


def _in_row_order(folder: Path, searcher: tantivy.Searcher) -> bool:
    """Puts the index's segments in the order of their rows (tantivy's `meta.json` lists them in the order it numbers
    them), so that its documents are in list order, which is how tantivy breaks ties; whether they are now (not when
    a merge mixed the rows of segments)."""
    hits = searcher.search(tantivy.Query.all_query(), max(1, searcher.num_docs), order_by_field="row",
                           order=tantivy.Order.Asc).hits
    first: dict[int, int] = {}  # segment → its first row
    for k, (row, address) in enumerate(hits):
        if address.segment_ord not in first:
            first[address.segment_ord] = row
        if row != k or address.doc != row - first[address.segment_ord]:  # (so each segment's rows are one run)
            return False
    meta = json.loads((folder / "meta.json").read_text())
    meta["segments"] = [meta["segments"][ordinal] for ordinal in sorted(first, key=first.__getitem__)]
    (folder / "meta.json").write_text(json.dumps(meta))
    return True


def ordered(folder: Path) -> bool:
    """Whether an intact folder's documents are in list order (`_in_row_order`)."""
    return bool(json.loads((folder / MANIFEST).read_text()).get("ordered"))


def checked(folder: Path, key: str, papers: int) -> str | None:
    """None when `folder` holds a whole index of `papers` papers built under `key`, every file as sealed; else why
    not: "missing" (no folder), "outdated" (built under another key, or of another number of papers), "damaged"."""
    found = sealed(folder, key, papers)
    return found if isinstance(found, str) else None


def sealed(folder: Path, key: str, papers: int | None = None) -> int | str:
    """The number of papers `folder` holds a whole index of, built under `key` (and of `papers` papers, when given),
    every file as sealed; else why not, as `checked` says it."""
    try:
        if folder.is_symlink():
            return "damaged"
        manifest = json.loads(read_regular(folder / MANIFEST, MANIFEST_MOST, "an engine manifest"))
        if manifest["key"] != key or papers not in (None, manifest["papers"]):
            return "outdated"
        files = manifest["files"]
        for name, (size, _) in files.items():
            info = (folder / name).lstat()  # (a link, a FIFO or another size in a file's place: damaged, never read)
            if not stat.S_ISREG(info.st_mode) or info.st_size != size:
                return "damaged"
        if not all(name in files for name in ("meta.json", *lexicon.FILES)):
            return "damaged"
        if not _as_stamped(folder, files):
            if any(_crc(folder / name) != crc for name, (_, crc) in files.items()):
                return "damaged"
            _stamped(folder, files)
        return int(manifest["papers"])
    except (OSError, ValueError, KeyError, TypeError, ReadError):
        return "damaged" if folder.exists() else "missing"


def _stamp(folder: Path, files: dict[str, object], settled: int | None = None) -> str | None:
    """What the manifest and the `files` of `folder` are on disk now: their sizes, times (of content and of change),
    inodes and device, digested; None when one changed after `settled` (nanoseconds since the epoch)."""
    digest = hashlib.blake2b(digest_size=16)
    for name in (MANIFEST, *sorted(files)):
        info = (folder / name).lstat()
        if settled is not None and max(info.st_mtime_ns, info.st_ctime_ns) > settled:
            return None
        digest.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\0{info.st_ino}\0{info.st_dev}\n".encode())
    return digest.hexdigest()


def _as_stamped(folder: Path, files: dict[str, object]) -> bool:
    """Whether the files of `folder` are as its stamp says (a stamp that is missing or not a plain file: no)."""
    try:
        return read_regular(folder / STAMP, 64, "an engine stamp").decode() == _stamp(folder, files)
    except (OSError, ReadError, UnicodeDecodeError):
        return False


def _stamped(folder: Path, files: dict[str, object]) -> None:
    """Stamp `folder` (its CRCs just held) when its files are `SETTLED`; a folder that cannot be written is left as it
    is (checked again next time)."""
    stamp = _stamp(folder, files, time.time_ns() - SETTLED)
    if stamp is None:
        return
    with suppress(OSError):
        write_whole(folder / STAMP, stamp.encode(), links=False)


def intact(folder: Path, key: str, papers: int) -> bool:
    """Whether `folder` holds a whole index of `papers` papers built under `key`, every file as sealed (`checked`)."""
    return checked(folder, key, papers) is None
