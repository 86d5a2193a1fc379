"""The words of a list's papers counted for the interest model's features (store.interest.ranking.`built`), from
the papers themselves: no search index is needed.

`counted(papers)` gives the vocabulary and, for each (paper, word) pair, how often the word is in the paper's
display text (capped at `TF_MAX`, as a search posting keeps it) and once more when the title (with the method's
name: store.search.phrases.head) holds it. Words are `WORD`'s, found and counted a `BATCH` of texts at a time with
numpy (store.search.words), the display texts' first and then the titles', and named in that order: the same
words with the same ids as the search index's build gave, so the features are the vectors they were (about 20
million words at 100,000 abstracts: seconds of CPU, not a Python call a word)."""
from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from store.common.ahead import in_order
from store.papers.model import Paper
from store.search.phrases import head
from store.search.words import BATCH, TF_BITS, TF_MAX, Words

THREADS = 2
"""Threads finding the words of the next batches (numpy lets go of the GIL) while the caller's names them."""


class Counts(NamedTuple):
    """Word counts of papers: `words` the vocabulary (in id order), then for each count its paper (row), its word
    (id) and how many times it counts."""

    words: list[str]
    of_paper: np.ndarray
    of_word: np.ndarray
    times: np.ndarray


def counted(papers: Sequence[Paper]) -> Counts:
    """The words of `papers` counted: a display text's up to `TF_MAX` times each, a title's once."""
    words = Words()
    starts = range(0, len(papers), BATCH)
    rows, ids, times = [], [], []
    with ThreadPoolExecutor(THREADS) as pool:
        for capped, text in ((True, Paper.plain.__get__), (False, head)):  # (the display texts' words named first)
            batches = ([text(p) for p in papers[start : start + BATCH]] for start in starts)
            for start, runs in zip(starts, in_order(pool, words.find, batches)):
                found = words.counted(runs)
                ids.append(np.repeat(words.named(found), found.runs))
                rows.append((found.pairs >> TF_BITS).astype(np.int32) + np.int32(start))
                times.append((found.pairs & TF_MAX).astype(np.float32) if capped else np.ones(len(found.pairs), np.float32))
    joined = (np.concatenate(parts) if parts else np.zeros(0, kind) for parts, kind in ((rows, np.int32), (ids, np.uint32),
                                                                                        (times, np.float32)))
    return Counts(list(words.ids), *joined)
