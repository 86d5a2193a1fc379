"""Literal phrases as they are typed (`"n`, `"ne`, `"neu`…, a capital, a character beyond ASCII, negated): the engine
(store.search.engine), which narrows a phrase to the papers whose words could hold it and checks the others on its
stored texts, finds exactly the papers whose title (with its name) or display text holds it (lower-cased with single
spaces, or as typed when it has a capital), on the ICLR list and on a long synthetic one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from store.papers.model import Paper
from store.readers import read_path
from store.search.engine import Engine
from store.search.phrases import head, literal_pattern, lower
from store.search.query import Term, parse

MAKE_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "tools" / "make_corpus.py"
TYPED = ['"n', '"ne', '"neu', '"neur', '"neural', '"neural n', '"neural ne', '"graph neural"', '"a', '"th', '"of the',
         '"x', '"1', '"_', '"é', '"ss', '"ing', '"tion', '"Ne', '"GNN', "'the", '"e.g', '"k', '!"the', '"ne" | "q', '"≤', '"α', '"ö', '"é les', '"–']


def holding(term: Term, paper: Paper) -> bool:
    """Whether `paper`'s title with its name or its display text holds `term` literally (smart case)."""
    texts = (head(paper), paper.plain or "")
    if term.case_sensitive:
        return any(literal_pattern(term).search(text) for text in texts)
    return any(lower(term.text) in lower(text) for text in texts)


def found(engine: Engine, papers: list[Paper], query: str) -> tuple[set[str], set[str]]:
    """(the ids the engine finds for `query`, those holding its phrases: every group, each atom a literal phrase)."""
    groups = parse(query).groups
    assert groups and all(isinstance(t, Term) and t.kind in ("phrase", "exact") and not t.field for g in groups for t in g), query
    expected = {p.id for p in papers if all(any(holding(t, p) != t.negated for t in group) for group in groups)}
    return {papers[row].id for row in engine.search(query).rows.tolist()}, expected


def same_papers(tmp_path: Path, papers: list[Paper]) -> None:
    engine = Engine.opened(papers, tmp_path / "engine", "test")[0]
    for query in TYPED:
        got, expected = found(engine, papers, query)
        assert got == expected, (query, sorted(got - expected)[:5], sorted(expected - got)[:5])
    assert found(engine, papers, '"neural n')[0]  # (the list holds what is typed)


def test_typed_phrases_find_the_papers_holding_them_on_the_iclr_list(corpora, tmp_path):
    same_papers(tmp_path, read_path(corpora / "iclr-2024-papers.jsonl").papers)


def test_typed_phrases_find_the_papers_holding_them_on_a_long_synthetic_list(tmp_path):
    if not MAKE_CORPUS.exists():
        pytest.skip("../shared/tools/make_corpus.py is not beside this checkout")
    path = tmp_path / "long.txt"
    subprocess.run([sys.executable, str(MAKE_CORPUS), "3000", "-o", str(path)], check=True)
    same_papers(tmp_path, read_path(path).papers)


def test_a_phrase_inside_words_is_found_however_often_a_text_holds_it(tmp_path):
    texts = ["nest " * 20 + "and more.", "one nest here.", "nothing of the kind.", "Honest work, in earnest."]
    papers = [Paper(id=str(k), text=text, title=f"Paper {k}", name="", plain=text, position=k) for k, text in enumerate(texts)]
    engine = Engine.opened(papers, tmp_path / "engine", "test")[0]
    assert sorted(papers[row].id for row in engine.search('"nes').rows.tolist()) == ["0", "1", "3"]
    assert [papers[row].id for row in engine.search('"est w').rows.tolist()] == ["3"]
