"""The cache of lists: a list file read once opens again without being parsed while it is unchanged;
and how any cache entry is written (whole, now or in the background, held until search is ready).

One cache file per list (named by a hash of its absolute path) in `$TRIAGE_CACHE`, else the
user cache folder, holds the parsed `Collection` (marshal, field by field, each column a slice of a chunk of papers at a
time, laid chunk after chunk: plain values only, never code; mapped when it is read, a slice unmarshalled when its
papers are made) and the key it was made under: the file's absolute path (not the path as given: a list reached by another
path, relative, absolute or through a link, is the same parse, its papers and warnings told the name it is read under
now, `renamed`), size, mtime, ctime and inode, and a version key covering the source of the wings that parse
(`PARSING`: not that of the marks, sync, citations, search engine or ranking, whose own entries name their code,
`code_key`), the Python version and the versions
of the libraries that shape parsing, behind a CRC-32 of all that. Any difference, any
unreadable, malformed or damaged cache file (one that fails its CRC), means the list is parsed
again; a cache that cannot be written is simply not written.

An entry holds no abstract: they are in its texts entry (`store.readers.texts_entry`), written with it, which a
reopened list reads a chunk at a time when a paper's text is asked for; nor any display text but as a paper keeps
it (`store.papers.model.Paper.plain`: a patch over its text where the two differ).
An entry is written whole or not at all (a temporary file renamed over it): a long list's as it is parsed, none of its
papers kept (`STREAM_FROM`, `store.readers.entry_writer`: the list is then read from its entry), a shorter one's from
its papers, by a thread while the caller goes on when it is large (the app gives up at quit those not written in a
moment: `abandon`). Entries not used for `KEEP_DAYS`, and the temporary files of
writers that died before renaming theirs (`remove_dead`), are removed when
a new entry is written (dead writers also when a list's engine is opened).

Beside the parse entry, a list keeps its first papers whole, which a long list shows at once (`head`),
and a list its search engine's folder (`store.readers.engine_cache`), its papers' ids without the papers,
for `triage set` (`store.readers.ids`, which also has a few papers of a parse entry made without the others), the
features For you ranks by (`store.interest.features_cache`), what its papers are matched by across sources
(`store.readers.match_cache`), their citation keys and BibTeX titles (`store.readers.columns_entry`), their titles as
shown (`store.readers.title_cache`), and which marks of other lists' papers are not theirs (`store.readers.refound`)."""
from __future__ import annotations

import hashlib
import marshal
import mmap
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence, Set as AbstractSet
from contextlib import ExitStack, contextmanager, suppress
from contextvars import ContextVar
from functools import cache, partial
from pathlib import Path
from typing import BinaryIO

from store.common import heap
from store.common.versions import version
from store.common.files import (Abandoned, abandon as abandon_writes, abandonable, abandoned, cache_folder as folder,
                                remove_dead_writers, replace_unless_abandoned)
from store.papers.chunked import SIZE
from store.papers.model import Collection, Origin, Paper, built, kept_plain
from store.papers.rows import Lookup
from store.readers import texts_entry
from store.readers.sealed import check_ahead, entry_bytes, header_of, mapped, unsealed
from store.readers.entry_papers import FIELDS, chunked, picked
from store.readers.entry_writer import Stream, Writer
from store.common.collector import collector_paused
from store.common.sliced import Column, joined, taken
from store.readers.records import within
from store.readers.uniques import Unstreamable, streaming

