"""Where a list's search engine folder lives (store.search.engine): in the cache folder beside its parse entry,
named by its list files (or, for papers of no file, by their digest), under the key its index entry has
(store.readers.index_cache: this code's version and the parse the papers are, else a digest of them)."""
from __future__ import annotations

import hashlib
from pathlib import Path

from store.papers.model import Collection
from store.readers.cache import _entry, folder
from store.readers.index_cache import _index_key
from store.search.engine import Engine

ENGINE_SUFFIX = ".engine"


def engine_for(collection: Collection) -> tuple[Engine, bool]:
    """(the engine of `collection`'s papers, whether it was built now): opened from the cache when its folder there
    is intact and of these papers and code, else built there first."""
    key = _index_key(collection)
    if collection.sources:
        place = _entry([Path(source) for source in collection.sources], ENGINE_SUFFIX)
    else:
        place = folder() / (hashlib.blake2b(key.encode(), digest_size=16).hexdigest() + ENGINE_SUFFIX)
    return Engine.opened(collection.papers, place, key)
