"""A list's citation keys and BibTeX titles as `triage cite`, `triage export` and the app's copy and export (`c`, `x`:
tui.copying) take them: from the `.cite` entry kept beside a long list's parse entry when it holds them
(store.readers.columns_entry), else made. Imports no Textual: the command line uses it without loading the app."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from threading import Event

    from store.papers.model import Collection

CITING = ("cite",)
"""The wing of store whose code makes the `.cite` entry's columns: they are kept under it too."""


def citing(collection: Collection, make_missing: bool = True, stop: Event | None = None) -> tuple[dict[str, str], list[str] | None]:
    """The citation keys of `collection`'s papers (paper id → key, assigned over them all), and the BibTeX titles of
    them all in order when a long list keeps them beside its parse entry (made now when it has none, but not
    `make_missing`); `store.common.errors.Stopped` once `stop` is set while the keys are assigned."""
    from store.cite import citations as cite
    from store.cite.keys import citable, citation_keys
    from store.papers.chunked import ids_of
    from store.readers import cache, columns_entry

    papers = collection.papers
    by_id: dict[str, str] = {}  # (the keys of the entry, when they can be)

    def valid(columns: list[list[str]]) -> bool:
        by_id.update(citable(papers, columns[0]) or {})
        return bool(by_id)

    found = columns_entry.kept(collection.origin, papers, cache.CITE_SUFFIX, 2, cite.citing, valid, make_missing, CITING)
    if found is None:
        return citation_keys(papers, stop), None
    keys, titles = found
    return by_id or dict(zip(ids_of(papers), keys)), list(titles)
