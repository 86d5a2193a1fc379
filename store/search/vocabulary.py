"""What a word is, and finding the words a query word matches: in the corpus's vocabulary (exactly,
as a prefix, within a few typos), among authors and keywords, and in notes and tags.

`WORD` is a word for the index and for queries alike; `name_form` is how names and keywords are
looked up; `Vocabulary` holds distinct words for prefix, suffix, substring and edit-distance lookup
(rapidfuzz); `words_matched` scores what a query word matches in one; `in_sequence` tells whether
a name holds words in order; `Notes` indexes the notes and tags of the moment for one search.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA

from store.papers.model import Triage
from store.search.query import WORD
_ACCENTS = re.compile(r"[\u0300-\u036f]")


def name_form(text: str) -> str:
    """A name or keyword as it is looked up: case-folded, accents dropped ('García' → 'garcia')."""
    folded = text.casefold()
    return folded if folded.isascii() else _ACCENTS.sub("", unicodedata.normalize("NFKD", folded))

def typos_allowed(word: str) -> int:
    """Edits a query word may be away from a vocabulary word: none below 5 letters, 2 from 9."""
    return 0 if len(word) < 5 else 1 if len(word) < 9 else 2

class Vocabulary:
    """The distinct words of the corpus (case-folded or as written), sorted for prefix lookup
    and grouped by length for edit-distance lookup."""

    def __init__(self, words: Iterable[str], ends: bool = True) -> None:
        """`ends`: whether `ending` may be asked (it keeps every word reversed too, sorted when first asked: a query's
        first word waited for them, ~10 ms of 22,000 words, when a suffix is asked for seldom)."""
        self.sorted = sorted(words)
        self._set = set(self.sorted)
        self._ends = ends
        self.by_length: defaultdict[int, list[str]] = defaultdict(list)
        for word in self.sorted:
            self.by_length[len(word)].append(word)

    def __contains__(self, word: str) -> bool:
        return word in self._set

    def starting(self, prefix: str) -> Iterable[str]:
        """Words that begin with `prefix` (the word itself included)."""
        words = self.sorted
        for k in range(bisect_left(words, prefix), len(words)):
            if not words[k].startswith(prefix):
                break
            yield words[k]

    def near(self, word: str, typos: int) -> list[tuple[str, int]]:
        """Words within `typos` edits of `word` (a swap of two letters is one edit), with the distance."""
        if not typos:
            return []
        found = []
        for length in range(max(1, len(word) - typos), len(word) + typos + 1):
            # processor=None on purpose: both sides are already case-folded (or smart-case exact).
            found += [(w, int(d)) for w, d, _ in process.extract(
                word, self.by_length.get(length, ()), scorer=OSA.distance, processor=None,
                score_cutoff=typos, limit=None) if d]
        return found

    def containing(self, part: str) -> list[str]:
        return [w for w in self.sorted if part in w]

    @cached_property
    def _reversed(self) -> list[str]:
        return sorted(w[::-1] for w in self.sorted) if self._ends else []

    def ending(self, suffix: str) -> list[str]:
        reverse = suffix[::-1]
        words = self._reversed
        found = []
        for k in range(bisect_left(words, reverse), len(words)):
            if not words[k].startswith(reverse):
                break
            found.append(words[k][::-1])
        return found

def words_matched(vocab: Vocabulary, key: str, fuzzy: bool) -> dict[str, tuple[float, int]]:
    """Words of `vocab` that `key` matches → (quality 0..1, letters to highlight): itself, words it
    begins, and (when `fuzzy`) words a few edits away."""
    found = {w: (1.0 if w == key else 0.75 + 0.2 * len(key) / len(w), len(key)) for w in vocab.starting(key)}
    if fuzzy:
        for w, distance in vocab.near(key, typos_allowed(key)):
            found.setdefault(w, (0.7 - 0.15 * (distance - 1), len(w)))
    return found

def in_sequence(tokens: list[str], spelled: list[set[str]]) -> bool:
    """Whether `tokens` hold, one after another, a word of each of `spelled` in order."""
    span = len(spelled)
    return any(all(tokens[start + k] in spelled[k] for k in range(span)) for start in range(len(tokens) - span + 1))

class Notes:
    """The words of the notes and tags in `states` (they change as you work, so they are read at
    each search rather than indexed): which papers each word is in."""

    def __init__(self, states: Mapping[str, Triage], position: Mapping[str, int]) -> None:
        where: defaultdict[str, list[int]] = defaultdict(list)
        for pid, state in states.items():
            if (state.note or state.tags) and pid in position:
                for word in set(WORD.findall(" ".join((state.note, *state.tags)).casefold())):
                    where[word].append(position[pid])
        self._where = {word: np.array(docs, dtype=np.intp) for word, docs in where.items()}
        self._vocabulary = Vocabulary(self._where, ends=False) if where else None

    def matching(self, word: str, fuzzy: bool) -> Iterator[tuple[np.ndarray, float]]:
        """(papers, match quality) for each note or tag word `word` matches (any case)."""
        if self._vocabulary is not None:
            for found, (quality, _) in words_matched(self._vocabulary, word.casefold(), fuzzy).items():
                yield self._where[found], quality
