"""The search index of a long list, kept in the cache: loaded again, it finds exactly what a
fresh build finds; a changed list, a damaged entry or an unwritable cache folder means the
index is built again (never a crash, never stale results)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import zstandard

from store.search.index import SearchIndex
from store.papers.model import Triage
from store.search import index_entry
from store.readers import cache, index_cache, read_path
from store.readers.index_cache import search_index
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
    monkeypatch.setattr(index_cache, "INDEX_FROM", 1)
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
    monkeypatch.setattr(index_cache, "INDEX_FROM", 23)
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
    for name in ("old.parse", "old.index", "old.ids", "old.head", "old.features", "kept.txt"):
        (folder / name).write_bytes(b"x")
        os.utime(folder / name, (month_ago, month_ago))
    search_index(read_path(long_list))
    cache.settle()
    assert sorted(p.suffix for p in folder.iterdir()) == [".head", ".ids", ".index", ".parse", ".txt"]
    assert not any((folder / name).exists() for name in ("old.index", "old.ids", "old.head", "old.features"))


def test_the_cli_query_runs_on_the_cached_index(long_list):
    """`triage list -q` twice: the second run loads the index (it cannot build one) and prints
    the same ranked rows."""
    run = ("from store.readers import index_cache; index_cache.INDEX_FROM = 1\n"
           "import sys; from store.search.index import SearchIndex\n"
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
    monkeypatch.setattr(index_cache, "INDEX_FROM", 1)
    path = tmp_path / "long.txt"
    subprocess.run([sys.executable, str(make_corpus), "3000", "-o", str(path)], check=True)
    collection = read_path(path)
    built = search_index(collection)
    cache.settle()
    [entry] = index_entries()
    assert entry.stat().st_size < path.stat().st_size / 4
    assert results(search_index(collection), {}) == results(built, {})


def test_papers_read_from_the_parse_cache_find_their_index_without_hashing_every_text(long_list, states, no_build, monkeypatch):
    """A cached open finds its index by the parse the papers are (the list file's key, the parse cache's), not
    by a digest of every text: at 100,000 papers that digest held search back 0.4 s after the read."""
    from store.search import index_made

    parsed = read_path(long_list)  # parsed: the parse entry and then the index entry are written
    fresh = results(search_index(parsed), states)
    monkeypatch.setattr(index_made, "fingerprint", lambda papers: pytest.fail("every text hashed again"))
    no_build()
    assert results(search_index(read_path(long_list)), states) == fresh  # read from the parse cache


def test_papers_changed_after_they_were_read_get_an_index_of_their_own(long_list, states):
    """An index entry keyed by the parse stands for the papers read only: a collection whose papers were
    changed since is indexed as it is, never given the entry of the papers it was read with."""
    from store.papers.model import replaced

    collection = read_path(long_list)
    search_index(collection)
    collection.papers[0] = replaced(collection.papers[0], title="Grapefruit diffusion")
    index = search_index(collection)
    assert [hit.paper_id for hit in index.search("grapefruit")] == [collection.papers[0].id]
    assert results(index, states) == results(SearchIndex(collection.papers), states)


def test_a_loaded_index_answers_words_before_it_looks_at_links_and_venues(long_list, states, no_build, monkeypatch):
    """What `has:code`, `venue:`, `year:`… look at (a pass over every paper's links and fields, 0.2 s at
    100,000) is worked out when first asked, not before an index loaded from the cache can search; the
    answers are those of a fresh build."""
    from store.search import qualifiers

    fresh = results(SearchIndex(read_path(long_list).papers), states)
    search_index(read_path(long_list))
    no_build()
    worked_out = []
    ready = qualifiers.Facets.ready
    monkeypatch.setattr(qualifiers.Facets, "ready", lambda self: (worked_out.append(1), ready(self)))
    index = search_index(read_path(long_list))
    assert len(index.search("graph neural")) and worked_out == []
    assert results(index, states) == fresh and worked_out


def test_the_iclr_list_loads_its_index_from_the_cache(corpora, states, no_build):
    """A list of a conference's papers (2,260) keeps its index too: built at each open it cost a cached open
    ~0.5 s of CPU before search was ready and ~100 MB more at its peak; loaded, ~0.1 s."""
    path = corpora / "iclr-2024-abstracts.txt"
    fresh = results(search_index(read_path(path)), states)
    cache.settle()
    no_build()
    assert results(search_index(read_path(path)), states) == fresh


def test_an_index_unpacked_while_its_list_is_read_is_the_one_loaded(long_list, states, no_build, monkeypatch):
    """The app starts unpacking a cached list's index entry as it starts reading the list (`index_ahead`:
    decompressing lets go of the GIL, so the two overlap) and the index is made of those parts."""
    fresh = results(search_index(read_path(long_list)), states)
    cache.settle()
    unpacked_on = []
    stored_parts = index_cache._stored_parts
    monkeypatch.setattr(index_cache, "_stored_parts", lambda *args: (unpacked_on.append(threading.current_thread().name),
                                                                 stored_parts(*args))[1])
    no_build()
    index_cache.index_ahead([str(long_list)])
    assert results(search_index(read_path(long_list)), states) == fresh
    assert unpacked_on == ["index ahead"]


def test_an_index_unpacked_ahead_is_not_believed_for_a_list_changed_before_it_was_read(long_list, states):
    """The parts unpacked ahead stand for the list as it was when they were asked for: changed before its
    read, the list is read and indexed anew, its entry damaged, built again; never a crash."""
    search_index(read_path(long_list))
    cache.settle()
    index_cache.index_ahead([str(long_list)])
    long_list.write_text(re.sub("raph (?=neural)", "rape ", long_list.read_text(encoding="utf-8"), flags=re.I), encoding="utf-8")
    changed = read_path(long_list)
    index = search_index(changed)
    assert len(index.search("'grape")) == 2
    assert results(index, states) == results(SearchIndex(changed.papers), states)
    cache.settle()
    [entry] = index_entries()
    entry.write_bytes(entry.read_bytes()[:1000])
    index_cache.index_ahead([str(long_list)])
    assert results(search_index(read_path(long_list)), states) == results(index, states)


def test_an_index_entry_written_part_by_part_is_what_savez_writes(corpora, tmp_path):
    """The entry is written a part at a time (`index_entry.write`: one part's compressed bytes held at once): it
    reads back as `np.savez` of the packed parts does, part for part, and unpacks to the index's parts."""
    parts = SearchIndex(read_path(corpora / "iclr-2024-abstracts.txt").papers).parts()
    key = np.frombuffer(b"a key", np.uint8)
    with (tmp_path / "written.npz").open("wb") as out:
        index_entry.write(out, parts, key=key)
    np.savez(tmp_path / "saved.npz", key=key, **index_entry.packed(parts))
    with np.load(tmp_path / "written.npz") as written, np.load(tmp_path / "saved.npz") as saved:
        assert written.files == saved.files
        assert all(written[name].dtype == saved[name].dtype and np.array_equal(written[name], saved[name]) for name in saved.files)
        again = index_entry.unpacked({name: written[name] for name in written.files if name != "key"})
    assert all(np.array_equal(again[name], parts[name]) for name in parts)
