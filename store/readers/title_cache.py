"""The titles entry of a list: each paper's title as it is shown (`store.papers.text.display`: its LaTeX and markdown
rendered, `Nearly $d$-Linear` reads `Nearly d-Linear`), kept beside a long list's parse entry (`store.readers.cache`) as
`store.readers.columns_entry` keeps columns, so that printing a long list (`triage list`: a row a paper) renders no title
again: at 100,000 papers, rendered in ~0.3 s of CPU (pylatexenc's import and first renders most of it), loaded in ~10 ms.
A title that is shown as it is (most are) is kept as ''.

It is made when first asked for (`kept_titles`: the first table of many rows of the list), not with the parse entry.
Any doubt about it means the titles are rendered again, and kept again."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from store.papers.chunked import values_of
from store.papers.model import Collection, Paper
from store.papers.text import display, title_display
from store.readers import cache, columns_entry

ROWS_FROM = 1_000
"""Printing this many rows and more asks for the list's titles entry; fewer render their own titles (a few ms)."""


def kept_titles(collection: Collection) -> Callable[[int], str] | None:
    """The title as shown of the paper at each row of `collection` (the caller asks only for them), from the titles
    entry when the papers are the very papers of a parse (`Collection.origin`) of a long list (made now when there is
    none), each in its row: no paper is made for it (a reopened list's, `store.papers.chunked`); else None (each
    rendered when asked: `shown_title`)."""
    papers = collection.papers
    found = columns_entry.kept(collection.origin, papers, cache.TITLES_SUFFIX, 1, _rendered)
    if found is None or list(values_of(papers, "position")) != list(range(len(papers))):
        return None
    column, titles = found[0], list(values_of(papers, "title"))
    return lambda row: column[row] or titles[row]


def shown_title(paper: Paper) -> str:
    """`paper`'s title as shown, rendered now (the last few remembered: `title_display`)."""
    return title_display(paper.title).plain


def _rendered(papers: Sequence[Paper]) -> list[list[str]]:
    """The titles column of `papers`: each title as shown, '' for one shown as it is (from their titles: a reopened
    list's papers are not made for it)."""
    return [["" if (plain := display(title).plain) == title else plain for title in values_of(papers, "title")]]
