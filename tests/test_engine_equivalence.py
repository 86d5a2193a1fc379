"""The engine on disk (store.search.engine) finds what today's SearchIndex finds, on the ICLR list, for every query the
search tests hold (each string of theirs that parses to a query), with marks, notes, tags, new and updated papers set:
the same papers, and the order the README's ranking rules give (title matches above the others; for one word,
papers whose title holds it exactly above those whose title holds a longer word or a typo). Within those tiers the
two rank by their own body scores (SearchIndex's BM25 of each matched word times its quality; the engine's
quality of the best matched word, plus tantivy's BM25 of the exact word or phrase), which the README leaves open.
Each paper among the first rows of either is marked alike (its title's and text's spans), and an engine built in
memory answers as the one in a folder does. Any text typed on the seed list: never an error, the same papers and
marks as SearchIndex's.

And a damaged folder (truncated, a byte changed, a file gone, the manifest gone) or one of other papers or code is built
again, never served."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store.papers.model import Triage
from store.readers import read_path
from store.readers.engine_cache import engine_for
from store.search.engine import Engine
from store.search.engine.translate import TITLE
from store.search.index import SearchIndex
from store.search.phrases import head
from store.search.query import WORD, Term, parse
from tests.conftest import CORPORA, SEED

TESTS = Path(__file__).resolve().parent
SOURCES = sorted({*TESTS.glob("test_search*.py"), *TESTS.glob("test_query*.py"), *TESTS.glob("test_filter*.py"),
                  *TESTS.glob("test_saved*.py"), *TESTS.glob("test_rules*.py"), TESTS / "test_literal_phrases.py",
                  TESTS / "test_cli_query.py", TESTS / "test_views.py", TESTS / "test_similar_highlights.py"})


def queries() -> list[str]:
    """Every string of the search tests that is a query (it narrows a list), and the empty one."""
    found = {""}
    for source in SOURCES:
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and 0 < len(node.value) <= 80 \
                    and "\n" not in node.value and parse(node.value).filters:
                found.add(node.value)
    return sorted(found)


QUERIES = queries()


@pytest.fixture(scope="module")
def iclr(tmp_path_factory):
    if not CORPORA.is_dir():
        pytest.skip("../shared/corpora is not beside this checkout")
    collection = read_path(CORPORA / "iclr-2024-abstracts.txt")
    papers = collection.papers
    ids = [p.id for p in papers]
    states = {pid: Triage(starred=True) for pid in ids[:10]}
    states |= {pid: Triage(read=True, priority=1 + k % 5) for k, pid in enumerate(ids[10:30])}
    states |= {pid: Triage(dismissed=True) for pid in ids[30:35]}
    states |= {pid: Triage(note="graph diffusion, see the appendix") for pid in ids[35:40]}
    states |= {pid: Triage(tags=("robotics", "ToRead")) for pid in ids[40:45]}
    marks = {"states": states, "new": set(ids[45:50]), "updated": set(ids[50:52])}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRIAGE_CACHE", str(tmp_path_factory.mktemp("cache")))
        engine, built, note = engine_for(collection)
        assert built and note is None
        yield collection, SearchIndex(papers), engine, marks


@pytest.fixture(scope="module")
def in_memory(iclr):
    return Engine.of(iclr[0].papers)


def test_the_search_tests_hold_many_queries():
    assert len(QUERIES) > 150
    assert {"difusion recovry", '"Knowledge-Intensive Compressed"', "-graph"} <= set(QUERIES)


def in_title(query, papers, ids: list[str]) -> dict[str, int]:
    """For a one-word query (else None): 0 for a paper whose title (with its name) holds the word exactly, 1 for
    one whose title holds a longer word it begins, 2 for the others (a typo in the title, or no title match)."""
    groups = query.groups
    if len(groups) != 1 or len(groups[0]) != 1 or not isinstance(groups[0][0], Term):
        return None
    term = groups[0][0]
    words = WORD.findall(term.text)
    if term.kind != "word" or term.negated or term.field not in ("", "title") or len(words) != 1:
        return None
    key = words[0] if term.case_sensitive else words[0].casefold()
    heads = {p.id: p for p in papers}
    tiers = {}
    for pid in ids:
        tokens = WORD.findall(head(heads[pid]) if term.case_sensitive else head(heads[pid]).casefold())
        tiers[pid] = 0 if key in tokens else 1 if any(t.startswith(key) for t in tokens) else 2
    return tiers


@pytest.mark.parametrize("text", QUERIES)
def test_the_engine_finds_what_today_finds_ranked_by_the_same_rules(iclr, in_memory, text):
    collection, index, engine, marks = iclr
    today = index.search(text, **marks)
    found = engine.search(text, **marks)
    ids = found.ids
    assert sorted(ids) == sorted(today.ids), text
    assert found.positions.tolist() == engine.found(text, **marks).rows.tolist()
    screen = engine.found(text, **marks, first=40)  # the first rows alone, as a screen asks, are the same
    assert screen.rows.tolist() == found.positions[:40].tolist() and len(screen) == len(found) == len(today), text
    kept = in_memory.search(text, **marks)  # and an engine in memory answers alike
    assert kept.ids == ids and [hit.score for hit in kept] == [hit.score for hit in found], text
    for hit in found[:20] + [found.of(hit.paper) for hit in today[:20]]:  # each paper marked alike
        same = today.of(hit.paper)
        assert (hit.title_spans, hit.text_spans) == (same.title_spans, same.text_spans), (text, hit.paper_id)
        assert hit.spans(hit.paper.title.upper()) == same.spans(hit.paper.title.upper()), (text, hit.paper_id)
    if not any(hit.score for hit in today):
        assert ids == today.ids  # file order
        return
    titled = {hit.paper_id for hit in today if hit.score >= 1.0}  # (a title match is worth 1.1 or more, the body < 1)
    assert {hit.paper_id for hit in found if hit.score >= TITLE / 2} == titled, text
    for order in (today.ids, ids):  # title matches above the others
        assert [pid in titled for pid in order] == sorted((pid in titled for pid in order), reverse=True), text
    tiers = in_title(today.query, collection.papers, ids)
    if tiers is not None:  # and the exact word in the title above a typo in the title
        for order in (today.ids, ids):
            seen_typo = False
            for pid in order:
                if pid in titled and tiers[pid] == 2:
                    seen_typo = True
                assert not (seen_typo and tiers[pid] == 0), text


@pytest.fixture(scope="module")
def seed():
    papers = read_path(SEED).papers
    return SearchIndex(papers), Engine.of(papers)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("lmnagrphdifuso :!'\"|-<>=p1 is:readLG")) | st.characters(), max_size=30))
def test_any_text_finds_what_today_finds_best_first(seed, text):
    index, engine = seed
    today, found = index.search(text), engine.search(text)
    assert [hit.score for hit in found] == sorted((hit.score for hit in found), reverse=True)
    assert sorted(found.ids) == sorted(today.ids) and len(set(found.ids)) == len(found)
    for hit in found[:5]:
        same = today.of(hit.paper)
        assert (hit.title_spans, hit.text_spans) == (same.title_spans, same.text_spans)


@pytest.mark.parametrize("damage", ["truncated", "byte", "missing", "unsealed", "another key"])
def test_a_damaged_folder_is_built_again_never_served(iclr, damage, tmp_path, monkeypatch):
    collection, index, _, _ = iclr
    monkeypatch.setenv("TRIAGE_CACHE", str(tmp_path))
    folder = engine_for(collection).engine.folder
    biggest = max((p for p in folder.iterdir() if p.is_file() and p.name != "manifest.json"), key=lambda p: p.stat().st_size)
    if damage == "truncated":
        biggest.write_bytes(biggest.read_bytes()[: biggest.stat().st_size // 2])
    elif damage == "byte":
        data = bytearray(biggest.read_bytes())
        data[len(data) // 2] ^= 0xFF
        biggest.write_bytes(bytes(data))
    elif damage == "missing":
        biggest.unlink()
    elif damage == "unsealed":
        (folder / "manifest.json").unlink()
    else:  # (this code changed, or the list file)
        assert Engine.opened(collection.papers, folder, "another key")[1]
    again, built, note = engine_for(collection)
    assert built and note == (None if damage == "another key" else "search index rebuilt (damaged)")
    assert sorted(again.search("graph").ids) == sorted(index.search("graph").ids)
    assert engine_for(collection)[1:] == (False, None)  # and the folder built again is opened as it is
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]  # (nothing of the damaged one or of the build left)


@pytest.mark.parametrize("copies, heap", [(1, None), (6, 15_000_000)])
def test_the_first_rows_keep_file_order_among_ties_in_any_folder(iclr, tmp_path, monkeypatch, copies, heap):
    """A folder of one segment (or segments put in row order) lets tantivy break ties; one whose segments a merge
    mixed (a small writer budget over a longer list) asks again: the same first rows either way."""
    collection, _, _, _ = iclr
    if heap:
        monkeypatch.setattr("store.search.engine.folder.HEAP", heap)
    engine, _ = Engine.opened(collection.papers * copies, tmp_path / "list.engine", "key")
    for text in ('"n', "learn", "graph", "-graph", "a", "is:unread"):
        every, first = engine.found(text), engine.found(text, first=40)
        assert first.rows.tolist() == every.rows[:40].tolist() and len(first) == len(every), text
    assert every.rows.tolist() == sorted(every.rows.tolist())  # (is:unread: file order)
