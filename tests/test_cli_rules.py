"""`triage rules` as a user runs it (the real command in a subprocess): list, add, remove, preview, bad input in
one line (exit 2); and the rules marking the papers the command line sees first (`triage list`, `triage fetch`)."""
from __future__ import annotations

import json
import os

import pytest

from store.marks.db import TriageStore
from store.papers.model import Triage
from store.readers import read_path
from tests.hostile import one_line, rows, triage
from tests.loopback import sample_records


def write(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_add_list_preview_remove_round_trip(tmp_path):
    listing = tmp_path / "papers.jsonl"
    write(listing, sample_records(12))  # one keyword each: "federated" on paper 10, "graph" on 0
    assert triage("rules").returncode == 1  # none yet: nothing printed
    added = triage("rules", "add", "kw:federated")
    assert (added.returncode, added.stderr) == (0, "triage: rule 1: dismiss kw:federated (papers that arrive from now on)\n")
    assert triage("rules", "add", 'title:"graph methods"', "--tag", "later").returncode == 0
    assert triage("rules", "add", "kw:federated").stderr.startswith("triage: rule 1:")  # there already: not twice
    listed = triage("rules", "list")
    assert listed.stdout == '  1  dismiss      kw:federated\n  2  tag later    title:"graph methods"\n'
    preview = triage("rules", "preview", "1", str(listing))
    assert preview.returncode == 0 and "Sample paper 10: federated methods" in preview.stdout
    assert len(preview.stdout.splitlines()) == 1
    assert preview.stderr == ("triage: 1 papers match kw:federated; 1 have no mark (the rule would dismiss such papers "
                              "as they arrive)\n")
    assert rows(triage("list", str(listing), "--format", "jsonl", "-q", "is:new"))  # the preview opened nothing
    removed = triage("rules", "remove", "1")
    assert (removed.returncode, removed.stderr) == (0, "triage: removed rule 1: dismiss kw:federated\n")
    assert triage("rules").stdout == '  1  tag later    title:"graph methods"\n'


@pytest.mark.parametrize("args, says", [
    (["add", "is:stared"], "query 'is:stared': is: needs one of read, unread, starred, dismissed, new"),
    (["add", "kw:"], "query 'kw:': kw: needs a value"),
    (["add", "kw:x", "--tag", "two words"], "rule 'kw:x': a tag is one word"),
    (["add"], "give one query (quoted)"),
    (["remove", "3"], "no rule '3' (the rules are none: triage rules add QUERY adds one)"),
    (["remove"], "give the rule's number"),
    (["preview", "x"], "no rule 'x'"),
    (["list", "--star"], "--dismiss, --star and --tag are for triage rules add"),
])
def test_bad_input_is_one_line_naming_it_exit_2_and_nothing_is_stored(args, says):
    done = triage("rules", *args)
    assert done.returncode == 2 and says in one_line(done, start="")
    assert TriageStore(os.environ["TRIAGE_DB"]).setting("rules").get("rules", []) == []


@pytest.mark.parametrize("args, says", [
    (["add", "kw:x", "--star", "--tag", "t"], "argument --tag: not allowed with argument --star"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_words_argparse_refuses_end_in_the_line_naming_them_exit_2(args, says):
    done = triage("rules", *args)
    assert done.returncode == 2 and "Traceback" not in done.stderr and says in done.stderr.splitlines()[-1]


def test_triage_list_marks_the_papers_it_sees_first_once_and_never_one_with_a_mark(tmp_path):
    listing = tmp_path / "daily.jsonl"
    records = sample_records(24)  # "federated" on papers 10 and 22
    write(listing, records[:12])
    triage("rules", "add", "kw:federated")
    first = triage("list", str(listing), "--format", "jsonl")
    assert first.stderr == "triage: 1 paper dismissed by rule kw:federated (triage rules lists the rules)\n"
    assert [row["title"] for row in rows(first) if row["dismissed"]] == ["Sample paper 10: federated methods"]
    triage("set", rows(first)[10]["id"], "--undismiss", str(listing))  # you take it off: it stays off
    write(listing, records)
    later = read_path(str(listing)).papers
    store = TriageStore(os.environ["TRIAGE_DB"])
    store.put({later[22].id: Triage(note="keep me")})  # marked before it arrives: left alone
    store.close()
    second = triage("list", str(listing), "--format", "jsonl")
    assert second.stderr == ""  # no paper the rule matches arrived without a mark
    assert not any(row["dismissed"] for row in rows(second)) and rows(second)[22]["note"] == "keep me"


def test_triage_fetch_marks_what_it_saved_that_the_database_never_saw(tmp_path, arxiv_server):
    triage("rules", "add", "title:federated", "--tag", "fl")  # (an arXiv listing's keywords are its categories)
    done = triage("fetch", "arxiv", "cs.LG", "--delay", "0.01", "--timeout", "10",
                  env={"TRIAGE_ARXIV_API": arxiv_server.url + "/api/query"})
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("triage: 1 paper tagged fl by rule title:federated (triage rules lists the rules)\n")
    listed = triage("list", done.stdout.strip(), "--format", "jsonl")
    assert listed.stderr == ""  # opened now: the paper is marked already, nothing is marked twice
    assert [(row["title"], row["tags"]) for row in rows(listed) if row["tags"]] == [("Sample paper 10: federated methods", ["fl"])]
