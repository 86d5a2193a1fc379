"""The index's build machinery: the words of many texts found and counted as numbers, and posting lists.

`SearchIndex` (store.search.index) is built from these: `Words` finds the words of a batch of texts
with numpy (hashing runs of word characters, grouping equal ones by one sort, checking them letter
by letter) and names each distinct word once; `Postings` lays out every word's posting list in one
array; `join_words` and `split_words` keep a vocabulary as one array (as the index cache stores it).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import count
from typing import NamedTuple, TypeVar

import numpy as np

from store.search.vocabulary import WORD

_T = TypeVar("_T")

TF_BITS = 4  # a posting is (paper index << 4) | min(term frequency, 15)
TF_MAX = (1 << TF_BITS) - 1
SLICE = 1 << 17
"""The most characters of a batch whose words `Words` hashes at once: ~3 MB of arrays (a batch of 1,024
abstracts whole, ~1.5 million characters, was ~60 MB: a parse's worker process held it all)."""
BATCH = 1024  # papers indexed at a time: a few MB of arrays, a few ms per step (at most MOST_TEXTS: see Counted)
THREADS = 2  # finding words in batches; the build's own thread names them
_BASE = 0x9E3779B97F4A7C15  # odd, so invertible mod 2**64
_MIX = np.uint64(0x94D049BB133111EB)  # odd: multiplying by it loses nothing mod 2**64
_ASCII_WORD = np.array([WORD.fullmatch(chr(c)) is not None for c in range(128)])


def join_words(words: Iterable[str]) -> np.ndarray:
    """`words` as one array of UTF-8 bytes, a word a line."""
    return np.frombuffer("\n".join(words).encode("utf-8", "surrogatepass"), dtype=np.uint8)

def split_words(joined: np.ndarray) -> list[str]:
    """The words `join_words` made the array of; ValueError for anything else."""
    if joined.dtype != np.uint8 or joined.ndim != 1:
        raise ValueError("words are not UTF-8 bytes")
    text = joined.tobytes().decode("utf-8", "surrogatepass")
    return text.split("\n") if text else []

@dataclass(slots=True)
class _Runs:
    """The words of a batch of texts, found by `Words.find` and not yet named."""

    joined: str
    """The texts, one per line."""
    starts: np.ndarray
    ends: np.ndarray
    """Where each word starts and ends in `joined`."""
    order: np.ndarray
    """An order of the words bringing each word's occurrences together, in text order…"""
    first: np.ndarray
    """…and where each word's occurrences begin in it."""
    exact: bool
    """Whether every group was checked to hold one word (False: two words share a hash)."""
    text: np.ndarray
    """The text of each word."""
    lengths: np.ndarray
    """The number of words in each text."""

class Words:
    """Counts the words of texts, as `WORD.findall` finds them, as numbers: each distinct word
    gets an id (`ids`: word → id, in order of first appearance).

    Making a Python string of each of 20 million words costs seconds, so a batch of texts is
    handled as one array of code points in numpy (`find`, which any thread may run): which
    are word characters, where runs of them start and end, a hash of each run, and one sort
    by hash that brings each word's occurrences together, in text order. Runs with equal
    hashes are then compared letter by letter, so the counts are exact whatever the hash does
    (should two words share a hash, `count` spells out the batch's words in Python instead).
    `count` names one string per distinct word and batch.
    """

    def __init__(self) -> None:
        self.ids: dict[str, int] = defaultdict(count().__next__)
        self._powers = (np.empty(0, dtype=np.uint64),) * 2
        """_BASE**i and _BASE**-i * _MIX mod 2**64, for i up to the longest slice `_hashes` has hashed (one
        tuple: threads that find words at once each read both, as one of them makes them longer)."""

    def find(self, texts: list[str]) -> _Runs:
        """The words of `texts` (at most `MOST_TEXTS`), grouped by hash."""
        if len(texts) > MOST_TEXTS:
            raise ValueError(f"{len(texts)} texts: words are counted in at most {MOST_TEXTS} at once")
        joined = "\n".join(texts)  # no word runs from one text into the next
        chars = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        inside = _word_characters(chars)
        edges = np.flatnonzero(np.diff(inside, prepend=False, append=False))
        starts, ends = edges[0::2], edges[1::2]
        order, first = _grouped_by(self._hashes(chars, starts, ends))
        text_starts = np.cumsum([0] + [len(text) + 1 for text in texts[:-1]])
        text = np.searchsorted(text_starts, starts, side="right") - 1
        return _Runs(joined, starts, ends, order, first, _same_letters(chars, inside, starts, ends, order, first),
                     text.astype(np.uint32), np.bincount(text, minlength=len(texts)))

    def count(self, runs: _Runs) -> Grouped:
        """The words `find` found, counted in each text and named (`Grouped`)."""
        if not runs.exact:
            joined, starts, ends = runs.joined, runs.starts, runs.ends
            spelled = [joined[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
            ids = np.fromiter(map(self.ids.__getitem__, spelled), np.uint64, len(spelled))
            runs.order, runs.first = _grouped_by(ids << np.uint64(32))  # ids < 2**32: in the high bits, exact
        return self.kept(counted(runs))

    def kept(self, found: Counted) -> Grouped:
        """The `counted` words of a batch (as a worker process sends them) named: each given its id."""
        ids = np.fromiter(map(self.ids.__getitem__, found.words.split("\n") if found.groups else ()), np.uint32, found.groups)
        return Grouped(ids, found.runs, found.pairs, found.lengths)

    def _hashes(self, chars: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """A hash of each run chars[start:end] from prefix sums of chars[i] * _BASE**i: the sum
        of chars[start + k] * _BASE**k mod 2**64, times _MIX so that its high bits, which
        `_grouped_by` sorts on, depend on the low bits too (the first letter's, for one). The sums
        are made a `SLICE` of the runs at a time (the value does not depend on where a run is)."""
        hashes = np.empty(len(starts), dtype=np.uint64)
        at = 0
        while at < len(starts):
            base = int(starts[at])
            upto = max(int(np.searchsorted(ends, base + SLICE, side="right")), at + 1)  # (a longer run alone)
            size = int(ends[upto - 1]) - base
            power, unpower = self._powers
            if len(power) <= size:
                power = _powers(_BASE, max(size, SLICE) + 1)
                unpower = _powers(pow(_BASE, -1, 2**64), len(power)) * _MIX
                self._powers = power, unpower
            prefix = np.zeros(size + 1, dtype=np.uint64)
            np.cumsum(chars[base : base + size] * power[:size], out=prefix[1:])  # wraps mod 2**64, as meant
            begin = starts[at:upto] - base
            hashes[at:upto] = (prefix[ends[at:upto] - base] - prefix[begin]) * unpower[begin]
            at = upto
        return hashes

MOST_TEXTS = 1 << (16 - TF_BITS)
"""The most texts `Words` counts the words of at once: a (word, text) pair is kept in 16 bits with its count."""


@dataclass(slots=True)
class Counted:
    """The words of a batch of texts counted but not named (`counted`): what a worker process sends back,
    for the building process to give the words ids (`Words.kept`) in the order a build would."""

    words: str
    """Each distinct word once, a line each (no word holds a line break), in the order `count` names them."""
    groups: int
    """How many there are."""
    runs: np.ndarray
    """How many texts hold each (uint16)…"""
    pairs: np.ndarray
    """…and of each (word, text) pair, a word's texts together and in order, `(text << TF_BITS) | min(count, TF_MAX)`
    (uint16: ~2 bytes a pair, ~16 million pairs at 100,000 abstracts, held until the index is built)."""
    lengths: np.ndarray
    """The number of words in each text."""


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


def counted(runs: _Runs) -> Counted:
    """The words `Words.find` found in a batch, counted in each text (its groups exact: see `_Runs.exact`)."""
    joined, starts, ends, order, first = runs.joined, runs.starts, runs.ends, runs.order, runs.first
    text = runs.text[order]
    spelled = [joined[s:e] for s, e in zip(starts[order[first]].tolist(), ends[order[first]].tolist())]
    pair = np.flatnonzero(first | np.diff(text, prepend=np.uint32(0)).astype(bool))  # a new word or text
    counts = np.minimum(np.diff(pair, append=len(text)), TF_MAX).astype(np.uint16)
    pairs = text[pair].astype(np.uint16) << np.uint16(TF_BITS)
    pairs |= counts
    held = np.diff(np.flatnonzero(first[pair]), append=len(pair)).astype(np.uint16)  # (texts holding each word)
    return Counted("\n".join(spelled), len(spelled), held, pairs, runs.lengths)


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

def _powers(base: int, n: int) -> np.ndarray:
    """base**i mod 2**64 for i < n."""
    power = np.full(n, base, dtype=np.uint64)
    power[0] = 1
    return np.cumprod(power, out=power)

def _word_characters(chars: np.ndarray) -> np.ndarray:
    """Which of the code points `chars` `WORD` counts as word characters."""
    inside = _ASCII_WORD[np.minimum(chars, 127)]
    other = np.flatnonzero(chars > 127)
    if len(other):
        points, where = np.unique(chars[other], return_inverse=True)
        inside[other] = np.array([WORD.fullmatch(chr(c)) is not None for c in points.tolist()])[where]
    return inside

def _grouped_by(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An order that brings equal `keys` together, keeping their order among themselves, and
    where each group starts in it. One plain sort of the keys' high bits with each key's
    position in the low bits (sorting is the costly step; this avoids a slower argsort)."""
    bits = max(1, len(keys).bit_length())
    mask = np.uint64((1 << bits) - 1)
    ranked = (keys & ~mask) | np.arange(len(keys), dtype=np.uint64)
    ranked.sort()
    high = ranked >> np.uint64(bits)
    return (ranked & mask).astype(np.intp), np.diff(high, prepend=~high[:1]).astype(bool)

def _same_letters(chars: np.ndarray, inside: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                  order: np.ndarray, first: np.ndarray) -> bool:
    """Whether the runs chars[start:end] (the runs of word characters `inside`) grouped together by `order` and
    `first` are equal: each run's letters and its group's first run's, compared a `SLICE` of characters at a time."""
    lengths = ends - starts
    same = np.empty(len(order), dtype=np.intp)  # the first run of each run's group
    same[order] = order[first][np.cumsum(first) - 1]
    if not np.array_equal(lengths, lengths[same]):
        return False
    shift = starts[same] - starts  # how far each run's group's first run is from it
    at = 0
    while at < len(starts):
        upto = max(int(np.searchsorted(ends, starts[at] + SLICE, side="right")), at + 1)  # (a longer run alone)
        low = int(starts[at])
        letters = np.flatnonzero(inside[low : int(ends[upto - 1])])  # where each letter of these runs is…
        letters += low
        mine = chars[letters]
        letters += np.repeat(shift[at:upto], lengths[at:upto])  # …and the same letter of its group's first run
        if not np.array_equal(mine, chars[letters]):
            return False
        at = upto
    return True

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
