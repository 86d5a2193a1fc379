"""A long list parsed on worker processes has the words of its display texts counted there
(`store.readers.records.counting`), named as they arrive: its index is then the very index a build of the
papers makes."""
from __future__ import annotations

import numpy as np
import pytest

from store.search.index import SearchIndex
from store.readers import read_path, records
from store.search.index_build import BATCH

QUERIES = ("graph neural", "difusion models", '"language model"', "Transformer | attention", "'github", '"n')


@pytest.fixture
def on_workers(monkeypatch):
    monkeypatch.setattr(records, "PARALLEL_FROM", 1000)  # the ICLR list's 2,260 abstracts on two workers


def parsed_counted(path):
    with records.counting() as counted:
        papers = read_path(path).papers
    return papers, counted.bodies(papers)


def same_index(papers, bodies) -> None:
    built, named = SearchIndex(papers), SearchIndex(papers, bodies)
    for query in QUERIES:
        assert [(h.paper_id, h.score, h.text_spans) for h in named.search(query)] == \
               [(h.paper_id, h.score, h.text_spans) for h in built.search(query)]
    expected, found = built.parts(), named.parts()
    assert all(np.array_equal(expected[name], found[name]) for name in expected)


def test_the_index_of_counted_words_is_the_built_one(corpora, on_workers):
    papers, bodies = parsed_counted(corpora / "iclr-2024-abstracts.txt")
    assert len(bodies.batches) == -(-len(papers) // BATCH) and None not in bodies.batches  # all counted by the workers
    same_index(papers, bodies)


def test_the_counted_words_a_parse_holds_until_the_build_are_two_bytes_a_pair(corpora, on_workers):
    """Held from the read to the index build (at 100,000 abstracts ~16 million (word, text) pairs): each pair
    as its text and count in 16 bits, each word's id once a batch (it was 7 bytes a pair, ~110 MB then)."""
    papers, bodies = parsed_counted(corpora / "iclr-2024-abstracts.txt")
    batches = bodies.batches
    pairs = sum(len(batch.pairs) for batch in batches)
    held = sum(batch.words.nbytes + batch.runs.nbytes + batch.pairs.nbytes for batch in batches)
    assert pairs > 100 * len(papers) and held < 3 * pairs  # (7 bytes a pair before)
    same_index(papers, bodies)


def test_a_text_made_inert_after_counting_keeps_its_counted_words(corpora, on_workers, tmp_path):
    """An abstract with control characters in it: the worker counted its display text before the text was
    made inert (`store.papers.boundary`); that display text is inert already, so the counted words still stand."""
    header, *abstracts = (corpora / "iclr-2024-abstracts.txt").read_text(encoding="utf-8").split("\n\n")
    at = BATCH + 7  # (the header is no paper)
    abstracts[at] = abstracts[at].replace(" ", " \x02\x1b[31m", 1)
    path = tmp_path / "list.txt"
    path.write_text("\n\n".join([header, *abstracts]), encoding="utf-8")
    papers, bodies = parsed_counted(path)
    assert "\x02" not in papers[at].text and "[31m" not in papers[at].plain
    assert len(bodies.batches) == 3 and None not in bodies.batches
    same_index(papers, bodies)


def test_a_list_whose_papers_moved_after_counting_is_built(corpora, on_workers, tmp_path):
    """An abstract twice (the second is no paper of its own): the papers after it moved, so none of the
    counted words are used."""
    text = (corpora / "iclr-2024-abstracts.txt").read_text(encoding="utf-8")
    paragraphs = text.split("\n\n")
    path = tmp_path / "list.txt"
    path.write_text("\n\n".join(paragraphs[:5] + paragraphs[4:]), encoding="utf-8")
    papers, bodies = parsed_counted(path)
    assert bodies == []
    same_index(papers, bodies)


def test_a_long_parse_lets_each_chunks_counted_words_go_once_named(started_workers):
    """Workers started (another thread runs, as in the app) send each chunk's analysis and counted words
    (~1.5 MB a chunk); once named they are let go of, not held to the read's end (~80 MB at 100,000 abstracts)."""
    import gc
    import weakref

    texts = [f"Abstract {n} on graph learning with {n % 3} diffusion models." for n in range(8)]
    with started_workers():
        with records.counting():
            chunks = records.analysed(texts)
            first_words = weakref.ref(next(chunks)[1][0].pairs)
            gc.collect()
            assert first_words() is not None  # (the chunk is still being made into papers)
            second = next(chunks)
            gc.collect()
            assert first_words() is None  # (while the read goes on)
            rest = [second, *chunks]
    assert len(rest) == 3 and all(counted[0] is not None for _, counted, _ in rest)
