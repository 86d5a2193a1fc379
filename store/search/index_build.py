"""The index's build machinery: the words of many texts found and counted as numbers, and posting lists.

`SearchIndex` (store.search.index) is built from these: `Words` names the words of a batch of texts that
store.search.words finds and counts (`Grouped`); `Postings` lays out every word's posting list in one
array; `join_words` and `split_words` keep a vocabulary as one array (as the index cache stores it).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import count
from typing import NamedTuple, TypeVar

import numpy as np

from store.search.words import BATCH, TF_BITS, Counted, Words as Found, _Runs, counted

_T = TypeVar("_T")

THREADS = 2  # finding words in batches; the build's own thread names them


def join_words(words: Iterable[str]) -> np.ndarray:
    """`words` as one array of UTF-8 bytes, a word a line."""
    return np.frombuffer("\n".join(words).encode("utf-8", "surrogatepass"), dtype=np.uint8)

def split_words(joined: np.ndarray) -> list[str]:
    """The words `join_words` made the array of; ValueError for anything else."""
    if joined.dtype != np.uint8 or joined.ndim != 1:
        raise ValueError("words are not UTF-8 bytes")
    text = joined.tobytes().decode("utf-8", "surrogatepass")
    return text.split("\n") if text else []

class Words(Found):
    """store.search.words' `Words`, a batch's words counted and named as the index places them (`Grouped`)."""

    def count(self, runs: _Runs) -> Grouped:
        """The words `find` found, counted in each text and named."""
        return self.kept(self.counted(runs))

    def kept(self, found: Counted) -> Grouped:
        """The counted words of a batch (as a worker process sends them) named: each given its id."""
        return Grouped(self.named(found), found.runs, found.pairs, found.lengths)


class Grouped(NamedTuple):
    """A batch's words counted and named (`Words.count`, `Words.kept`): `Counted` with each word's id for its line."""

    words: np.ndarray
    """The id of each distinct word (uint32)."""
    runs: np.ndarray
    pairs: np.ndarray
    lengths: np.ndarray

    def placing(self, add: int, shift: int = 0) -> Placing:
        """The batch's postings for `Postings.placed`: each pair `>> shift` (0: with its count; `TF_BITS`: the text
        alone), `add` added (where the batch's first text is among all)."""
        return Placing(self.words, self.runs, self.pairs >> shift if shift else self.pairs, add)

    def split(self, where: np.ndarray, add: int) -> Placing:
        """For `Postings.placed`, the postings (texts alone, `add` added: it may be below 0) of the pairs `where` is
        true of."""
        ids = np.repeat(self.words, self.runs)[where]
        start = np.flatnonzero(np.diff(ids, prepend=~ids[:1]) != 0) if len(ids) else np.zeros(0, np.intp)
        return Placing(ids[start], np.diff(start, append=len(ids)), (self.texts()[where].astype(np.int64) + add).astype(np.uint32))

    def texts(self) -> np.ndarray:
        """The text of each (word, text) pair."""
        return self.pairs >> TF_BITS


class Placing(NamedTuple):
    """A batch's postings for `Postings.placed`: each word once, how many postings it has (its run) and the
    postings, a word's together, each with `add` added as it is placed (narrow values widened to uint32)."""

    words: np.ndarray
    runs: np.ndarray
    values: np.ndarray
    add: int = 0


@dataclass(slots=True)
class Named:
    """The words of a parse's batches of display texts, counted by its workers and named as they arrived
    (`store.readers.records.Counting`): what a build then only places."""

    ids: dict[str, int]
    """The `Words.ids` they were named by (a build names any other word on after them)."""
    batches: list[Grouped | None]
    """Each batch's words (`Words.kept`; None for a batch the build counts itself)."""

    def taken(self) -> list[Grouped | None]:
        """The batches, for a build to place once: the list given is emptied (whoever shares it, the parse's
        `Counting`, no longer holds them), so each can be let go of as it is placed (~40 MB at 100,000 abstracts)."""
        batches = list(self.batches)
        self.batches.clear()
        return batches


def counted_texts(texts: list[str]) -> list[Counted | None]:
    """The words of `texts`, `BATCH` texts at a time, counted as a build counts a batch of display
    texts (None for a batch whose words two share a hash: the build counts that one itself)."""
    batches = [texts[start : start + BATCH] for start in range(0, len(texts), BATCH)]
    words = Words()
    out: list[Counted | None] = []
    for batch in batches:
        runs = words.find(batch)
        out.append(counted(runs) if runs.exact else None)
        del runs  # (before the next batch's are found)
    return out

def title_postings(heads: list[str], vocabulary: dict[str, int]) -> tuple[dict[str, int], Postings]:
    """The postings of `heads` (each paper's title with its name, in order) as a build makes them, over
    `vocabulary` (word → id) with the words only they hold added (ids after the others'), and that vocabulary."""
    batches = [heads[start : start + BATCH] for start in range(0, len(heads), BATCH)]
    words = Words()
    words.ids = defaultdict(count(len(vocabulary)).__next__, vocabulary)
    found = []
    for start, batch in zip(range(0, len(heads), BATCH), batches):
        found.append(words.count(words.find(batch)).placing(start, TF_BITS))
    named = dict(words.ids)
    return named, Postings.placed(found, len(named))

def emptied(items: list[_T]) -> Iterator[_T]:
    """Each of `items` in turn, the list emptied as it goes: an item is let go of once the caller is done with it."""
    items.reverse()
    while items:
        yield items.pop()

class Postings:
    """The posting lists of all words in one array; `postings[word id]` is that word's slice."""

    def __init__(self, bounds: np.ndarray, values: np.ndarray) -> None:
        self.bounds = bounds
        """Where each word's postings start in `values` (and, last, where they end)."""
        self.values = values

    @classmethod
    def placed(cls, batches: list[Placing], words: int) -> Postings:
        """The postings of `batches` (in paper order) of `words` words. Placed by counting rather than
        sorted: no comparisons. `batches` is emptied: each batch let go of as it is placed."""
        sizes = np.zeros(words, dtype=np.intp)
        for batch in batches:
            sizes[batch.words] += batch.runs  # (each word once in a batch)
        bounds = np.concatenate(([0], np.cumsum(sizes)))
        values = np.empty(bounds[-1], dtype=np.uint32)
        filled = bounds[:-1].copy()
        for batch in emptied(batches):
            runs = batch.runs.astype(np.intp)
            at = np.repeat(filled[batch.words] - (np.cumsum(runs) - runs), runs)
            at += np.arange(len(batch.values))
            placed = batch.values.astype(np.uint32)
            placed += np.uint32(batch.add)
            values[at] = placed
            filled[batch.words] += runs
        return cls(bounds, values)

    @classmethod
    def checked(cls, bounds: np.ndarray, values: np.ndarray, words: int, end: int) -> Postings:
        """Postings as `placed` makes them, of `words` words, each value below `end`; else ValueError."""
        if bounds.dtype != np.int64 or bounds.shape != (words + 1,) or values.dtype != np.uint32 or values.ndim != 1:
            raise ValueError("postings of another shape")
        if bounds[0] != 0 or bounds[-1] != len(values) or np.any(np.diff(bounds) < 0) or (len(values) and values.max() >= end):
            raise ValueError("postings out of bounds")
        return cls(bounds, values)

    def widened(self, words: int) -> Postings:
        """These postings, of `words` words: those beyond the ones they have have none."""
        extra = words + 1 - len(self.bounds)
        return self if not extra else Postings(np.concatenate([self.bounds, np.full(extra, self.bounds[-1])]), self.values)

    def __getitem__(self, word: int) -> np.ndarray:
        return self.values[self.bounds[word] : self.bounds[word + 1]]

    def sizes(self, words: np.ndarray) -> np.ndarray:
        """How many postings each of `words` (word ids) has."""
        return self.bounds[words + 1] - self.bounds[words]

    def of(self, words: np.ndarray) -> np.ndarray:
        """The postings of each of `words` (word ids), one word's after another's: gathered at once."""
        starts = self.bounds[words]
        sizes = self.sizes(words)
        total = int(sizes.sum())
        return self.values[np.repeat(starts - np.cumsum(sizes) + sizes, sizes) + np.arange(total)]
