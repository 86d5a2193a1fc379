"""Literal phrases as they are typed (`"n`, `"ne`, `"neu`…): counted from the letter counts or the postings
of the words holding them, narrowed to the papers holding their characters beyond ASCII, counted in texts
lowered one by one, or with every paper a candidate when narrowing would not narrow, they find the same
papers, in the same order with the same scores and highlights, as counting in every candidate text."""
from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from store.search import phrases
from store.readers import read_path
from store.search.index import SearchIndex

MAKE_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "tools" / "make_corpus.py"
TYPED = ['"n', '"ne', '"neu', '"neur', '"neural', '"neural n', '"neural ne', '"graph neural"', '"a', '"th', '"of the',
         '"x', '"1', '"_', '"é', '"ss', '"ing', '"tion', '"Ne', '"GNN', "'the", '"e.g', '"k', '!"the', '"ne | "q', '"≤', '"α', '"ö', '"é les', '"–']


def results(index: SearchIndex, query: str) -> list:
    hits = index.search(query)
    return [(hit.paper.id, hit.score) for hit in hits] + [(hit.title_spans, hit.text_spans) for hit in hits[:40]]


def counted_in_every_text(index: SearchIndex, monkeypatch: pytest.MonkeyPatch, query: str) -> list:
    """The results with the shortcuts off (letter counts, postings, the papers holding a character beyond
    ASCII, texts lowered one by one) and the candidates always narrowed, as before."""
    with monkeypatch.context() as patch:
        patch.setattr(phrases.Phrases, "counted", lambda self, needle: None)
        patch.setattr(phrases.Lowered, "holding", lambda self, needle: None)
        patch.setattr(phrases, "_FEW", 10**12)
        narrowed = SearchIndex._papers_with
        patch.setattr(SearchIndex, "_papers_with", lambda self, words, postings, shift, at_most=False:
                      narrowed(self, words, postings, shift))
        return results(index, query)


def same_results(index: SearchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    for query in TYPED:
        assert results(index, query) == counted_in_every_text(index, monkeypatch, query), query


def test_typed_phrases_find_the_same_on_the_iclr_list(corpora, monkeypatch):
    same_results(SearchIndex(read_path(corpora / "iclr-2024-papers.jsonl").papers), monkeypatch)


def synthetic(folder: Path, size: int) -> list:
    """The papers of a list of `size` synthetic abstracts (../shared/tools/make_corpus.py's)."""
    if not MAKE_CORPUS.exists():
        pytest.skip("../shared/tools/make_corpus.py is not beside this checkout")
    path = folder / "long.txt"
    subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "-o", str(path)], check=True)
    return read_path(path).papers


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "compressed"])
def test_typed_phrases_find_the_same_on_a_long_synthetic_list(tmp_path, monkeypatch, compressed):
    """With the lowered texts plain (a shorter list) and compressed (a list of 20,000 and more)."""
    monkeypatch.setattr(phrases, "COMPRESS_FROM", 1 if compressed else 10**9)
    papers = synthetic(tmp_path, 3000)
    same_results(SearchIndex(papers), monkeypatch)
    parts = SearchIndex(papers).parts()
    same_results(SearchIndex.from_parts(papers, parts), monkeypatch)  # as a cached index is


def test_a_word_at_the_cap_of_its_count_is_counted_in_the_text(monkeypatch):
    """Postings keep a word's count up to 15: a text with a word 20 times still counts 20."""
    from store.papers.model import Paper

    texts = ["nest " * 20 + "and more.", "one nest here.", "nothing of the kind."]
    papers = [Paper(id=str(k), text=text, title=f"Paper {k}", name="", plain=text) for k, text in enumerate(texts)]
    index = SearchIndex(papers)
    assert [hit.paper.id for hit in index.search('"nes')] == ["0", "1"]
    same_results(index, monkeypatch)


def test_the_texts_phrases_look_in_take_a_fraction_of_the_memory_of_the_texts(tmp_path, monkeypatch):
    """A loaded (cached) index of a long list makes the lower-cased texts it counts phrases in on its
    first phrase (the app: on its index thread): a very long list keeps them compressed, in well under half the memory
    of the display texts themselves (they were one string per paper: more than the texts, ~200 MB at 100k)."""
    monkeypatch.setattr(phrases, "COMPRESS_FROM", 3000)  # (as a list of `COMPRESS_FROM` and more)
    papers = synthetic(tmp_path, 3000)
    index = SearchIndex.from_parts(papers, SearchIndex(papers).parts())
    tracemalloc.start()
    index.literal_ready()
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert index.search('"neural network"')  # (what it made finds what it should)
    assert held < 0.5 * sum(len(paper.plain) for paper in papers)
