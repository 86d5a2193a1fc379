"""The words of a list's papers counted for the interest model's features (store.interest.vectors' `built`), from
the papers themselves: no search index is needed.

`counted(papers, spool)` gives the vocabulary and, for each (paper, word) pair, how often the word is in the paper's
display text (capped at `TF_MAX`, as a search posting keeps it) and once more when the title (with the method's
name: store.search.phrases.head) holds it, put aside in `spool` (store.interest.spool) a batch at a time and read
back a `BLOCK` of papers at a time (`Counts.block`): a long list's counts are GBs (~130 million pairs at 1,000,000
papers), never held at once. Words are `WORD`'s, found and counted a `BATCH` of texts at a time with numpy
(store.search.words), the display texts' first and then the titles', and named in that order. The papers are read
in one pass for each (a reopened list's made a chunk at a time and let go: store.papers.chunked's `passing`)."""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import islice

import numpy as np

from store.common.ahead import in_order
from store.interest.spool import Place, Spool
from store.papers.chunked import passing
from store.papers.model import Paper
from store.search.phrases import head
from store.search.words import BATCH, TF_BITS, TF_MAX, Words

THREADS = 2
"""Threads finding the words of the next batches (numpy lets go of the GIL) while the caller's names them."""
BLOCK = 64 * BATCH
"""Papers whose counts are read back at a time (`Counts.block`): tens of MB of arrays."""


class Counts:
    """Word counts of papers: `words` the vocabulary (in id order), and each `BLOCK` of papers' counts (`block`)."""

    def __init__(self, words: list[str], papers: int, spool: Spool, places: list[list[tuple[Place, Place, Place]]]) -> None:
        self.words = words
        self.papers = papers
        self._spool = spool
        self._places = places

    @property
    def blocks(self) -> int:
        return len(self._places)

    def block(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The counts of block `k`'s papers: for each count its paper (its row in the block), its word (id) and how many
        times it counts."""
        parts = self._places[k]
        return tuple(np.concatenate([self._spool.get(part[at]) for part in parts]) if parts else np.zeros(0, kind)
                     for at, kind in ((0, np.int32), (1, np.uint32), (2, np.float32)))  # type: ignore[return-value]


def _batches(papers: Iterable[Paper], text: object) -> Iterator[list[str]]:
    each = iter(papers)
    while batch := list(islice(each, BATCH)):
        yield list(map(text, batch))  # type: ignore[arg-type]


def counted(papers: Sequence[Paper], spool: Spool) -> Counts:
    """The words of `papers` counted: a display text's up to `TF_MAX` times each, a title's once (put in `spool`)."""
    words = Words()
    starts = range(0, len(papers), BATCH)
    places: list[list[tuple[Place, Place, Place]]] = [[] for _ in range(-(-len(papers) // BLOCK))]
    with ThreadPoolExecutor(THREADS) as pool:
        for capped, text in ((True, Paper.plain.__get__), (False, head)):  # (the display texts' words named first)
            for start, runs in zip(starts, in_order(pool, words.find, _batches(passing(papers), text))):
                found = words.counted(runs)
                ids = np.repeat(words.named(found), found.runs)
                rows = (found.pairs >> TF_BITS).astype(np.int32) + np.int32(start % BLOCK)
                times = (found.pairs & TF_MAX).astype(np.float32) if capped else np.ones(len(found.pairs), np.float32)
                places[start // BLOCK].append((spool.put(rows), spool.put(ids), spool.put(times)))
    return Counts(list(words.ids), len(papers), spool, places)
