"""`triage list --saved NAME`: a search saved in the app, run from the command line like `--query`."""
from __future__ import annotations

import os

import pytest

from store.papers.model import Triage
from store.readers import read_path
from store.marks import saved
from store.marks.db import TriageStore
from tests.test_cli import triage


def save(*searches: tuple[str, str, str]) -> None:
    store = TriageStore(os.environ["TRIAGE_DB"])
    for name, query, letter in searches:
        saved.apply(store, saved.saving(name, query, letter))
    store.close()


@pytest.mark.parametrize("fmt", ["table", "jsonl"])
def test_saved_prints_what_its_query_prints(fmt):
    save(("llm", "llm -agent", "l"))
    by_name = triage("list", "--saved", "llm", "--format", fmt)
    by_query = triage("list", "--query", "llm -agent", "--format", fmt)
    assert by_name.returncode == 0 and by_name.stderr == ""
    assert by_name.stdout == by_query.stdout and by_name.stdout.count("\n") >= 3


def test_a_saved_search_with_marks_over_the_long_real_list(corpora):
    iclr = str(corpora / "iclr-2024-papers.jsonl")
    papers = read_path(iclr).papers
    store = TriageStore(os.environ["TRIAGE_DB"])
    store.attach(papers)
    store.put({paper.id: Triage(starred=True) for paper in papers[1000:1040]})
    store.close()
    save(("starred graphs", "is:starred graph", "g"))
    by_name = triage("list", iclr, "--saved", "starred graphs", "--sort", "file")
    by_query = triage("list", iclr, "-q", "is:starred graph", "--sort", "file")
    assert by_name.returncode == 0, by_name.stderr
    assert by_name.stdout == by_query.stdout and 0 < by_name.stdout.count("\n") < 40


def test_saved_and_query_together_are_refused():
    save(("llm", "llm", "l"))
    result = triage("list", "--saved", "llm", "-q", "graph")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "triage: give --saved NAME or --query Q, not both\n"


def test_an_unknown_name_is_refused_naming_the_saved_ones():
    save(("llm", "llm", "l"), ("graphs", "graph", "g"))
    result = triage("list", "--saved", "lm")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("triage: no saved search 'lm' in ")
    assert result.stderr.endswith("; saved: 'graphs', 'llm'\n")


def test_with_none_saved_it_says_how_to_save_one():
    result = triage("list", "--saved", "llm")
    assert result.returncode == 2
    assert result.stderr.endswith("; none is saved yet (in the app, M saves the query)\n")


def test_bad_stored_entries_are_one_line_each_and_the_good_one_runs():
    store = TriageStore(os.environ["TRIAGE_DB"])
    store.put_setting(saved.KEY, {"searches": {
        "llm": {"query": "llm", "letter": "l"},
        "evil\x1b[2J": {"query": "graph", "letter": "e"},
        "old": {"query": "graph"},
    }})
    store.close()
    result = triage("list", "--saved", "llm")
    assert result.returncode == 0
    assert result.stderr.splitlines() == [
        "triage: Saved search 'evil\\x1b[2J' skipped: control characters cannot be saved",
        "triage: Saved search 'old' skipped: it is not a query with a letter",
    ]
    assert result.stdout == triage("list", "-q", "llm").stdout


def test_a_huge_saved_query_is_refused_in_one_line():
    save(("huge", "|".join(["a"] * 600_000), "h"))  # 1.2 MB: counted term by term it ran for minutes
    result = triage("list", "--saved", "huge")
    assert (result.returncode, result.stdout) == (2, "")
    [line] = result.stderr.splitlines()
    assert line.startswith("triage: query 'a|a|a") and line.endswith("too long: 1,199,999 characters (at most 4,000)")
