"""The ids of a list file's papers without its papers: what `triage set ID FILE` needs of a long
list, kept in the cache beside the list's parse entry (`store.readers.cache`), so that marking one
paper of 100,000 does not load all 100,000.

An ids entry holds, under the very key of the parse entry (the file's path, size, times and inode,
the code's version key) and behind a CRC-32, the list's sources, its warnings (the skipped records
`triage` reports), and each paper's id, fingerprint (`store.marks.db.fingerprint`: what the triage
store keeps with a state to find it again after a small edit, and all it reads of a text) and title. It is
written with the parse entry of a list parsed in memory (by the same background writer for a large one), or by the
first `ids` call that finds the list cached without one (a long list's, written as it was parsed); any doubt (another
key, a failed CRC, a damaged or missing entry, a file that is not a regular one) means None: the caller reads the list. The paper
`triage set` marks first is made alone from the parse entry (`papers_named`), to keep its record.
"""
from __future__ import annotations

import marshal
from functools import partial
from collections.abc import Callable, Sequence, Set as AbstractSet
from pathlib import Path
from typing import BinaryIO, NamedTuple

from store.papers.model import Collection, Origin, Paper
from store.readers import cache, sealed
from store.common.collector import collector_paused

from store.readers.cache import IDS_SUFFIX as SUFFIX


class Known(NamedTuple):
    """One paper as the triage store sees it: its id and, for `text`, its fingerprint (the
    store's fingerprint of a fingerprint is itself, so the store keeps the same one)."""

    id: str
    text: str
    title: str = ""
    """Its title, as far as it was known when the entry was made (what `triage set` says it marked)."""


class Ids(NamedTuple):
    """The papers of a list as `Known`s, in order, with the list's sources and warnings."""

    papers: list[Known]
    sources: list[str]
    warnings: list[str]


def known(collection: Collection) -> Ids:
    """The ids of `collection`'s papers (a long list's read from its entry: each chunk made for this pass only)."""
    from store.papers.chunked import passing
    from store.papers.model import fingerprint

    return Ids([Known(paper.id, fingerprint(paper.text), paper.title) for paper in passing(collection.papers)],
               list(collection.sources), list(collection.warnings))


def save(path: Path, key: tuple, found: Callable[[], Ids], count: int) -> None:
    """Keep the ids `found()` gives of the list file `path`, under its parse entry's `key`: by the
    cache's background writer for a long list of `count` papers (the fingerprints are worked out
    there, ~8 µs a paper), now for a short one."""
    def write(out: BinaryIO) -> None:
        made = found()
        texts = [paper.text for paper in made.papers]
        titles = [paper.title for paper in made.papers]
        data = marshal.dumps((key, (made.sources, made.warnings), [paper.id for paper in made.papers], texts, titles))
        out.write(sealed.header_of(data))
        out.write(data)

    cache.save(cache.entry_file([path], SUFFIX), write, 300 * count >= cache.BACKGROUND_FROM)


def save_beside(path: Path, key: tuple, collection: Collection) -> None:
    """The ids of a list just parsed and cached (the `beside` of `store.readers.cache.cached`), worked out
    as they are written."""
    save(path, key, lambda: known(collection), len(collection.papers))


def _decode(data: bytes, key: tuple, name: str) -> Ids | None:
    found = _columns(data, key)
    if found is None:
        return None
    (sources, warnings), ids, texts, titles = found
    with collector_paused():
        return Ids(list(map(Known, ids, texts, titles)), *cache.renamed(sources, warnings, name))


def _columns(data: bytes, key: tuple) -> tuple[tuple, list[str], list[str], list[str]] | None:
    """What an entry holds, as held: (sources, warnings), the papers' ids, fingerprints and titles; None when it was
    made under another key; ValueError for one that fails its CRC or whose columns are not as long as one another."""
    with collector_paused():
        stored_key, lists, ids, texts, titles = marshal.loads(sealed.unsealed(data))
    if stored_key != key:
        return None
    if not len(texts) == len(titles) == len(ids):
        raise ValueError("damaged ids entry")
    return lists, ids, texts, titles


def ids(paths: Sequence[str]) -> Ids | None:
    """The papers of the list files `paths` (as `read_paths` reads them: the first of the same id
    kept, the warnings of all) when every one is cached, else None. A list whose parse is cached
    without its ids gets them now (this once, at the cost of loading it)."""
    parts = []
    for name in paths:
        path = Path(name)
        try:
            key = cache.parse_key(path)
            entry = cache.entry_file([path], SUFFIX)
            found = _decode(sealed.entry_bytes(entry), key, name) if entry.exists() else _from_parse(path, key, name)
        except Exception:  # not a regular file, unreadable, truncated, damaged: the caller reads the list
            return None
        if found is None:
            return None
        cache.mark_used(entry)
        parts.append(found)
    if len(parts) == 1:
        return parts[0]
    papers: dict[str, Known] = {}
    for part in parts:
        for paper in part.papers:
            papers.setdefault(paper.id, paper)  # the first of an id stays, as in `read_paths`
    return Ids(list(papers.values()), [s for part in parts for s in part.sources], [w for part in parts for w in part.warnings])


def fingerprints(origin: Origin | None, papers: Sequence[Paper]) -> list[str] | None:
    """The fingerprints of `papers` from the ids entry of the one list file they are the very papers of (the parse
    `origin`), in their order: what `store.marks.db.TriageStore.attach` re-finds lost states by, not worked out again
    (~1 s of CPU at 100,000 papers, their texts unpacked); None when they are not, or the entry does not hold them."""
    if origin is None or len(origin.keys) != 1 or not origin.of(papers):
        return None
    key = origin.keys[0]
    entry = cache.entry_file([Path(key[1])], SUFFIX)
    try:  # (not waited for while it is written, behind a list just parsed: the caller works them out meanwhile)
        found = _columns(sealed.entry_bytes(entry), key)
    except Exception:  # missing, unreadable, truncated, damaged: worked out by the caller
        return None
    if found is None or found[1] != [paper.id for paper in papers]:
        return None
    return found[2]


def papers_named(paths: Sequence[str], wanted: AbstractSet[str],
                 read: Callable[[str], Collection] | None = None) -> list[Paper] | None:
    """The papers of the list files `paths` whose ids are `wanted` (of an id in several, the first, as `read_paths`
    keeps it), from their parse entries without reading the others' texts nor making them: what `triage set` needs
    of a long list to keep the record of a paper it marks first; None when a file's parse is not cached (its key).
    `read(name)` reads a list again should its texts entry be found damaged (`store.readers.read_path`)."""
    found: dict[str, Paper] = {}
    for name in paths:
        path = Path(name)
        try:
            entry = sealed.entry_mapped(cache.entry_file([path], cache.SUFFIX))
            part = cache.decode(entry, cache.parse_key(path), path, name, wanted - found.keys(),
                                 partial(read, name) if read is not None else None)
        except Exception:  # missing, unreadable, truncated, damaged, its file changed: the caller reads the lists
            return None
        if part is None:
            return None
        for paper in part.papers:
            found.setdefault(paper.id, paper)
    return list(found.values())


def _from_parse(path: Path, key: tuple, name: str) -> Ids | None:
    """The ids of a list whose parse entry is cached under `key`, read as `name` (kept now in an ids entry); else None."""
    collection = cache.decode(sealed.entry_mapped(cache.entry_file([path], cache.SUFFIX)), key, path, name)
    if collection is None:
        return None
    found = known(collection)
    save(path, key, lambda: found, len(found.papers))
    return found
