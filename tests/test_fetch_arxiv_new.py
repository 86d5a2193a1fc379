"""`triage fetch arxiv CAT... --new`: arXiv's daily announcement feed (RSS) served on loopback, saved as
a dated .rss file that reopens offline, each paper's announce type (new, cross, replace,
replace-cross) kept and found by `announce:`."""
from __future__ import annotations

import json

from store.readers import read_path
from tests.hostile import one_line, triage
from tests.loopback import arxiv_rss, corpus_records, sample_records, serving, stamped, today



def fetch(server, *cats):
    return triage("fetch", "arxiv", *cats, "--new", "--delay", "0.01", "--timeout", "10",
                  env={"TRIAGE_ARXIV_FEED": server.url + "/rss/"})


def listed(path, *args):
    done = triage("list", str(path), "--format", "jsonl", *args)
    return [json.loads(line) for line in done.stdout.split("\n") if line]


def test_the_days_announcements_are_saved_and_reopen_offline_by_announce_type(tmp_path):
    records = stamped(sample_records(12))
    with serving({"/rss/cs.LG": arxiv_rss(records)}) as server:
        done = fetch(server, "cs.LG")
        again = fetch(server, "cs.LG")
    path = tmp_path / "lists" / f"arxiv-new-cs.LG-{today()}.rss"
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == (f"{path}\n", f"triage: 12 new papers saved in {path}\n")
    assert (again.returncode, again.stderr) == (1, "triage: nothing new since the last fetch\n")
    assert server.requests[0][0] == "/rss/cs.LG"
    found = listed(path)  # (the server is gone: offline)
    assert [(p["title"], p["text"], p["arxiv"]) for p in found] == [
        (r["title"], r["abstract"].strip(), r["arxiv"]) for r in records]
    assert found[0]["authors"] == records[0]["authors"] and found[0]["keywords"] == ["cs.LG"]
    assert found[0]["links"][0] == f"https://arxiv.org/abs/{records[0]['arxiv']}"
    assert [p["title"] for p in listed(path, "--query", "announce:new")] == [r["title"] for r in records[0::4]]
    assert [p["title"] for p in listed(path, "--query", "announce:replace-cross")] == [r["title"] for r in records[3::4]]
    assert len(listed(path, "--query", "-announce:new")) == 9
    copy = tmp_path / "announced.txt"  # (a feed under another name is known by its content)
    copy.write_bytes(path.read_bytes())
    assert [p.title for p in read_path(copy).papers] == [r["title"] for r in records]


def test_several_categories_are_one_feed(tmp_path, corpora):
    records = stamped(corpus_records(corpora)[:300])
    for i, r in enumerate(records):
        r["categories"] = ["cs.CL", "cs.LG"] if i % 3 else ["cs.CL"]
    with serving({"/rss/cs.LG+cs.CL": arxiv_rss(records)}) as server:
        done = fetch(server, "cs.LG", "cs.CL")
    assert done.returncode == 0, done.stderr
    assert len(read_path(done.stdout.strip()).papers) == 300


def test_an_empty_day_saves_nothing(tmp_path):
    with serving({"/rss/cs.LG": arxiv_rss([])}) as server:
        done = fetch(server, "cs.LG")
    assert (done.returncode, done.stderr) == (1, "triage: nothing new since the last fetch\n")
    assert not (tmp_path / "lists").exists()


def test_a_malformed_feed_is_one_line_naming_its_url_exit_2(tmp_path):
    with serving({"/rss/cs.LG": arxiv_rss(stamped(sample_records(4)))}) as server:
        server.faults.append("malformed")
        done = fetch(server, "cs.LG")
    assert done.returncode == 2
    assert one_line(done).startswith(f"triage: {server.url}/rss/cs.LG:") and ": not valid XML: " in one_line(done)
    assert not (tmp_path / "lists").exists()


def test_an_http_error_is_one_line_naming_the_url_and_status(tmp_path):
    with serving({"/rss/cs.LG": arxiv_rss(stamped(sample_records(4)))}) as server:
        server.failing = lambda q: "503"
        done = fetch(server, "cs.LG")
    assert done.returncode == 2
    assert one_line(done) == (f"triage: {server.url}/rss/cs.LG: HTTP 503 Service Unavailable (after 4 tries)"
                              " — 0 fetched; run again to resume")


def test_new_takes_no_dates():
    done = triage("fetch", "arxiv", "cs.LG", "--new", "--days", "3")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == "triage fetch: error: argument --days: not allowed with argument --new"
