"""A long list's abstracts are held once: once the texts phrases are looked for in are made (lowered, a batch
at a time), a paper keeps its text as its line of them where it can (`store.papers.cased.Cased`), and every text,
display text, id and title reads back exactly as read; the parse cache written from such papers holds
the same list."""
from __future__ import annotations

import gc
import random
import tracemalloc
from pathlib import Path

import pytest

from store.search.index import SearchIndex
from store.readers import cache, read_path
from store.papers.model import fingerprint, kept_text, Triage
from store.papers.cased import Cased
from store.marks.db import TriageStore
from store.papers.packed import Packed

WORDS = ("graph neural network Diffusion model learning Robust policy GNN LLM sparse data α-divergence naïve "
         "*bold* $\\alpha$-stable Ωmega ÉCOLE İstanbul").split()


def _abstract(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randrange(60, 160))]
    text = " ".join(words).capitalize() + "."
    if n % 17 == 0:
        text = text.replace(" ", "  ", 1)  # (not single-spaced: kept as it is)
    if n % 23 == 0:
        text = text.replace(" ", "\n", 2)  # (a paragraph hard-wrapped)
    return f"Paper {n}: We Study THE {rng.choice(WORDS)} of it. {text}"


@pytest.fixture
def long_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TRIAGE_CACHE", str(tmp_path / "cache"))
    rng = random.Random(17)
    path = tmp_path / "abstracts.txt"
    path.write_text("\n\n".join(_abstract(rng, n) for n in range(3000)) + "\n", encoding="utf-8")
    return path


def _read(path: Path) -> list[tuple]:
    papers = read_path(path).papers
    cache.settle()
    return [(p.id, p.text, p.plain, p.title, p.name) for p in papers]


def test_the_phrase_texts_of_a_list_cost_little_beyond_its_papers(long_list: Path):
    """Before, making them held a second copy of every display text, lowered (here 1.6 times their size; now 0.55:
    the titles lowered, the patches of the texts with markup; at 100,000 abstracts ~150 MB more)."""
    tracemalloc.start()  # (from before the papers are made: what is freed of them counts)
    try:
        papers = read_path(long_list).papers
        cache.settle()
        index = SearchIndex(papers)
        size = sum(len(p.plain.encode()) for p in papers)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        index.literal_ready()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 3 * size // 4, f"{grown / 2**20:.1f} MB more for {size / 2**20:.1f} MB of display texts"
    assert sum(type(kept_text(p)) is Cased for p in papers) > len(papers) // 2


def test_every_paper_reads_back_as_read(long_list: Path):
    before = _read(long_list)
    papers = read_path(long_list).papers
    SearchIndex(papers).literal_ready()
    kinds = {type(kept_text(p)) for p in papers}
    assert kinds == {Packed, Cased}  # (the texts that cannot be: a capital beyond ASCII, İ, spacing, markup..., compressed)
    assert [(p.id, p.text, p.plain, p.title, p.name) for p in papers] == before
    again = SearchIndex(papers)  # an index made again of the same papers moves them to its own lines
    again.literal_ready()
    assert [(p.id, p.text, p.plain, p.title, p.name) for p in papers] == before
    for query in ('"we study the"', "'We Study", "'THE", '"α-divergence naïve"', '"ωmega"', "graph -policy"):
        fresh = SearchIndex(read_path(long_list).papers)
        assert [(h.paper.id, h.score) for h in again.search(query)] == [(h.paper.id, h.score) for h in fresh.search(query)]


def test_a_parse_entry_written_from_such_papers_holds_the_same_list(long_list: Path, tmp_path: Path):
    before = _read(long_list)
    collection = read_path(long_list)
    SearchIndex(collection.papers).literal_ready()
    key = cache._key(str(long_list), long_list)
    data = cache._encode(key, collection, long_list)
    decoded = cache._decode(cache._header(data) + data, key, long_list)
    assert decoded is not None
    assert [(p.id, p.text, p.plain, p.title, p.name) for p in decoded.papers] == before


def test_marks_keep_the_fingerprint_of_the_text(long_list: Path, tmp_path: Path):
    papers = read_path(long_list).papers
    SearchIndex(papers).literal_ready()
    paper = next(p for p in papers if type(kept_text(p)) is Cased)
    store = TriageStore(tmp_path / "triage.json")
    store.attach(papers)
    store.put({paper.id: Triage(starred=True)})
    assert store._table.get(doc_id=paper.id)["fp"] == fingerprint(paper.text)
