"""The words of a batch of texts are counted exactly as `WORD.findall` finds them (up to the `TF_MAX` a posting
keeps), however the batch is cut into the slices it hashes at a time (`store.search.words.SLICE`): a word
longer than a slice, words at a slice's edge, letters beyond ASCII, and words that share a hash (each group is
checked letter by letter). A paper's counts for the interest model (store.interest.counts) are its display text's
words so counted, and once more each word of its title."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from store.interest import counts as paper_counts
from store.interest.spool import Spool
from store.papers.model import Paper
from store.search import words as words_module
from store.search.phrases import head
from store.search.words import TF_BITS, TF_MAX, Words
from store.search.vocabulary import WORD

TEXTS = [
    "Graph neural networks learn graph structure; graph-level tasks.",
    "A" * 300 + " short words after a long one, and Ünïcödé wörds too: naïve café 𝒪(n) αβγ.",
    "",
    "diffusion models diffusion MODELS models " * 12,
    "x" * 70 + " y " + "x" * 70,
]


def counts(words: Words, texts: list[str]) -> list[Counter]:
    """How often each word is in each text, as the index keeps it (at most `TF_MAX`)."""
    grouped = words.counted(words.find(texts))
    named = words.named(grouped)
    spelled = {number: word for word, number in words.ids.items()}
    found = [Counter() for _ in texts]
    pairs = grouped.pairs.tolist()
    for word, at in zip(np.repeat(named, grouped.runs).tolist(), pairs):
        found[at >> TF_BITS][spelled[word]] += at & TF_MAX
    assert grouped.lengths.tolist() == [len(WORD.findall(t)) for t in texts]
    return found


def findall(text: str) -> Counter:
    return Counter({word: min(n, TF_MAX) for word, n in Counter(WORD.findall(text)).items()})


@pytest.mark.parametrize("slice_", [8, 64, 1 << 17])
def test_words_are_counted_as_findall_counts_them_whatever_the_slices(monkeypatch, slice_):
    monkeypatch.setattr(words_module, "SLICE", slice_)
    assert counts(Words(), TEXTS) == [findall(t) for t in TEXTS]


def test_words_that_share_a_hash_are_told_apart(monkeypatch):
    monkeypatch.setattr(words_module, "SLICE", 16)
    monkeypatch.setattr(Words, "_hashes", lambda self, chars, starts, ends: np.zeros(len(starts), np.uint64))
    assert not Words().find(TEXTS).exact  # (every word in one group: its letters differ)
    assert not Words().find(["graph grape graph", "grasp"]).exact  # (as long as each other: letter by letter)
    assert Words().find(["graph graph", "graph"]).exact
    assert counts(Words(), TEXTS) == [findall(t) for t in TEXTS]


def test_a_papers_counts_are_its_text_words_capped_and_each_title_word_once_more(monkeypatch):
    monkeypatch.setattr(paper_counts, "BATCH", 2)  # (papers in several batches: rows and words named across them)
    monkeypatch.setattr(paper_counts, "BLOCK", 4)  # (and blocks, each read back from the spool on disk)
    papers = [Paper(id=str(k), text=text, title=f"Title {k}: graph models, graph") for k, text in enumerate(TEXTS)]
    found = [Counter() for _ in papers]
    with Spool(True) as spool:
        counts = paper_counts.counted(papers, spool)
        for k in range(counts.blocks):
            of_paper, of_word, times = counts.block(k)
            for row, word, n in zip(of_paper.tolist(), of_word.tolist(), times.tolist()):
                found[k * 4 + row][counts.words[word]] += n
    assert found == [findall(p.plain) + Counter(set(WORD.findall(head(p)))) for p in papers]
