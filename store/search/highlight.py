"""Where a search matched, and the results it gives: highlighting and context windows.

`merge` joins spans; `context` cuts a window of a long text around its densest cluster of
matches (for the list's snippets and the detail pane); `Highlighter` finds in any text the spans
a query matched; `Hit` is one matching paper and `Hits` the ranked result, made lazily (`Hits.of`: a
paper's own hit, wherever a list shows it).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from store.search.query import WORD

if TYPE_CHECKING:
    import numpy as np

    from store.papers.model import Paper
    from store.search.query import Query

Span = tuple[int, int]
"""A [start, end) slice of a text that matched."""


def merge(spans: Iterable[Span]) -> tuple[Span, ...]:
    """`spans` sorted, with overlapping or touching spans joined."""
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return tuple((s, e) for s, e in out)

def _densest(spans: Sequence[Span], width: int) -> int:
    """The index of the span that starts the window of `width` characters holding most spans (the
    first such). `spans` are sorted and apart, as `merge` gives them, so their ends rise too and
    one pass with two indexes counts every window: linear in the spans, not quadratic."""
    best, most, last = 0, 0, 0
    for k, (start, _) in enumerate(spans):
        last = max(last, k)
        while last < len(spans) and spans[last][1] <= start + width:
            last += 1
        if last - k > most:
            best, most = k, last - k
    return best

def context(text: str, spans: Sequence[Span], width: int) -> tuple[str, tuple[Span, ...]]:
    """A window of about `width` characters of `text` around its densest cluster of `spans`
    (sorted and apart, as `merge` gives them).

    Returns the window (with '…' where text was cut; whitespace flattened) and the spans
    shifted into it. Without spans, the start of the text. Only the window's neighbourhood is
    looked at, however long the text.
    """
    start = max(0, spans[_densest(spans, width)][0] - width // 4) if spans else 0
    low = max(0, start - 15)
    flat = re.sub(r"\s", " ", text[low : start + width])  # flat[i] is text[low + i], flattened
    if start:
        space = flat.rfind(" ", 0, start - low)
        start = low + space + 1 if space >= 0 else start
    end = min(len(text), start + width - (1 if start else 0))
    if end < len(text):
        space = flat.rfind(" ", start - low, end - low)
        end = low + space if space >= 0 and low + space > start + width // 2 else end - 1
    prefix = "…" if start else ""
    window = prefix + flat[start - low : end - low] + ("…" if end < len(text) else "")
    shift = len(prefix) - start
    inside = tuple((max(s, start) + shift, min(e, end) + shift) for s, e in spans if e > start and s < end)
    return window, inside

class Highlighter:
    """Finds, in any text, the spans a query matched: its words and its literal phrases."""

    def __init__(self, words: dict[str, int], patterns: list[re.Pattern[str]]) -> None:
        self.words = words  # matched vocabulary word → how many of its letters to mark
        self.patterns = patterns

    def spans(self, text: str) -> tuple[Span, ...]:
        found: list[Span] = []
        if self.words:
            for m in WORD.finditer(text):
                mark = self.words.get(m.group())
                if mark:
                    found.append((m.start(), m.start() + min(mark, m.end() - m.start())))
        for pattern in self.patterns:
            found += [m.span() for m in pattern.finditer(text) if m.end() > m.start()]
        return merge(found)

@dataclass(frozen=True, slots=True)
class Hit:
    """One matching paper: its id, its score (higher is better) and where it matched."""

    paper: Paper
    score: float
    _highlighter: Highlighter

    @property
    def paper_id(self) -> str:
        return self.paper.id

    @property
    def title_spans(self) -> tuple[Span, ...]:
        """Matched spans of `paper.title` (computed on access)."""
        return self._highlighter.spans(self.paper.title)

    @property
    def text_spans(self) -> tuple[Span, ...]:
        """Matched spans of `paper.plain`, the display text (computed on access)."""
        return self._highlighter.spans(self.paper.plain)

    def spans(self, text: str) -> tuple[Span, ...]:
        """Matched spans of another text of the paper: its title as shown (LaTeX rendered)."""
        return self._highlighter.spans(text)

class Hits(Sequence[Hit]):
    """The ranked result of a search, best first. Hits are made when read, so a result of
    100,000 papers costs nothing until a list shows its visible rows."""

    def __init__(self, query: Query, papers: list[Paper], order: np.ndarray, scores: np.ndarray,
                 highlighter: Highlighter) -> None:
        self.query = query
        self._papers = papers
        self._order = order
        self._scores = scores
        self._highlighter = highlighter
        self._places: np.ndarray | None = None  # collection position → place in `_order` (-1: no match), made when first asked

    def __len__(self) -> int:
        return len(self._order)

    @overload
    def __getitem__(self, k: int) -> Hit: ...
    @overload
    def __getitem__(self, k: slice) -> list[Hit]: ...
    def __getitem__(self, k: int | slice) -> Hit | list[Hit]:
        if isinstance(k, slice):
            return [self._hit(i, s) for i, s in zip(self._order[k].tolist(), self._scores[k].tolist())]
        return self._hit(int(self._order[k]), float(self._scores[k]))

    def _hit(self, i: int, score: float) -> Hit:
        return Hit(self._papers[i], score, self._highlighter)

    def of(self, paper: Paper) -> Hit | None:
        """The hit of `paper` (one of the papers searched, found by its position), None when the query does
        not match it: what a row marks is always what its own paper matched, whatever place it is shown at."""
        if self._places is None:
            import numpy as np  # (here: the search has loaded it)

            places = np.full(len(self._papers), -1, dtype=np.intp)
            places[self._order] = np.arange(len(self._order))
            self._places = places
        i = paper.position
        if not 0 <= i < len(self._papers) or self._papers[i].id != paper.id or (place := int(self._places[i])) < 0:
            return None
        return self._hit(i, float(self._scores[place]))

    @property
    def positions(self) -> np.ndarray:
        """The matching papers' indices in the list searched, best first (read-only)."""
        order = self._order.view()
        order.flags.writeable = False
        return order

    @property
    def papers(self) -> list[Paper]:
        """The matching papers, best first."""
        papers = self._papers
        return [papers[i] for i in self._order.tolist()]

    @property
    def scored(self) -> list[tuple[Paper, float]]:
        """The matching papers with their scores, best first: what a command prints, no `Hit` made (a `Hit` each was
        ~1 s of `triage list -q` at 700,000 matches)."""
        papers = self._papers
        return [(papers[i], score) for i, score in zip(self._order.tolist(), self._scores.tolist())]

    @property
    def ids(self) -> list[str]:
        """The matching paper ids, best first."""
        return [paper.id for paper in self.papers]

    def __repr__(self) -> str:
        return f"<Hits {len(self)} for {self.query.text!r}>"