SUFFIX = ".parse"
ENGINE_SUFFIX = ".engine"
"""The search engine folder of a list (`store.readers.engine_cache`): a folder, removed whole when unused for long."""
RETIRED_SUFFIX = ".index"
"""The entries of the search index before the engine: never read, removed when unused for long."""
IDS_SUFFIX = ".ids"
"""The ids entry of a list (`store.readers.ids`), written with its parse entry."""
TEXTS_SUFFIX = ".texts"
"""The texts entry of a list (`store.readers.texts_entry`), written with its parse entry."""
HEAD_SUFFIX = ".head"
"""The head entry of a list (`head`), written with its parse entry."""
FEATURES_SUFFIX = ".features"
"""The features entry of a long list (`store.interest.features_cache`), written when For you or more like this needs them."""
MATCH_SUFFIX = ".match"
"""The match entry of a long list (`store.readers.match_cache`), written when first needed."""
CITE_SUFFIX = ".cite"
"""The citation keys and BibTeX titles of a long list (`store.readers.columns_entry`), written when first exported."""
TITLES_SUFFIX = ".titles"
"""The titles as shown of a long list (`store.readers.title_cache`), written when a table of it is first printed."""
REFOUND_SUFFIX = ".refound"
"""What the re-finds of lost marks on a list found (`store.readers.refound`), written when marks of other lists were
looked for in it."""
KEYS_SUFFIX = ".keys"
"""The keys cache of a records file beside a database (`store.library.keys_cache`, which names its entries so): one the
clean-up of old entries and dead writers knows too."""
HEAD_CHARACTERS = 128 << 10
"""A head entry holds the first papers whose texts add up to this many characters (as many as a head
parse of the file's first part holds: `store.readers.quick.HEAD_BYTES`), and at least one."""
KEEP_DAYS = 30
_DEAD_WRITERS = re.compile(r"\.(?:[0-9a-f]{32}\.(?:parse|texts|index|ids|head|features|match|cite|titles|refound|keys)\.)?[a-z0-9_]{8}\.tmp"
                           r"|[0-9a-f]{32}\.engine\.(?:building|old)-(?P<pid>\d+)")
"""What writers leave in the cache folder until they are done (`remove_dead`; nothing else in it is touched): the
temporary files `_store` makes (the entry's name, then mkstemp's 8 random characters; before those were named, just
the random characters), and the folders an engine's build makes beside its folder (`store.search.engine.folder`: a
quit while it builds leaves one)."""
STREAM_FROM = 5 * SIZE
"""A parse of this many papers and more is written to its entries as it is made, and none of its papers kept
(`store.readers.entry_writer`): the list is then read from its entry, as a reopened one is (a shorter one's papers are
kept as parsed, and its entries written from them)."""
BACKGROUND_FROM = 16 << 20
"""Entries of this many bytes and more are written in the background (for a parse entry: of this
many bytes of abstracts, which it finds in the list file; 100,000 abstracts are about 150 MB: a
good part of a second)."""
_writers: list[tuple[Path, threading.Thread]] = []
"""The entries being written in the background, and their writers."""
_SHAPING_LIBRARIES = ("pylatexenc", "bibtexparser", "charset-normalizer", "ahocorasick-rs")


PARSING = ("common", "papers", "readers")
"""The wings of store a parse is made by: readers and the wings it may import (store/__init__.py's drawing) but search,
which readers imports only to keep a list's engine folder beside its parse (`store.readers.engine_cache`, keyed on
search's code too): their code alone can change what a list file parses to. The code of the other wings keys only
what it makes (`code_key`): a change to the marks, sync, citations or the search engine keeps every list's parse (a
million papers parse again in minutes)."""


