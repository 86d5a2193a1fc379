"""Where a list's search engine folder lives (store.search.engine): in the cache folder beside its parse entry,
named by its list files (or, for papers of no file, by their digest), under the key of its papers
(store.readers.list_key) and of the search wing's code (`engine_key`). A folder opened is marked used: the cache's
clean-up removes those unused for long.

`engine_for` gives a list's engine with what the header says of it: a folder that was damaged is built again
("search index rebuilt (damaged)"); when the cache cannot be written (a full disk, a read-only or forbidden
folder) the engine is built in memory and kept nowhere ("search index not kept: disk full (…)"), and the list
still searches.

A reopened list's folder is opened beside its read (`ahead`, from the files alone: the key their read will have,
`store.readers.list_key.files_key`, its CRCs, when it is not as its stamp says, worked out on another core; `opening` does it on a thread of its own, the
app's open and `triage list -q` alike), and given the papers once they are there (`engine_for`'s `ahead`), when they
are the very papers it was opened for: else it goes as above.
"""
from __future__ import annotations

import errno
import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from store.common.files import Abandoned
from store.papers.model import Collection
from store.readers import files_of
from store.readers.cache import ENGINE_SUFFIX, code_key, entry_file, folder, has_entry, mark_used, remove_dead
from store.readers.list_key import files_key, papers_key

if TYPE_CHECKING:  # (imported when a folder is opened: `opening` does it on its thread, beside the read)
    from store.search.engine import Ahead, Engine

_REASONS = {errno.ENOSPC: "disk full", errno.EDQUOT: "disk quota exceeded", errno.EFBIG: "file too large",
            errno.EROFS: "read-only disk", errno.EACCES: "permission denied", errno.EPERM: "permission denied"}


class Opened(NamedTuple):
    """A list's engine; whether it was built now (not opened as it was); the one line the header says of it, or None."""

    engine: Engine
    built: bool
    note: str | None


def engine_key(key: str) -> str:
    """The key of the engine folder of papers keyed `key` (`store.readers.list_key`): the code of the search wing too,
    which the parse is not keyed on (`store.readers.cache.PARSING`)."""
    return json.dumps([key, code_key("search")])


def ahead(files: Sequence[str]) -> Ahead | None:
    """The engine folder of the list files `files` (`store.readers.files_of`), opened before they are read when it is
    intact and of the key their read from the parse cache will have; else None (it is found again, and built, once
    they are read: `engine_for`)."""
    from store.search.engine import Engine

    key = files_key(files)
    if key is None or not files:
        return None
    found = Engine.ahead(entry_file([Path(name) for name in files], ENGINE_SUFFIX), engine_key(key))
    return None if isinstance(found, str) else found


def opening(files: Sequence[str]) -> Callable[[], Ahead | None]:
    """The engine folder of the list files or folders `files` (`ahead`) opened on a thread of its own, while the caller
    reads them, when the cache holds their read (a reopen: a cold open's cores go to its parse); a call that waits for
    it (None: not opened so, found again and told once the papers are there: `engine_for`). Its CRCs, when they are read
    (not as stamped: store.search.engine.folder), are summed without the interpreter's lock: on the other core (~0.1 s
    of CPU at 100,000 papers)."""
    found: list[Ahead | None] = [None]
    if not files or not all(map(has_entry, files)):
        return lambda: None

    def open_it() -> None:
        try:
            found[0] = ahead(files_of(files))
        except Exception:  # noqa: BLE001 - found again (and told) once the papers are there
            pass

    opener = threading.Thread(target=open_it, name="triage engine ahead", daemon=True)
    opener.start()
    return lambda: (opener.join(), found[0])[1]


def engine_for(collection: Collection, stop: threading.Event | None = None, ahead: Ahead | None = None) -> Opened:
    """The engine of `collection`'s papers: opened from the cache when its folder there is intact and of these papers
    and code (as `ahead` has it open, when it is of these very papers), else built there first; built in memory when
    the cache cannot be written. `Abandoned` when `stop` is set while it is built (at a quit: store.search.engine.folder's
    `build`)."""
    from store.search.engine import Engine

    key = engine_key(papers_key(collection))
    if collection.sources:
        place = entry_file([Path(source) for source in collection.sources], ENGINE_SUFFIX)
    else:
        place = folder() / (hashlib.blake2b(key.encode(), digest_size=16).hexdigest() + ENGINE_SUFFIX)
    remove_dead(place.parent)  # (a build a quit left: removed by the next open, not only by a next cache write)
    if ahead is not None and (ahead.key, ahead.folder) == (key, place) \
            and (engine := ahead.engine(collection.papers)) is not None:
        mark_used(place)
        return Opened(engine, False, None)
    try:
        engine, why = Engine.opened(collection.papers, place, key, stop)
    except Abandoned:  # (an OSError, but a quit's, not the disk's)
        raise
    except OSError as error:
        reason = _REASONS.get(error.errno or 0, (error.strerror or str(error)).lower())
        return Opened(Engine.of(collection.papers), True, f"search index not kept: {reason} ({place.parent})")
    if why is None:
        mark_used(place)
    return Opened(engine, why is not None, "search index rebuilt (damaged)" if why == "damaged" else None)
