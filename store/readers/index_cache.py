"""The index entry of a list: a list's search index loads from the cache instead of being built again.

Beside its parse entry (`store.readers.cache`), a list of `INDEX_FROM` papers or more keeps the arrays
of its search index (numpy's .npz, no pickles: `SearchIndex.parts`, packed by `store.search.index_entry`) under
the version key and what pins the papers it indexes: the keys of the parse they are (`_index_key`:
papers read from the parse cache need not be hashed again), else a digest of them
(`store.search.index_made.fingerprint`). It stands for those very papers only, and is checked (zip CRCs, then
the arrays' shapes and bounds) before it is believed; any doubt means the index is built again."""
from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from store.papers.model import Collection
from store.readers.cache import INDEX_SUFFIX, _entry, _key, _save, _used, _version_key, settle

if TYPE_CHECKING:
    from store.search.index_build import Counted, Named
    from store.search.index import SearchIndex

INDEX_FROM = 1_000
"""Lists of this many papers and more keep their search index in the cache: the ICLR list (2,260
abstracts) builds its index in ~0.5 s of CPU with a peak of ~100 MB more, and loads it in ~0.1 s
(an entry of 0.6 MB); at 10,000 abstracts ~0.5 s against ~0.13 s, at 100,000 ~4.6 s (6.9 s CPU) against
~0.9 s (bench/index_cache.py); shorter lists build in a blink."""


def _index_key(collection: Collection) -> str:
    """What an index entry of `collection`'s papers is stored under: this code's version and the parse the
    papers are (`Collection.origin`: the keys of the list files read, when its papers are still the very
    ones read), else a digest of what the index is made from (`store.search.index_made.fingerprint`, which reads
    every text: 0.4 s at 100,000 papers)."""
    origin = collection.origin
    if origin is not None and origin.of(collection.papers):
        return _read_key(origin.keys)
    from store.search.index_made import fingerprint

    return json.dumps([_version_key(), fingerprint(collection.papers).hex()])


def _read_key(keys: Sequence[tuple]) -> str:
    """The index key of the papers the parse of list files at `keys` (their parse cache keys) gives."""
    return json.dumps([_version_key(), "read", [list(key[1:]) for key in keys]])


def _stored_parts(entry: Path, key: str) -> dict | None:
    """The index parts the entry file holds when it is stored under `key` (None under another); an error
    when it is missing, unreadable or damaged (`store.search.index_entry.unpacked`; how they fit together is
    `SearchIndex.from_parts`'s to check)."""
    import numpy as np

    from store.search.index_entry import unpacked

    with np.load(entry, allow_pickle=False) as stored:
        if not np.array_equal(stored["key"], np.frombuffer(key.encode(), dtype=np.uint8)):
            return None
        return unpacked({name: stored[name] for name in stored.files if name != "key"})


_ahead: dict[Path, tuple[str, Future]] = {}
"""Index entries being unpacked while their lists are read (`index_ahead`): entry file → (key, parts)."""


def index_ahead(names: Sequence[str]) -> None:
    """Start unpacking, on a thread, the index entry that the papers of the list files `names` will find
    once read (the entry of their parse, `_read_key`), when the cache holds one: that is mostly
    decompressing, which lets go of the GIL, so it overlaps the read (at 100,000 abstracts ~0.3 s of
    ~0.9 s loading the index). `search_index` takes the parts only for papers that are those very
    parses (the same key), then checks them as any others."""
    try:
        paths = [Path(name) for name in names]
        if not paths or not all(path.is_file() for path in paths):  # (a folder's files are found by the read)
            return
        keys = [_key(name, path) for name, path in zip(names, paths)]
        entry = _entry(paths, INDEX_SUFFIX)
        if not entry.is_file():
            return
    except OSError:
        return
    key, parts = _read_key(keys), Future()

    def unpack() -> None:
        try:
            parts.set_result(_stored_parts(entry, key))
        except BaseException as error:  # noqa: BLE001 - told to whoever takes them, who loads it again
            parts.set_exception(error)

    _ahead[entry] = (key, parts)
    threading.Thread(target=unpack, name="index ahead", daemon=True).start()


def _parts(entry: Path, key: str) -> dict | None:
    """The parts of the index entry file under `key`: those unpacked ahead for that key, else read now."""
    ahead = _ahead.pop(entry, None)
    if ahead is not None and ahead[0] == key:
        with suppress(Exception):  # (else read again: an error there is the caller's)
            found = ahead[1].result()
            if found is not None:
                return found
    return _stored_parts(entry, key)


def search_index(collection: Collection, bodies: Sequence[Counted | None] | Named = ()) -> SearchIndex:
    """The search index of `collection`'s papers: a long list's from the cache when it holds one
    of these very papers made by this very code, else built (and then cached, in the background);
    `bodies` as `SearchIndex` takes them."""
    from store.search.index import SearchIndex

    papers = collection.papers
    if len(papers) < INDEX_FROM or not collection.sources:
        return SearchIndex(papers, bodies)
    key = _index_key(collection)
    entry = _entry([Path(source) for source in collection.sources], INDEX_SUFFIX)
    settle(entry)  # one being written is read once it is whole (and a new one is never replaced by an older)
    try:
        parts = _parts(entry, key)
        if parts is not None:
            index = SearchIndex.from_parts(papers, parts)
            _used(entry)
            return index
    except Exception:  # missing, unreadable, truncated, damaged or from another format: build again
        pass
    index = SearchIndex(papers, bodies)
    if not index.provisional:  # (one made before its papers' titles were derived is kept once it is retitled)
        _keep(entry, key, index)
    return index


def keep(collection: Collection, index: SearchIndex) -> None:
    """Keep `index`, of `collection`'s papers, as their index entry (a long list's: see `search_index`)."""
    if len(collection.papers) >= INDEX_FROM and collection.sources:
        _keep(_entry([Path(source) for source in collection.sources], INDEX_SUFFIX), _index_key(collection), index)


def _keep(entry: Path, key: str, index: SearchIndex) -> None:
    # By a thread, whatever its size: its parts hold the phrase side, which a built index makes once
    # search is ready (`SearchIndex.literal_ready`: the writer waits for it, or makes it), and packing
    # them is ~0.5 s of CPU at 100k.
    import numpy as np  # (here: a command that does not search never loads numpy, ~100 ms)

    from store.search.index_entry import write

    stored_key = np.frombuffer(key.encode(), dtype=np.uint8)
    _save(entry, lambda out: write(out, index.parts(), key=stored_key), behind=True)
