"""Where a list's search engine folder lives (store.search.engine): in the cache folder beside its parse entry,
named by its list files (or, for papers of no file, by their digest), under the key of its papers
(store.readers.list_key). A folder opened is marked used: the cache's clean-up removes those unused for long.

`engine_for` gives a list's engine with what the header says of it: a folder that was damaged is built again
("search index rebuilt (damaged)"); when the cache cannot be written (a full disk, a read-only or forbidden
folder) the engine is built in memory and kept nowhere ("search index not kept: disk full (…)"), and the list
still searches.
"""
from __future__ import annotations

import errno
import hashlib
import threading
from pathlib import Path
from typing import NamedTuple

from store.common.files import Abandoned
from store.papers.model import Collection
from store.readers.cache import ENGINE_SUFFIX, _entry, _used, folder
from store.readers.list_key import papers_key
from store.search.engine import Engine

_REASONS = {errno.ENOSPC: "disk full", errno.EDQUOT: "disk quota exceeded", errno.EFBIG: "file too large",
            errno.EROFS: "read-only disk", errno.EACCES: "permission denied", errno.EPERM: "permission denied"}


class Opened(NamedTuple):
    """A list's engine; whether it was built now (not opened as it was); the one line the header says of it, or None."""

    engine: Engine
    built: bool
    note: str | None


def engine_for(collection: Collection, stop: threading.Event | None = None) -> Opened:
    """The engine of `collection`'s papers: opened from the cache when its folder there is intact and of these papers
    and code, else built there first; built in memory when the cache cannot be written. `Abandoned` when `stop` is set
    while it is built (at a quit: store.search.engine.folder's `build`)."""
    key = papers_key(collection)
    if collection.sources:
        place = _entry([Path(source) for source in collection.sources], ENGINE_SUFFIX)
    else:
        place = folder() / (hashlib.blake2b(key.encode(), digest_size=16).hexdigest() + ENGINE_SUFFIX)
    try:
        engine, why = Engine.opened(collection.papers, place, key, stop)
    except Abandoned:  # (an OSError, but a quit's, not the disk's)
        raise
    except OSError as error:
        reason = _REASONS.get(error.errno or 0, (error.strerror or str(error)).lower())
        return Opened(Engine.of(collection.papers), True, f"search index not kept: {reason} ({place.parent})")
    if why is None:
        _used(place)
    return Opened(engine, why is not None, "search index rebuilt (damaged)" if why == "damaged" else None)
