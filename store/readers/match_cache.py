"""The match entry of a list: the columns its papers are matched by across sources (`store.papers.matching`: each
paper's plain title, DOI and OpenReview id), kept beside its parse entry (`store.readers.cache`), so that a long
list opened with marks from another source (a conference's, without arXiv ids: every title of the list is looked
at) does not make them again: at 100,000 papers, made in ~0.15 s of CPU, loaded in ~25 ms (`bench/identity.py`).

It is made when first asked for (`columns`: the first open of a list with such marks; not with the parse entry, which
would cost every long list read the time, most never needing it), and kept as `store.readers.columns_entry` keeps
columns: any doubt about the entry means the columns are made again, and kept again. (A column wrong would only miss a
match: `Identities.same` checks each.)"""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from store.papers import matching
from store.papers.matching import Columns
from store.papers.model import Collection, Origin, Paper
from store.readers import cache, columns_entry, ids
from store.readers.library import HEADER as LIBRARY
from store.readers.refound import Refound


def attaching(collection: Collection) -> dict[str, Any]:
    """What `store.marks.db.TriageStore.attach` is told of `collection`'s papers besides them: where their columns are
    kept (`kept`), their fingerprints (`fingerprints`: `store.readers.ids`), whether they are the library's (`library`:
    the kept records themselves), the files they are of (`source`: a list attached again replaces its papers), and
    what the re-finds of lost marks on them found (`remembered`: `store.readers.refound`)."""
    return {"kept": partial(columns, collection.origin), "fingerprints": partial(ids.fingerprints, collection.origin),
            "library": collection.header == LIBRARY, "source": tuple(collection.sources), "remembered": Refound(collection.origin)}



def columns(origin: Origin | None, papers: Sequence[Paper]) -> Columns | None:
    """The columns of `papers`, when they are the very papers of the parse `origin` (else None: made by the caller):
    from their entry, else made now and kept."""
    found = columns_entry.kept(origin, papers, cache.MATCH_SUFFIX, len(Columns._fields), matching.columns)
    return None if found is None else Columns(*found)


def _read(entry: Path, keys: tuple[tuple, ...], count: int) -> Columns | None:
    """The columns of `count` papers read from list files at `keys` the entry file holds (`columns_entry.read`)."""
    found = columns_entry.read(entry, keys, count, len(Columns._fields))
    return None if found is None else Columns(*found)
