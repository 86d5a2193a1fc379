"""`triage list --query`: the app's search engine and order on the command line."""
from __future__ import annotations

import json
import os

from store.search.engine import Engine
from store.papers.model import Triage
from store.readers import read_path
from store.marks.db import TriageStore
from tests.test_cli import triage

CDRL, HDGNN, FAIRTUNE, SCL = "b0630d65dd", "3d09c6c056", "2d6a618095", "38521038a2"


def rows(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.split("\n") if line]  # (not splitlines: a title may hold U+2028)


def test_query_finds_and_ranks_like_the_app(seed_path):
    result = triage("list", "--query", "difusion recovry", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    [row] = rows(result)
    assert row["id"] == CDRL and row["score"] > 0
    result = triage("list", "-q", "llm", "--format", "jsonl")
    assert [row["id"] for row in rows(result)] == Engine.of(read_path(seed_path).papers).search("llm").ids


def test_query_table_prints_matches_best_first():
    result = triage("list", "--query", "hdgnn | fairtune")
    assert [line.split()[0] for line in result.stdout.splitlines()] == [HDGNN, FAIRTUNE]


def test_nothing_matched_exits_1():
    result = triage("list", "--query", "zzzqqq")
    assert (result.returncode, result.stdout) == (1, "")


def test_a_malformed_query_says_why_and_lists_nothing():
    result = triage("list", "--query", 'foo:bar "diffusion recovery', "--format", "jsonl")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("triage: query 'foo:bar \"diffusion recovery': unknown qualifier foo:")
    assert "unclosed quote" in result.stderr and "Traceback" not in result.stderr


def test_state_qualifiers_read_the_database(seed_path):
    store = TriageStore(os.environ["TRIAGE_DB"])
    store.attach(read_path(seed_path).papers)
    store.put({SCL: Triage(starred=True, priority=2), CDRL: Triage(read=True)})
    store.close()
    assert [row["id"] for row in rows(triage("list", "-q", "is:starred", "--format", "jsonl"))] == [SCL]
    unread = rows(triage("list", "-q", "is:unread diffusion", "--format", "jsonl"))
    assert CDRL not in {row["id"] for row in unread}


def test_export_takes_the_same_query():
    result = triage("export", "--query", "hdgnn | fairtune", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert [row["id"] for row in rows(result)] == [HDGNN, FAIRTUNE]


def test_five_hundred_identical_terms_answer_as_one(corpora):
    iclr = str(corpora / "iclr-2024-papers.jsonl")
    many = triage("list", iclr, "-q", "|".join(["a"] * 500), "--format", "jsonl")
    one = triage("list", iclr, "-q", "a", "--format", "jsonl")
    assert many.returncode == 0, many.stderr
    assert many.stdout == one.stdout and many.stdout.count("\n") > 2000


def test_a_query_over_the_caps_is_refused_in_one_short_line():
    for text, said in ((("graph | " * 10_000) + "graph", "characters"), ("|".join(f"w{k}" for k in range(150)), "terms")):
        result = triage("list", "-q", text, "--format", "jsonl")
        assert (result.returncode, result.stdout) == (2, "")
        [line] = result.stderr.splitlines()
        assert line.startswith("triage: query ") and "too long: " in line and said in line and len(line) < 160


def test_upper_case_and_or_not_are_operators_on_the_iclr_list(corpora):
    """As in Scopus, Web of Science, arXiv and PubMed; before, `llm AND agent` found 0 papers, `llm OR agent` 2."""
    iclr = str(corpora / "iclr-2024-papers.jsonl")

    def ids(query: str) -> list[str]:
        result = triage("list", iclr, "-q", query, "--format", "jsonl")
        assert result.returncode == 0, result.stderr
        return [row["id"] for row in rows(result)]

    for spelled, meant in (("llm AND agent", "llm agent"), ("llm OR agent", "llm | agent"), ("NOT graph", "-graph")):
        assert ids(spelled) == ids(meant), spelled
    assert len(ids("llm OR agent")) > 400
