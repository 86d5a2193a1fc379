"""Where a list's search engine folder lives (store.search.engine): in the cache folder beside its parse entry,
named by its list files (or, for papers of no file, by their digest), under the key of its papers
(store.readers.list_key)."""
from __future__ import annotations

import hashlib
from pathlib import Path

from store.papers.model import Collection
from store.readers.cache import ENGINE_SUFFIX, _entry, folder
from store.readers.list_key import papers_key
from store.search.engine import Engine


def engine_for(collection: Collection) -> tuple[Engine, bool]:
    """(the engine of `collection`'s papers, whether it was built now): opened from the cache when its folder there
    is intact and of these papers and code, else built there first."""
    key = papers_key(collection)
    if collection.sources:
        place = _entry([Path(source) for source in collection.sources], ENGINE_SUFFIX)
    else:
        place = folder() / (hashlib.blake2b(key.encode(), digest_size=16).hexdigest() + ENGINE_SUFFIX)
    return Engine.opened(collection.papers, place, key)
