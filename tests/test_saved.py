"""Saved searches in the database (store.marks.saved): kept across reopening and processes, bad entries skipped."""
from __future__ import annotations

import pytest

from store.marks import saved
from store.marks.db import TriageStore


def test_a_saved_search_survives_reopening_and_is_found_by_name_and_letter(tmp_path):
    path = tmp_path / "triage.json"
    store = TriageStore(path)
    saved.apply(store, saved.saving("to read", "is:unread has:code", "r"))
    saved.apply(store, saved.saving("graphs", "graph -video", "a"))
    store.close()

    again = saved.load(TriageStore(path))
    assert [(s.letter, s.name, s.query) for s in again] == [("a", "graphs", "graph -video"), ("r", "to read", "is:unread has:code")]
    assert again.named("graphs").letter == "a" and again.on("r").name == "to read"
    assert again.of_query("graph -video").name == "graphs" and again.free_letter() == "b"
    assert again.notices == ()


def test_saving_on_a_taken_letter_or_name_replaces_that_search_and_forget_deletes(tmp_path):
    store = TriageStore(tmp_path / "triage.json")
    saved.apply(store, saved.saving("graphs", "graph", "a"))
    saved.apply(store, saved.saving("llm", "language model", "b"))
    searches = saved.apply(store, saved.saving("llm agents", "llm agent", "a"))  # takes a from graphs
    assert [(s.letter, s.name) for s in searches] == [("a", "llm agents"), ("b", "llm")]
    searches = saved.apply(store, saved.saving("llm", "large language model", "c"))  # same name: moves it
    assert [(s.letter, s.name, s.query) for s in searches] == [("a", "llm agents", "llm agent"), ("c", "llm", "large language model")]
    assert [s.name for s in saved.apply(store, saved.forgetting("llm agents"))] == ["llm"]
    assert [s.name for s in saved.load(store)] == ["llm"]
    store.close()


def test_two_windows_saving_keep_each_others_searches(tmp_path):
    path = tmp_path / "triage.json"
    first, second = TriageStore(path), TriageStore(path)
    saved.apply(first, saved.saving("graphs", "graph", "a"))
    saved.apply(second, saved.saving("llm", "language model", "b"))
    assert [s.name for s in saved.load(first)] == ["graphs", "llm"]
    first.close()
    second.close()


@pytest.mark.parametrize(("name", "query", "letter", "why"), [
    ("empty", "  ", "a", "the query is empty"),
    (" ", "graph", "a", "needs a name"),
    ("graphs", "graph", "A", "a–z"),
    ("graphs", "graph", "ab", "a–z"),
    ("graphs\x1b[31m", "graph", "a", "control characters"),
])
def test_what_cannot_be_saved_is_refused_and_nothing_is_written(tmp_path, name, query, letter, why):
    store = TriageStore(tmp_path / "triage.json")
    with pytest.raises(ValueError, match=why):
        saved.apply(store, saved.saving(name, query, letter))
    assert store.setting(saved.KEY) == {}
    store.close()


def test_bad_stored_entries_are_skipped_with_a_notice_and_kept_in_the_file(tmp_path):
    path = tmp_path / "triage.json"
    store = TriageStore(path)
    store.put_setting(saved.KEY, {"searches": {
        "good": {"query": "graph", "letter": "g"},
        "no letter": {"query": "llm"},
        "not a dict": "graph",
        "bad letter": {"query": "llm", "letter": "7"},
        "same letter": {"query": "diffusion", "letter": "g"},
        "number query": {"query": 3, "letter": "n"},
        "escape\x1b]52;c;x\x07": {"query": "x", "letter": "e"},
    }})
    searches = saved.load(store)
    assert [s.name for s in searches] == ["good"]
    assert len(searches.notices) == 6
    assert "Saved search 'bad letter' skipped: the letter must be one of a–z" in searches.notices
    assert "Saved search 'same letter' skipped: its letter g is 'good''s" in searches.notices
    assert all("\x1b" not in notice and "\x07" not in notice for notice in searches.notices)
    saved.apply(store, saved.saving("new", "diffusion", "d"))  # a save keeps what it could not read
    assert "no letter" in store.setting(saved.KEY)["searches"]
    store.close()


@pytest.mark.parametrize("doc", [{"searches": ["graph"]}, {"searches": "graph"}, {"searches": None}])
def test_a_stored_document_that_is_not_searches_is_a_notice(tmp_path, doc):
    store = TriageStore(tmp_path / "triage.json")
    store.put_setting(saved.KEY, doc)
    searches = saved.load(store)
    assert len(searches) == 0 and searches.notices
    assert [s.name for s in saved.apply(store, saved.saving("graphs", "graph", "a"))] == ["graphs"]
    store.close()