@cache
def code_key(*wings: str) -> str:
    """A digest of the code of the wings `wings` of store (their sources, with the Python version and the libraries that
    shape parsing): it changes whenever that code could make something else."""
    digest = hashlib.blake2b(sys.version.encode(), digest_size=12)  # (the entries' format is in the source)
    for library in _SHAPING_LIBRARIES:
        found = version(library)
        digest.update((library if found is None else f"{library} {found}").encode())
    root = Path(__file__).resolve().parent.parent
    for wing in wings:
        for source in sorted((root / wing).rglob("*.py")):
            digest.update(source.relative_to(root).as_posix().encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def version_key() -> str:
    """Changes whenever the code that parses could give a different result (that of the wings `PARSING`)."""
    return code_key(*PARSING)


def _pin(info: os.stat_result) -> tuple[int, int, int, int]:
    """What of a file's status pins its content: any write changes its ctime (and a new file has another inode)."""
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def pins(paths: Sequence[str]) -> tuple[tuple[int, int, int, int] | None, ...]:
    """What pins the content of each of `paths` now (None: not there, or not to be looked at): a file written
    since (an edit, a fetch appending to it, a file replaced whole) has other pins. A status each, no read."""
    found: list[tuple[int, int, int, int] | None] = []
    for path in paths:
        try:
            found.append(_pin(os.stat(path)))
        except (OSError, ValueError):
            found.append(None)
    return tuple(found)


def parse_key(path: Path) -> tuple:
    """What must be unchanged for a cached parse to stand (the version of the code, the file's absolute path and what
    pins its content: `_pin`); OSError for a file that is not a regular one (a pipe, a device), which is never cached.
    (The path as given was part of it: a list opened as `arxiv.json`, then as `~/lists/arxiv.json`, was parsed again,
    ~15 minutes at 2,700,000 papers, and so was every entry kept beside it.)"""
    absolute = str(path.resolve())
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise OSError(f"{absolute} is not a regular file")
    return (version_key(), absolute, *_pin(info))


def renamed(sources: Sequence[str], warnings: Sequence[str], name: str) -> tuple[list[str], list[str]]:
    """The sources and warnings of one list file's entry made when it was read as another name, as read as `name`:
    the name each warning begins with too (`file:line: skipped …`)."""
    if len(sources) != 1 or sources[0] == name:
        return list(sources), list(warnings)
    was = sources[0]
    return [name], [name + warning[len(was):] if warning.startswith(was) else warning for warning in warnings]


def entry_file(paths: Sequence[Path], suffix: str) -> Path:
    """The cache file of what was read from `paths` (one list file, for a parse entry)."""
    named = "\n".join(str(path.resolve()) for path in paths)
    return folder() / (hashlib.blake2b(named.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest() + suffix)


def decode(data: bytes | mmap.mmap, key: tuple, path: Path, name: str, wanted: AbstractSet[str] | None = None,
            parse: Callable[[], Collection] | None = None, checked: bool = False) -> Collection | None:
    """The collection an entry holds, read as `name` (`renamed`; its texts left in its texts entry,
    `store.readers.texts_entry`: read again by `parse` should that be found damaged), or None when it is another key's;
    ValueError (or another error) when it or its texts entry is damaged. Its columns are read from `data` where they are
    (an entry mapped: `store.readers.sealed.mapped`, which says whether its CRC held already: `checked`). Its papers are
    made a chunk at a time when asked for (`store.papers.chunked`); with `wanted`, of its papers only those whose ids are
    `wanted`, made now."""
    payload = unsealed(data, checked)
    size = int.from_bytes(payload[-8:], "big")  # (the directory's, laid after the columns' slices: `entry_writer`)
    blob = payload[: -8 - size]
    with collector_paused():
        stored_key, meta, count, columns, same, table, ends, lookups = marshal.loads(payload[-8 - size : -8])
        if stored_key != key:
            return None
        columns = {name: (taken(column[0], blob), taken(column[1], blob)[0]) if type(column) is tuple else taken(column, blob)
                   for name, column in columns.items()}
        lookups = {name: Lookup(*(view.cast("I") for view in taken(places, blob))) for name, places in lookups.items()}
        ends = {name: taken(places, blob) for name, places in ends.items()}
        plains = columns.pop("plain")
        header, venue, year, stored, warnings = meta
        sources, warnings = renamed(stored, warnings, name)
        if len(stored) == 1 and same.get("source") == stored[0]:
            same["source"] = name
        let_go = partial(data.madvise, mmap.MADV_DONTNEED) if isinstance(data, mmap.mmap) else lambda: None
        column = columns.pop("id", None)
        ids = [same["id"]] * count if column is None else joined(column) if type(column) is tuple else Column(column, count, let_go)
        side = entry_file([path], TEXTS_SUFFIX)
        chunks, pairs = texts_entry.opened(side, table, name, ids, parse, (entry_file([path], SUFFIX), side))
    if len(ids) != count or any(len(lookup.rows) != count for lookup in lookups.values()):
        raise ValueError("damaged cache entry")
    let_go()  # (its pages read for the CRC are the system's cache again, not this process's memory)
    if wanted is None:
        papers: Sequence[Paper] = chunked(ids, columns, ends, same, chunks, pairs, plains, lookups, let_go)
    else:
        papers = picked(ids, wanted, columns, same, chunks, pairs, plains)
    return Collection(papers, header, venue, year, sources, warnings, ids=ids if wanted is None else None)


def _write_head(key: tuple, collection: Collection, out: BinaryIO) -> None:
    """The head entry of `collection` (read from a list file at `key`): its first papers whole, field by field."""
    count, size = 0, 0
    for paper in collection.papers:
        size += len(paper.text)
        if count and size > HEAD_CHARACTERS:
            break
        count += 1
    first = collection.papers[:count]
    values = [[kept_plain(paper) if name == "plain" else getattr(paper, name) for paper in first] for name in FIELDS]
    data = marshal.dumps((key, (collection.header, collection.venue, collection.year), values))
    out.write(header_of(data))
    out.write(data)


def head(name: str) -> Collection | None:
    """The first papers of the list file `name` as its parse entry has them, from its head entry: what a long
    cached list shows at once, without parsing any of it (nor loading what a parse needs: ~80 ms). None when
    the cache holds no head entry of this very file (its key), or a damaged one."""
    path = Path(name)
    try:
        key = parse_key(path)
        payload = unsealed(entry_bytes(entry_file([path], HEAD_SUFFIX)))
        with collector_paused():
            stored_key, (header, venue, year), values = marshal.loads(payload)
            if stored_key != key:
                return None
            values[FIELDS.index("source")] = [name] * len(values[0])  # (read as `name` now: `renamed`)
            papers = built(values)
        if not papers or len(values) != len(FIELDS) or any(len(column) != len(papers) for column in values):
            return None
    except Exception:  # missing, unreadable, truncated, from another format: the head is parsed
        return None
    return Collection(papers, header, venue, year, [name], [])


@contextmanager
def _storing(entry: Path) -> Iterator[BinaryIO]:
    """A temporary file beside `entry`, written within the block, that becomes `entry` when the block ends: whole or not
    at all (removed when the block raises, and at quit: `abandon`); then entries unused for long and dead writers'
    temporary files are removed."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=entry.parent, prefix=f".{entry.name}.", suffix=".tmp")
    try:
        with abandonable(temp):  # (given up at quit: `abandon`)
            with os.fdopen(fd, "wb") as out:
                yield out
            replace_unless_abandoned(temp, entry)
    except BaseException:
        with suppress(FileNotFoundError):  # (removed by `abandon`)
            os.unlink(temp)
        raise
    since = time.time() - KEEP_DAYS * 86400
    for other in entry.parent.iterdir():
        if other.suffix in (SUFFIX, TEXTS_SUFFIX, ENGINE_SUFFIX, RETIRED_SUFFIX, IDS_SUFFIX, HEAD_SUFFIX, FEATURES_SUFFIX,
                            MATCH_SUFFIX, CITE_SUFFIX, TITLES_SUFFIX, REFOUND_SUFFIX, KEYS_SUFFIX) \
                and other != entry:
            try:
                info = other.lstat()  # (a link is removed, never followed)
                if info.st_mtime < since:
                    if stat.S_ISDIR(info.st_mode):  # an engine folder (its files are its own: `store.search.engine.folder`)
                        shutil.rmtree(other)
                    else:
                        other.unlink()
            except OSError:  # gone meanwhile (another process cleaning up), or not ours to remove
                pass
    remove_dead(entry.parent)


def _store(entry: Path, write: Callable[[BinaryIO], object]) -> None:
    """Make `entry` what `write` writes to a file (`_storing`)."""
    with _storing(entry) as out:
        write(out)


def remove_dead(folder: Path) -> None:
    """Remove from the cache folder `folder` what writers that died left there (`_DEAD_WRITERS`): when an entry is
    written, and when a list's engine is opened (`store.readers.engine_cache`: a build a quit left goes then, not only
    at the next write)."""
    remove_dead_writers(folder, _DEAD_WRITERS)


def _store_quietly(entry: Path, write: Callable[[BinaryIO], object]) -> None:
    try:
        _store(entry, write)
    except (OSError, ValueError):  # a read-only or full cache folder: the cache is only a shortcut
        pass


def save(entry: Path, write: Callable[[BinaryIO], object], behind: bool) -> None:
    """Store `entry` now, or (`behind`: a large one) by a thread while the caller goes on (once the
    `held` block it is made in ends); never fail."""
    if not behind:
        _store_quietly(entry, write)
    elif (holding := _HELD.get()) is not None:
        holding.add(entry, write)
    else:
        _write_behind((entry, write))


def _write_behind(*entries: tuple[Path, Callable[[BinaryIO], object]]) -> None:
    """Store `entries` on a thread of their own, one after another: making an entry of 100,000 papers holds
    50-60 MB more for a moment, and a long list's three made at once were ~40 MB more than one at a time."""
    def store_each() -> None:
        for entry, write in entries:
            if abandoned():
                return
            _store_quietly(entry, write)
            heap.give_back()  # what making it freed, before the next is made (glibc would keep it: `store.common.heap`)

    # (never a daemon, though a daemon thread starts it: the interpreter waits for it before it exits)
    writer = threading.Thread(target=store_each, name="cache writer", daemon=False)
    writer.start()
    _writers.extend((entry, writer) for entry, _ in entries)


class Held:
    """Entries to be written in the background, held back until `release` (see `held`)."""

    def __init__(self) -> None:
        self._entries: list[tuple[Path, Callable[[BinaryIO], object]]] | None = []
        self._lock = threading.Lock()

    def add(self, entry: Path, write: Callable[[BinaryIO], object]) -> None:
        with self._lock:
            if self._entries is not None:
                self._entries.append((entry, write))
                return
        _write_behind((entry, write))

    def release(self) -> None:
        """Start writing the entries held (from any thread; once)."""
        with self._lock:
            entries, self._entries = self._entries or [], None
        if entries:
            _write_behind(*entries)


_HELD: ContextVar[Held | None] = ContextVar("held", default=None)


@contextmanager
def held() -> Iterator[Held]:
    """Within the block, the entries this thread has written in the background are only started when
    it ends, or when the `Held` it gives is released (by any thread): a long list's open has the cores
    for its index first, then writes its parse entry (at 100,000 abstracts, an index build beside the
    writers of a fresh parse took 8.0 s, one with none running 6.7 s)."""
    with within(_HELD, Held()) as holding:
        try:
            yield holding
        finally:
            holding.release()


def mark_used(entry: Path) -> None:
    """Mark the entry `entry` (a file, or an engine's folder) used now: the clean-up of entries unused for `KEEP_DAYS`
    keeps it."""
    try:
        os.utime(entry)  # recently used: kept by the clean-up of old entries
    except OSError:
        pass


def check_entry_ahead(name: str) -> None:
    """Have the CRC of the parse entry of the list file `name` worked out now, on a thread of its own, as reading it
    first does (`store.readers.sealed.check_ahead`): called as a cached list opens, before its first frame."""
    check_ahead(entry_file([Path(name)], SUFFIX))


def has_entry(name: str) -> bool:
    """Whether the cache has a parse entry for the list file `name` newer than the file: a guess, for
    preparing what a parse needs, of whether reading it will parse (reading it checks the entry's key)."""
    path = Path(name)
    try:
        return entry_file([path], SUFFIX).stat().st_mtime_ns >= path.stat().st_mtime_ns
    except OSError:
        return False


def settle(entry: Path | None = None) -> None:
    """Wait until the entries being written in the background are written (or given up): all, or `entry`."""
    for writing in [writing for writing in _writers if entry in (None, writing[0])]:
        writing[1].join()
        with suppress(ValueError):  # (another thread's settle removed it meanwhile)
            _writers.remove(writing)


def abandon(grace: float) -> bool:
    """At quit: the entries being written in the background that are not written within `grace` seconds are
    given up (none half-written; each is made again when its list is next read). Whether any was: the
    interpreter would wait for its writer, so the caller ends the process itself (`os._exit`)."""
    deadline = time.monotonic() + grace
    for _, writer in list(_writers):
        writer.join(max(0.0, deadline - time.monotonic()))
    abandon_writes()
    return any(writer.is_alive() for _, writer in _writers)


def cached(name: str, path: Path, parse: Callable[[], Collection],
           beside: Callable[[Path, tuple, Collection], None]) -> Collection:
    """The collection of the list file `path` (given as `name`): from the cache when it holds this
    unchanged file, else `parse()`, which is then cached if the file did not change meanwhile, and
    `beside(path, key, collection)` keeps what goes beside its entry (its ids, `store.readers.ids`).

    A long list's papers are written to its entries as `parse()` makes them (`store.readers.entry_writer.Stream`),
    and the collection is read from its entry; should that fail midway (a full disk, a record adding to a paper
    written already: `store.readers.uniques.Unstreamable`), the list is parsed again in memory. A shorter list's large
    entry is written by a thread while the caller goes on with the collection; the interpreter waits for it before it
    exits. (A long list's ids entry is made when first asked for: `store.readers.ids`.)"""
    # An entry being written is read once it is whole; and a parse forks its worker processes
    # only while no other thread runs (see records.analysed).
    settle()
    try:
        key = parse_key(path)
    except OSError:
        return parse()
    entry = entry_file([path], SUFFIX)
    found = _decoded(entry, key, path, name, parse)
    if found is not None:
        mark_used(entry)
        mark_used(entry_file([path], TEXTS_SUFFIX))  # (read from while the list is open: kept as long as its parse entry)
        return found
    try:
        with ExitStack() as entries:  # (each entry made whole as the block ends, or removed: `_storing`)
            def opened() -> tuple[BinaryIO, BinaryIO]:
                with ExitStack() as both:  # (both on `entries`, or neither)
                    files = (both.enter_context(_storing(entry)),
                             both.enter_context(_storing(entry_file([path], TEXTS_SUFFIX))))
                    entries.enter_context(both.pop_all())
                return files

            stream = Stream(key, STREAM_FROM, opened)
            with streaming(stream):
                collection = parse()
            streamed = stream.finish(collection)
    except Abandoned:  # (a quit: the parse ends)
        raise
    except (Unstreamable, OSError):  # (a full disk, a record adding to a paper written): read in memory
        collection, streamed = parse(), False
    if streamed:
        head = Collection(stream.writer.first, collection.header, collection.venue, collection.year)
        _store_quietly(entry_file([path], HEAD_SUFFIX), partial(_write_head, key, head))
        del stream, head, collection
        heap.give_back()  # (what the parse made and let go, returned before the list is read and indexed)
        found = _decoded(entry, key, path, name, parse)
        if found is not None:
            with suppress(OSError):
                if parse_key(path) != key:  # (changed while it was parsed: as read, but its entry never read again)
                    found.origin = None
            return found
        collection = parse()
    try:
        if parse_key(path) != key:
            return collection
    except OSError:
        return collection
    collection.origin = Origin((key,), tuple(collection.papers))  # the file did not change while parsed

    def write(out: BinaryIO) -> None:
        with _storing(entry_file([path], TEXTS_SUFFIX)) as texts:
            Writer(key, out, texts).finish(collection, collection.papers)
        _store_quietly(entry_file([path], HEAD_SUFFIX), partial(_write_head, key, collection))  # (before it is whole)

    behind = sum(map(len, (paper.text for paper in collection.papers))) >= BACKGROUND_FROM
    save(entry, write, behind)
    beside(path, key, collection)
    return collection


def _decoded(entry: Path, key: tuple, path: Path, name: str, parse: Callable[[], Collection]) -> Collection | None:
    """The collection the parse entry `entry` holds of the list file `path` at `key` (read as `name`), its papers
    made as they are asked for; None when it holds another key's, or cannot be read (missing, damaged...)."""
    try:
        data, checked = mapped(entry)
        found = decode(data, key, path, name, parse=parse, checked=checked)
    except Exception:  # missing, unreadable, truncated, from another format, its file changed: parse again
        return None
    if found is not None:
        found.origin = Origin((key,), found.papers)  # (made as they are asked for, never other objects)
    return found
