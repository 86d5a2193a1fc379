"""Literal phrases (`"graph neural"`, `'Exact`): which papers hold one, and how often.

`Phrases` keeps the texts of an index's papers as a phrase is looked for in them (lower-cased with
single spaces, worked out once: `ready`) and counts a phrase in them: from the postings of the
words holding it when that is quicker (`counted`), else in the candidate texts the index
narrowed it to (`in_texts`). `lowered` makes those texts; `literal_pattern` is a phrase's regex.
Scoring what they find is the index's (store.search).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from store.index_build import TF_BITS, TF_MAX, Postings
from store.model import Paper, single_spaced
from store.query import Term
from store.vocabulary import WORD

_POSTING_COST = 100  # a posting read costs about as much as counting in 100 letters of text


@dataclass(slots=True, eq=False, repr=False)  # compared or shown whole, it would be huge
class Phrases:
    """The literal side of an index of `papers`: `words` (word → id) and the `body` and `title`
    postings are the index's; `lower` the lowered texts when the build made them, else None; `uneven`
    the positions of the texts whose spacing `lowered` evened out."""

    papers: list[Paper]
    words: dict[str, int]
    body: Postings
    title: Postings
    lower: list[str] | None
    uneven: np.ndarray
    _lower_heads: list[str] | None = field(default=None, init=False)
    _lowered_words: list[tuple[str, str]] | None = field(default=None, init=False)
    _letters: int = field(default=0, init=False)

    def ready(self) -> tuple[list[str], list[str]]:
        """The display texts, and the titles with names, lower-cased with single spaces, as a
        phrase is looked for in them: worked out once, when first needed (~1 s at 100,000 papers,
        which the app spends on its index thread, not on the first phrase typed)."""
        if self.lower is None:
            self.lower = lowered(self.papers, self.uneven.tolist())[0]
        if self._lower_heads is None:
            self._lower_heads = [flat(f"{p.title}\n{p.name}".lower()) for p in self.papers]
            self._letters = sum(map(len, self.lower))
        return self.lower, self._lower_heads

    def in_texts(self, term: Term, pattern: re.Pattern[str], in_body: np.ndarray,
                 in_title: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(in the title or not, times in the display text) of each paper for `term` (smart case,
        its `pattern` when cased), counted in the texts of the candidates `in_body` and `in_title`."""
        if term.case_sensitive:
            def count(texts: list[str]) -> list[int]:
                return [len(pattern.findall(text)) for text in texts]
            texts = [p.plain for p in self.papers]
            heads = None
        else:  # str.count on lower-cased text with single spaces: C speed, no regex per paper
            needle = flat(term.text.lower())

            def count(texts: list[str]) -> list[int]:
                return list(map(str.count, texts, repeat(needle, len(texts))))
            texts, heads = self.ready()
        title = np.zeros(len(self.papers))
        counts = np.zeros(len(self.papers))
        chosen = np.flatnonzero(in_title).tolist()
        every = self.papers
        title[chosen] = np.array(count([f"{every[i].title}\n{every[i].name}" for i in chosen] if heads is None
                                       else [heads[i] for i in chosen])) > 0
        chosen = np.flatnonzero(in_body).tolist()
        counts[chosen] = count(texts if len(chosen) == len(texts) else [texts[i] for i in chosen])
        return title, counts

    def counted(self, needle: str) -> tuple[np.ndarray, np.ndarray] | None:
        """(in the title or not, times in the display text) of each paper for a lower-case needle of
        ASCII word characters (`"ne`), from the postings of the words holding it rather than by
        counting in every text; None for another needle, or when those words occur so often that
        counting in the texts is quicker (a single letter).

        Exact: such a needle occurs only inside words (their lower-cased letters: lower-casing is
        letter by letter and never makes a word character of another), so a text holds it as often
        as the sum, over its words, of the word's count times the needle's count in the word. Where
        a word's count reached the postings' cap the text is counted as before."""
        if not (needle.isascii() and WORD.fullmatch(needle) and needle == needle.lower()):
            return None
        lower, _ = self.ready()
        found = [(word, low.count(needle)) for word, low in self._lower_words() if needle in low]
        ids = np.array([self.words[word] for word, _ in found], dtype=np.intp)
        starts, ends = self.body.bounds[ids], self.body.bounds[ids + 1]
        sizes = ends - starts
        if int(sizes.sum()) * _POSTING_COST > self._letters:
            return None
        postings = self.body.values[np.repeat(starts - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))]
        docs, tf = postings >> TF_BITS, postings & TF_MAX
        times = np.repeat(np.array([n for _, n in found], dtype=np.float64), sizes)
        counts = np.bincount(docs, weights=tf * times, minlength=len(self.papers)).astype(np.float64)
        capped = np.unique(docs[tf == TF_MAX]).tolist()
        counts[capped] = [lower[i].count(needle) for i in capped]
        title = np.zeros(len(self.papers), dtype=bool)
        for word in ids.tolist():
            title[self.title[word]] = True
        return title.astype(np.float64), counts

    def _lower_words(self) -> list[tuple[str, str]]:
        """Each vocabulary word as written and lower-cased (worked out once)."""
        if self._lowered_words is None:
            self._lowered_words = [(word, word.lower()) for word in self.words]
        return self._lowered_words


def lowered(papers: Iterable[Paper], uneven: Iterable[int] | None = None) -> tuple[list[str], list[int]]:
    """The display texts lower-cased with single spaces, as literal matching looks in them, and
    the positions of those whose spacing had to be evened out. Given `uneven`, the positions
    an earlier call on these same papers found, only those texts are looked at (telling the
    others apart costs more than lower-casing them all)."""
    lower = [p.plain.lower() for p in papers]
    found = []
    for k in range(len(lower)) if uneven is None else uneven:
        spaced = flat(lower[k])
        if spaced is not lower[k]:  # flat gives back the very text when it has nothing to do
            lower[k] = spaced
            found.append(k)
    return lower, found


def flat(text: str) -> str:
    """`text` with each run of whitespace made one space (the very text when it has them already)."""
    return text if single_spaced(text) else " ".join(text.split())


def literal_pattern(term: Term) -> re.Pattern[str]:
    """The literal text of a phrase or 'exact term as a regex; any run of spaces matches any."""
    body = r"\s+".join(re.escape(part) for part in term.text.split())
    return re.compile(body, 0 if term.case_sensitive else re.IGNORECASE)
