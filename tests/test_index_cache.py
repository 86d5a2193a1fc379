"""The search index of a long list, kept in the cache: loaded again, it finds exactly what a
fresh build finds; a changed list, a damaged entry or an unwritable cache folder means the
index is built again (never a crash, never stale results)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import zstandard

from store import SearchIndex, Triage, index_entry, read_path, search_index
from store.readers import cache
from tests.conftest import SEED

EXTRA = [  # beyond ASCII, so the cached vocabulary is more than ASCII words
    "Un café — crème of graph neural networks, and a cafe\u0301 with a combining accent.",
    "привет: 深度学习 for graph recovery. Code: github.com/example/privet.",
    "Uneven  spacing,\tand a tab: a phrase  that Is   uneven in its display text.",  # literal matching evens it out
]
QUERIES = [
    "graph neural", "difusion recovry", "contrast", "hdg", "self-supervised", "LLM", "Llm", "language !llm",
    '"Knowledge-Intensive Compressed"', '"language models"', '"graph neural"', "'github", "'GitHub",
    "hdgnn | fairtune", "has:code", "-has:code learning", "venue:iclr year:2024", "year<2024", "is:read",
    "-is:read graph", "is:starred | is:read", "p<=2", "p:0 language", "has:note", "tag:todo", "café",
    "cafe\u0301", "深度学习", "привет", "", "!graph",
    '"that is uneven"', '"spacing, and"',
]


@pytest.fixture
def states():
    papers = read_path(SEED).papers
    return {
        papers[0].id: Triage(read=True, priority=2, tags=("todo",)),
        papers[3].id: Triage(starred=True, priority=1, note="compare"),
        papers[7].id: Triage(read=True),
    }


@pytest.fixture
def long_list(tmp_path, monkeypatch) -> Path:
    """A copy of the seed (with two more abstracts) that counts as a long list."""
    monkeypatch.setattr(cache, "INDEX_FROM", 1)
    path = tmp_path / "list.txt"
    path.write_text(SEED.read_text(encoding="utf-8").rstrip() + "\n\n" + "\n\n".join(EXTRA) + "\n", encoding="utf-8")
    return path


def index_entries() -> list[Path]:
    return sorted(Path(os.environ["TRIAGE_CACHE"]).glob("*" + cache.INDEX_SUFFIX))


def results(index: SearchIndex, states) -> list[list[tuple]]:
    """Everything a search shows, for each of QUERIES: ids in order, scores, matched spans."""
    return [[(hit.paper_id, hit.score, hit.title_spans, hit.text_spans) for hit in index.search(query, states)]
            for query in QUERIES]


@pytest.fixture
def no_build(monkeypatch):
    """Makes building an index fail: what is found then came from the cache."""
    def fail(self, papers):
        pytest.fail("the index was built again")
    return lambda: monkeypatch.setattr(SearchIndex, "__init__", fail)


def test_a_cached_index_finds_exactly_what_a_fresh_one_finds(long_list, states, no_build):
    fresh = results(SearchIndex(read_path(long_list).papers), states)
    assert all(fresh[:6]) and all(fresh[-2:])  # the queries find things
    search_index(read_path(long_list))
    cache.settle()
    assert len(index_entries()) == 1
    no_build()
    assert results(search_index(read_path(long_list)), states) == fresh


def test_short_lists_are_not_cached(long_list, monkeypatch):
    monkeypatch.setattr(cache, "INDEX_FROM", 23)
    assert len(search_index(read_path(long_list))) == 22
    assert index_entries() == []


def test_a_changed_list_is_indexed_again(long_list, states, no_build):
    before = read_path(long_list)
    assert len(search_index(before).search("'grape")) == 0
    long_list.write_text(re.sub("raph (?=neural)", "rape ", long_list.read_text(encoding="utf-8"), flags=re.I), encoding="utf-8")
    after = read_path(long_list)
    rebuilt = search_index(after)
    assert len(rebuilt.search("'grape")) == 2
    assert results(rebuilt, states) == results(SearchIndex(after.papers), states)
    # The papers read before the change get their own index, never the one of the new text.
    assert len(search_index(before).search("'grape")) == 0
    assert len(search_index(after).search("'grape")) == 2
    cache.settle()  # (an index entry is written by a thread)
    no_build()
    assert results(search_index(after), states) == results(rebuilt, states)


def damaged(entry: Path) -> list[bytes]:
    """Ways the good index `entry` can be broken: gone, foreign, cut short, bytes changed,
    well-formed but not fitting together (as packed, or once unpacked), or holding a pickle."""
    good = entry.read_bytes()
    with np.load(entry) as stored:
        stored = {name: stored[name] for name in stored.files}
    parts = index_entry.unpacked(stored)
    wrong = []
    unpacked_changes = ({"title": parts["title"] + len(parts["lengths"])}, {"body_bounds": parts["body_bounds"][:-1]},
                        {"words": np.concatenate([parts["words"], np.frombuffer(b"\nextra", np.uint8)])},
                        {"lengths": parts["lengths"][1:]}, {"letters": parts["letters"][:, 1:]},
                        {"chars": parts["chars"][::-1].copy()}, {"char_papers": parts["char_papers"] + len(parts["lengths"])})
    packed_changes = ({"key": stored["key"][:-1]}, {"body": stored["body"][:-4]}, {"letters": stored["title"]},
                      {"body": np.frombuffer(zstandard.ZstdCompressor().compress(b"\1" * 12), np.uint8)},
                      {"words": np.array([{"a": 1}], dtype=object)})
    for change in [{**stored, **index_entry.packed({**parts, **change})} for change in unpacked_changes] + \
                  [{**stored, **change} for change in packed_changes]:
        with entry.open("wb") as out:
            np.savez(out, **change)
        wrong.append(entry.read_bytes())
    middle = len(good) // 2
    return [b"", b"not an index at all", good[:middle], good[:-9] + b"\0" * 9,
            good[:middle] + bytes([good[middle] ^ 1]) + good[middle + 1:], *wrong]


def test_a_damaged_entry_is_never_believed_and_is_rebuilt(long_list, states, no_build, monkeypatch):
    collection = read_path(long_list)
    fresh = results(search_index(collection), states)
    cache.settle()
    [entry] = index_entries()
    for damage in damaged(entry):
        entry.write_bytes(damage)
        assert results(search_index(collection), states) == fresh
        cache.settle()  # (the rebuilt index's entry is written by a thread)
    no_build()  # the last rebuild was cached again
    assert results(search_index(collection), states) == fresh


def test_an_unwritable_cache_folder_only_costs_time(long_list, states, tmp_path, monkeypatch):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("TRIAGE_CACHE", str(blocked / "cache"))
    collection = read_path(long_list)
    assert results(search_index(collection), states) == results(search_index(collection), states) \
        == results(SearchIndex(collection.papers), states)


def test_entries_unused_for_long_are_removed(long_list):
    folder = Path(os.environ["TRIAGE_CACHE"])
    folder.mkdir()
    month_ago = time.time() - (cache.KEEP_DAYS + 1) * 86400
    for name in ("old.parse", "old.index", "old.ids", "kept.txt"):
        (folder / name).write_bytes(b"x")
        os.utime(folder / name, (month_ago, month_ago))
    search_index(read_path(long_list))
    cache.settle()
    assert sorted(p.suffix for p in folder.iterdir()) == [".ids", ".index", ".parse", ".txt"]
    assert not (folder / "old.index").exists() and not (folder / "old.ids").exists()


def test_the_cli_query_runs_on_the_cached_index(long_list):
    """`triage list -q` twice: the second run loads the index (it cannot build one) and prints
    the same ranked rows."""
    run = ("from store.readers import cache; cache.INDEX_FROM = 1\n"
           "import sys; from store import SearchIndex\n"
           "if sys.argv[1] == 'cached': SearchIndex.__init__ = lambda self, papers: sys.exit('built again')\n"
           "from tui.cli import main; sys.exit(main(sys.argv[2:]))")
    args = ["list", str(long_list), "-q", "graph | 'github", "--format", "jsonl"]
    first = subprocess.run([sys.executable, "-c", run, "build", *args], capture_output=True, text=True, check=True)
    second = subprocess.run([sys.executable, "-c", run, "cached", *args], capture_output=True, text=True, check=True)
    assert second.stdout == first.stdout and first.stdout.count("\n") == 7


async def test_the_app_searches_a_long_list_on_its_cached_index(long_list, no_build):
    from tui.app import TriageApp
    from tui.widgets.paper_list import PaperList

    search_index(read_path(long_list))
    cache.settle()
    no_build()
    app = TriageApp(read_path(long_list))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"difusion recovry")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [paper.title[:4] for paper in app.query_one(PaperList).papers] == ["CDRL"]


def test_a_long_list_s_entry_is_a_fraction_of_the_list(tmp_path, monkeypatch):
    """The entry keeps the index packed (the posting lists as the differences of neighbours, compressed):
    a synthetic list's is under a quarter of the list file's size (it was over half; 68 MB of 145 at 100k)."""
    make_corpus = Path(__file__).resolve().parents[2] / "shared" / "tools" / "make_corpus.py"
    if not make_corpus.exists():
        pytest.skip("../shared/tools/make_corpus.py is not beside this checkout")
    monkeypatch.setattr(cache, "INDEX_FROM", 1)
    path = tmp_path / "long.txt"
    subprocess.run([sys.executable, str(make_corpus), "3000", "-o", str(path)], check=True)
    collection = read_path(path)
    built = search_index(collection)
    cache.settle()
    [entry] = index_entries()
    assert entry.stat().st_size < path.stat().st_size / 4
    assert results(search_index(collection), {}) == results(built, {})
