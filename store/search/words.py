"""Finding and counting the words of many texts as numbers, as `WORD.findall` finds them: what the interest
model's word counts (store.interest.counts) are made of.

`Words` finds the words of a batch of texts with numpy (hashing runs of word characters, grouping equal ones by
one sort, checking them letter by letter), counts them in each text (`Counted`: each (word, text) pair in 16 bits,
its count capped at `TF_MAX`) and names each distinct word once (an id in order of first naming).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import count

import numpy as np

from store.search.vocabulary import WORD

TF_BITS = 4  # a posting is (paper index << 4) | min(term frequency, 15)
TF_MAX = (1 << TF_BITS) - 1
SLICE = 1 << 17
"""The most characters of a batch whose words `Words` hashes at once: ~3 MB of arrays (a batch of 1,024
abstracts whole, ~1.5 million characters, was ~60 MB: a parse's worker process held it all)."""
BATCH = 1024  # texts counted at a time: a few MB of arrays, a few ms per step (at most MOST_TEXTS: see Counted)
_BASE = 0x9E3779B97F4A7C15  # odd, so invertible mod 2**64
_MIX = np.uint64(0x94D049BB133111EB)  # odd: multiplying by it loses nothing mod 2**64
_ASCII_WORD = np.array([WORD.fullmatch(chr(c)) is not None for c in range(128)])

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
    (should two words share a hash, `counted` spells out the batch's words in Python instead).
    `named` names one string per distinct word and batch.
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

    def counted(self, runs: _Runs) -> Counted:
        """The words `find` found, counted in each text (`counted`; when two words share a hash, the batch's words
        are spelled out and named here first, in text order, so its groups are exact)."""
        if not runs.exact:
            joined, starts, ends = runs.joined, runs.starts, runs.ends
            spelled = [joined[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
            ids = np.fromiter(map(self.ids.__getitem__, spelled), np.uint64, len(spelled))
            runs.order, runs.first = _grouped_by(ids << np.uint64(32))  # ids < 2**32: in the high bits, exact
        return counted(runs)

    def named(self, found: Counted) -> np.ndarray:
        """The id of each of the `counted` words of a batch (as a worker process sends them), in its order (uint32)."""
        return np.fromiter(map(self.ids.__getitem__, found.words.split("\n") if found.groups else ()), np.uint32, found.groups)

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
    """Each distinct word once, a line each (no word holds a line break), in the order `Words.named` names them."""
    groups: int
    """How many there are."""
    runs: np.ndarray
    """How many texts hold each (uint16)…"""
    pairs: np.ndarray
    """…and of each (word, text) pair, a word's texts together and in order, `(text << TF_BITS) | min(count, TF_MAX)`
    (uint16: ~2 bytes a pair, ~16 million pairs at 100,000 abstracts, held until the index is built)."""
    lengths: np.ndarray
    """The number of words in each text."""


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
