"""Papers made without their derived titles (a long list's parse behind the app leaves them to later:
store.readers.titles) show, search, cache and cite exactly as papers made with them, once they have them."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from store.papers.model import Collection, kept_title, replaced, titled, untitled
from store.search.index import SearchIndex
from store.readers import cache, read_path, titles
from store.papers.boundary import inert_collection

SEED = Path(__file__).resolve().parents[1] / "seeds" / "iclr2024.txt"
QUERIES = ("graph neural", "title:graph", "abstract:learning", '"neural network"', "'Transformer", '"n', '"ne',
           "difusion modls", "reinforcement | language -vision", "title:model", '"of the"')


def _without_titles(papers):
    """The papers as a long list's read behind the app makes them: without derived titles and names."""
    return [replaced(paper, title=None, name=None) for paper in papers]


def _list(corpora: Path | None) -> list:
    return read_path(corpora / "iclr-2024-abstracts.txt" if corpora else SEED).papers


@pytest.fixture(params=["seed", "iclr"])
def papers(request):
    if request.param == "seed":
        return _list(None)
    return _list(request.getfixturevalue("corpora"))


def test_a_paper_without_its_title_derives_the_very_title_when_read(papers):
    bare = _without_titles(papers)
    assert all(map(untitled, bare)) and kept_title(bare[0]) == ""
    moved = replaced(bare[1], position=7)  # (as `unique` renumbers papers)
    assert untitled(moved) and untitled(inert_collection(Collection(papers=[bare[2]])).papers[0])  # nothing on the way derives it
    assert [(paper.title, paper.name) for paper in bare] == [(paper.title, paper.name) for paper in papers]
    assert not any(map(untitled, bare)) and bare == papers


def test_papers_without_their_titles_are_not_cached(tmp_path):
    path = tmp_path / "list.txt"
    path.write_bytes(SEED.read_bytes())
    collection = read_path(path)
    entry = cache._entry([path], cache.SUFFIX)
    entry.unlink()
    key = cache._key(str(path), path)
    collection.papers = _without_titles(collection.papers)
    with pytest.raises(ValueError, match="titles"):
        cache._encode(key, collection, path)
    assert all(map(untitled, collection.papers))  # (and refusing derived none)


def test_the_index_made_before_the_titles_answers_as_a_built_one_once_retitled(papers):
    bare = _without_titles(papers)
    early = SearchIndex(bare)
    assert early.provisional and all(map(untitled, bare))  # the build derives no title
    with pytest.raises(ValueError):
        early.parts()  # never cached
    assert titles.derive(bare)
    assert bare == papers
    index, built = early.retitled(), SearchIndex(papers)
    assert not index.provisional
    for query in QUERIES:
        got, want = index.search(query), built.search(query)
        assert got.ids == want.ids and [hit.score for hit in got] == [hit.score for hit in want], query


def test_a_title_word_no_abstract_holds_is_found_once_retitled(papers):
    bare = _without_titles(papers)
    early = SearchIndex(bare)
    titled(bare[3], "Zyzzyvas of the deep", "ZYZ")  # (a title of words in no text)
    for paper in bare:
        paper.title  # noqa: B018 - each derives its own
    index = early.retitled()
    assert index.search("zyzzyvas").ids[:1] == [bare[3].id] and index.search("title:zyzzyva").ids == [bare[3].id]
    assert index.search('"zyzzyvas of"').ids == SearchIndex(bare).search('"zyzzyvas of"').ids == [bare[3].id]


def test_the_worker_processes_give_the_app_the_cpu_first():
    """The parse's and the titles' workers run `NICENESS` behind the process they work for (whose keys and
    papers made of their results go first: `j` while the titles of 100,000 abstracts were derived took
    190 ms at the median on a loaded machine, 96 ms with the workers behind)."""
    from store.readers import records

    with records.worker_pool(1, "spawn") as pool:
        assert pool.submit(os.nice, 0).result() == min(19, os.nice(0) + records.NICENESS)
