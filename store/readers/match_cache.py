"""The match entry of a list: the columns its papers are matched by across sources (`store.papers.matching`: each
paper's plain title, DOI and OpenReview id), kept beside its parse entry (`store.readers.cache`), so that a long
list opened with marks from another source (a conference's, without arXiv ids: every title of the list is looked
at) does not make them again: at 100,000 papers, made in ~0.15 s of CPU, loaded in ~25 ms (`bench/identity.py`).

An entry holds, behind a CRC-32, the keys of the parse its papers are (`Collection.origin`: this code's version and
each list file's path, size, times and inode), their number and the columns (marshal, strings only, never code: a
column as one text, its values joined by NULs; a column without a value as None). It is made when first asked for
(`columns`: the first open of a list with such marks; not with the parse entry, which would cost every long list
read the time, most never needing it), only for a list of `KEPT_FROM` papers or more whose titles are all derived,
and written by the cache's writer. It is read only for papers that are that very parse (`Origin.of`), and only when
it is no larger than their columns can be (`_most`); it is believed only when its keys, count and columns (texts of
that many values) are what they must be: any doubt (another key, a failed CRC, a damaged or overlong entry) means
the columns are made again, and kept again. (A column wrong would only miss a match: `Identities.same` checks each.)"""
from __future__ import annotations

import marshal
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO

from store.common.collector import collector_paused
from store.common.files import read_regular
from store.papers import matching
from store.papers.matching import KEPT_FROM, Columns
from store.papers.model import Collection, Origin, Paper, any_untitled
from store.readers import cache
from store.readers.library import HEADER as LIBRARY

BEHIND_FROM = 20_000
"""An entry of this many papers and more is written by the cache's background writer."""


def attaching(collection: Collection) -> dict[str, Any]:
    """What `store.marks.db.TriageStore.attach` is told of `collection`'s papers besides them: where their columns are
    kept (`kept`), and whether they are the library's (`library`: the kept records themselves)."""
    return {"kept": partial(columns, collection.origin), "library": collection.header == LIBRARY}


def columns(origin: Origin | None, papers: Sequence[Paper]) -> Columns | None:
    """The columns of `papers`, when they are the very papers of the parse `origin` (else None: made by the caller):
    from their entry, else made now and kept."""
    if origin is None or len(papers) < KEPT_FROM or not origin.of(papers):
        return None
    entry = cache._entry([Path(key[2]) for key in origin.keys], cache.MATCH_SUFFIX)
    cache.settle(entry)  # (one being written is read once it is whole)
    try:
        found = _read(entry, origin.keys, len(papers))
    except Exception:  # missing, unreadable, truncated, damaged, overlong: made again
        found = None
    if found is not None:
        cache._used(entry)
        return found
    made = matching.columns(papers)
    if not any_untitled(papers):  # (columns of titles still to be derived are not kept)
        cache._save(entry, lambda out: _write(out, origin.keys, made), behind=len(papers) >= BEHIND_FROM)
    return made


def _write(out: BinaryIO, keys: tuple[tuple, ...], made: Columns) -> None:
    """The entry of `made` (a column as one text, its values joined by NULs: loaded in a tenth of the time of a list
    of strings); ValueError (nothing written) when a value holds a NUL (a DOI could: no title nor OpenReview id does)."""
    count = len(made.titles)
    joined = ["\0".join(column) if any(column) else None for column in made]
    if any(text is not None and text.count("\0") != count - 1 for text in joined):
        raise ValueError("a value holding a NUL")
    data = marshal.dumps((keys, count, joined))
    out.write(cache._header(data))
    out.write(data)


def _most(keys: tuple[tuple, ...], count: int) -> int:
    """The most bytes an entry of papers read from list files at `keys` can take: its columns are made of the files'
    text (a plain title may be longer than its text, by a little: a ligature or a fraction comes apart)."""
    return 4096 + 16 * count + 4 * sum(key[3] for key in keys)


def _read(entry: Path, keys: tuple[tuple, ...], count: int) -> Columns | None:
    """The columns of `count` papers read from list files at `keys` the entry file holds; None when it holds those
    of another parse; an error when it is damaged or not what `_write` writes."""
    data = read_regular(entry, _most(keys, count), "a match entry")  # (never a FIFO nor a link; larger: not read)
    with collector_paused():
        stored_keys, stored_count, stored = marshal.loads(cache._unsealed(data))
    if stored_keys != keys:
        return None
    if stored_count != count or type(stored) is not list or len(stored) != len(Columns._fields):
        raise ValueError("another count")
    made = []
    for text in stored:
        if text is not None and type(text) is not str:
            raise ValueError("a column of another kind")
        made.append([""] * count if text is None else text.split("\0"))
    if any(len(column) != count for column in made):
        raise ValueError("a column of another length")
    return Columns(*made)
