"""Literal phrases as they are typed (`"n`, `"ne`, `"neu`…): the engine finds exactly the papers whose title (with
its name) or display text holds the literal, as a plain scan of every text finds them (lower-cased with single
spaces; with a capital, case and all), the title's above the text's, and marks the literal where it is."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from store.papers.model import Paper
from store.readers import read_path
from store.search.engine import Engine
from store.search.phrases import head, literal_pattern, lower
from store.search.query import parse

MAKE_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "tools" / "make_corpus.py"
TYPED = ['"n', '"ne', '"neu', '"neur', '"neural', '"neural n', '"neural ne', '"graph neural"', '"a', '"th', '"of the',
         '"x', '"1', '"_', '"é', '"ss', '"ing', '"tion', '"Ne', '"GNN', "'the", '"e.g', '"k', '"≤', '"α', '"ö', '"é les', '"–', "'s:0", '"ing the', '"s a']


def scanned(papers: list[Paper], query: str) -> tuple[set[str], set[str]]:
    """(the ids of the papers holding the literal in their title or name, those holding it anywhere), by a scan."""
    (term,) = parse(query).groups[0]
    pattern, needle = literal_pattern(term), lower(term.text)
    holds = pattern.search if term.case_sensitive else lambda text: needle in lower(text)
    in_title = {paper.id for paper in papers if holds(head(paper))}
    return in_title, in_title | {paper.id for paper in papers if holds(paper.plain)}


def same_as_a_scan(papers: list[Paper]) -> None:
    engine = Engine.of(papers)
    for query in TYPED:
        in_title, anywhere = scanned(papers, query)
        hits = engine.search(query)
        found = [hit.paper.id for hit in hits]
        assert set(found) == anywhere, query
        assert found[: len(in_title)] == [pid for pid in found if pid in in_title], query  # the titles' first
        for hit in hits[:20]:
            spans = hit.text_spans
            assert spans or hit.paper.id in in_title, query
            pattern = literal_pattern(parse(query).groups[0][0])
            assert all(pattern.search(hit.paper.plain[start:end]) for start, end in spans), query  # (near ones merged)
    # a negated phrase, and phrases in an OR group, as sets of the scan's
    ids = {paper.id for paper in papers}
    assert {hit.paper.id for hit in engine.search('!"the')} == ids - scanned(papers, '"the')[1]
    assert {hit.paper.id for hit in engine.search('"ne" | "q')} == scanned(papers, '"ne')[1] | scanned(papers, '"q')[1]


def test_typed_phrases_find_what_a_scan_finds_on_the_iclr_list(corpora):
    same_as_a_scan(read_path(corpora / "iclr-2024-papers.jsonl").papers)


def test_typed_phrases_find_what_a_scan_finds_on_a_long_synthetic_list(tmp_path):
    if not MAKE_CORPUS.exists():
        pytest.skip("../shared/tools/make_corpus.py is not beside this checkout")
    path = tmp_path / "long.txt"
    subprocess.run([sys.executable, str(MAKE_CORPUS), "3000", "-o", str(path)], check=True)
    same_as_a_scan(read_path(path).papers)


def test_a_phrase_inside_words_is_found_however_often_a_text_holds_it():
    texts = ["nest " * 20 + "and more.", "one nest here.", "nothing of the kind.", "Honest work, in earnest."]
    papers = [Paper(id=str(k), text=text, title=f"Paper {k}", name="", plain=text, position=k) for k, text in enumerate(texts)]
    engine = Engine.of(papers)
    assert sorted(hit.paper.id for hit in engine.search('"nes')) == ["0", "1", "3"]
    assert [hit.paper.id for hit in engine.search('"est w')] == ["3"]


def test_a_reopened_lists_literals_are_found_as_a_scan_finds_them_none_of_its_papers_made(tmp_path):
    """A literal the index can only narrow (a capital, a dash) is checked on the texts of the papers it narrows to: on a
    reopened long list (store.papers.chunked), what a scan finds, in every chunk, few of a chunk or most, and not one of
    its papers made for it (at 1,000,000 papers they would be GBs)."""
    from store.papers.chunked import SIZE, ids_at

    abstracts = [f"We train {'Neural' if k % 3 else 'neural'} solvers on graph {k} with {'Rare-Event' if k % 1000 == 7 else 'common'}"
                 f" sampling. The {'state-of-the-art' if k % 2 else 'prior'} bound improves by {k % 13} points." for k in range(2 * SIZE + 99)]
    path = tmp_path / "long.txt"
    path.write_text("SYNTH 2024\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    first = read_path(path).papers
    papers = read_path(path).papers
    engine = Engine.of(papers)
    made = [chunk is not None for chunk in papers._made]
    for query in ('"Neural solvers', '"Rare-Event', '"state-of-the', '"-Event sampling'):
        assert set(ids_at(papers, engine.search(query).positions)) == scanned(first, query)[1], query  # (no paper made)
    assert [chunk is not None for chunk in papers._made] == made
