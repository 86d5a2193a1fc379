"""The titles entry of a list: each paper's title as it is shown (`store.papers.text.display`: its LaTeX and markdown
rendered, `Nearly $d$-Linear` reads `Nearly d-Linear`), kept beside a long list's parse entry (`store.readers.cache`) as
`store.readers.columns_entry` keeps columns, so that printing a long list (`triage list`: a row a paper) renders no title
again: at 100,000 papers, rendered in ~0.3 s of CPU (pylatexenc's import and first renders most of it), loaded in ~10 ms.
A title that is shown as it is (most are) is kept as ''.

It is made when first asked for (`shown_titles`: the first table of many rows of the list), not with the parse entry.
Any doubt about it means the titles are rendered again, and kept again."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

from store.papers.model import Collection, Paper
from store.papers.text import display, title_display
from store.readers import cache, columns_entry

ROWS_FROM = 1_000
"""Printing this many rows and more asks for the list's titles entry; fewer render their own titles (a few ms)."""


def shown_titles(collection: Collection) -> Callable[[Paper], str]:
    """The title as shown of each paper of `collection` (the caller asks only for them): from the titles entry when
    the papers are the very papers of a parse (`Collection.origin`) of a long list, made now when there is none; else
    rendered when asked."""
    papers = collection.papers
    found = columns_entry.kept(collection.origin, papers, cache.TITLES_SUFFIX, 1, _rendered)
    if found is None or list(map(attrgetter("position"), papers)) != list(range(len(papers))):
        return shown_title
    column = found[0]
    return lambda paper: column[paper.position] or paper.title


def shown_title(paper: Paper) -> str:
    """`paper`'s title as shown, rendered now (the last few remembered: `title_display`)."""
    return title_display(paper.title).plain


def _rendered(papers: Sequence[Paper]) -> list[list[str]]:
    """The titles column of `papers`: each title as shown, '' for one shown as it is."""
    shown = [display(paper.title).plain for paper in papers]
    return [[plain if plain != paper.title else "" for paper, plain in zip(papers, shown)]]
