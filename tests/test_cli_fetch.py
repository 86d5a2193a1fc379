"""`triage fetch` as a user runs it: the real command in a subprocess against a real HTTP server on
loopback serving the arXiv API, OpenReview API v2 and plain files, faults included."""
from __future__ import annotations

import gzip
import json
import socket

import pytest

from tests.hostile import one_line, triage
from tests.loopback import corpus_records, openreview_api, openreview_notes, sample_records, serving, today

VENUE = "ICLR.cc/2024/Conference"


def fetch(*args, env=None):
    mirror = [] if args[0].startswith("http") else ["--delay", "0.01"]  # (a mirror of a source may be paced faster)
    return triage("fetch", *args, *mirror, "--timeout", "10", env=env)


def listed(path):
    done = triage("list", str(path), "--format", "jsonl")
    return [json.loads(line) for line in done.stdout.split("\n") if line]  # (not splitlines: U+2028 in abstracts)


def test_fetch_arxiv_saves_a_dated_list_the_app_reads(tmp_path, arxiv_server):
    done = fetch("arxiv", "cs.LG", env={"TRIAGE_ARXIV_API": arxiv_server.url + "/api/query"})
    path = tmp_path / "lists" / f"arxiv-cs.LG-{today()}.atom"
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{path}\n"
    assert done.stderr == f"triage: 12 new papers saved in {path}\n"
    assert [r["title"] for r in listed(path)] == [r["title"] for r in arxiv_server.records]
    again = fetch("arxiv", "cs.LG", "--endpoint", arxiv_server.url + "/api/query")
    assert (again.returncode, again.stdout, again.stderr) == (1, f"{path}\n", "triage: nothing new since the last fetch\n")


@pytest.mark.parametrize("fault", ["429", "503", "cut"])
def test_a_passing_fault_is_retried_and_the_fetch_completes(tmp_path, arxiv_server, fault):
    arxiv_server.faults.extend([fault, fault])
    done = fetch("arxiv", "cs.LG", "--endpoint", arxiv_server.url + "/api/query")
    assert done.returncode == 0, done.stderr
    assert len(listed(tmp_path / "lists" / f"arxiv-cs.LG-{today()}.atom")) == 12


def test_a_lasting_fault_says_url_status_and_how_far_and_the_next_run_resumes(tmp_path, arxiv_server):
    arxiv_server.failing = lambda q: "503" if q.get("start") == "10" else None
    done = fetch("arxiv", "cs.LG", "--endpoint", arxiv_server.url + "/api/query")
    path = tmp_path / "lists" / f"arxiv-cs.LG-{today()}.atom"
    line = one_line(done)
    assert done.returncode == 2
    assert line.startswith(f"triage: {arxiv_server.url}/api/query?search_query=")
    assert line.endswith(f"start=10&max_results=2000: HTTP 503 Service Unavailable (after 4 tries) — "
                         f"10 of 12 fetched (kept in {path}); run again to resume")
    assert len(listed(path)) == 10
    arxiv_server.failing = lambda q: None
    assert fetch("arxiv", "cs.LG", "--endpoint", arxiv_server.url + "/api/query").returncode == 0
    assert len(listed(path)) == 12


def test_a_malformed_page_is_one_line_naming_it(tmp_path, arxiv_server):
    arxiv_server.faults.append("malformed")
    done = fetch("arxiv", "cs.LG", "--endpoint", arxiv_server.url + "/api/query")
    assert done.returncode == 2
    assert "start=0&max_results=2000:" in one_line(done) and ": not valid XML: " in one_line(done)
    assert not (tmp_path / "lists").exists()


def test_a_slow_source_times_out_in_one_line(arxiv_server):
    arxiv_server.faults.extend(["slow"] * 4)
    done = triage("fetch", "arxiv", "cs.LG", "--endpoint", arxiv_server.url + "/api/query", "--delay", "0.01",
                  "--timeout", "0.3")
    assert done.returncode == 2
    assert one_line(done).endswith("no answer within 0.3 s (after 4 tries) — 0 fetched; run again to resume")


def test_no_network_is_one_line_exit_2():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = fetch("arxiv", "cs.LG", "--endpoint", f"http://127.0.0.1:{port}/api/query")
    assert done.returncode == 2
    assert "cannot connect (Connection refused)" in one_line(done)


def test_the_public_sources_keep_their_pacing():
    done = triage("fetch", "arxiv", "cs.LG", "--delay", "0")
    assert done.returncode == 2 and "--delay is for a mirror" in one_line(done)


@pytest.mark.parametrize("args", [["nowhere"], ["arxiv"], ["openreview"], ["arxiv", "cs.LG", "--since", "yesterday"],
                                  ["ftp://example.org/a.bib"], ["https://example.org/page.html"]])
def test_bad_arguments_are_one_line_exit_2(args):
    done = triage("fetch", *args)
    assert done.returncode == 2, done.stderr
    one_line(done)


@pytest.fixture
def notes(request):
    records = corpus_records(request.getfixturevalue("corpora")) if request.param == "corpus" else sample_records(12)
    return records, openreview_notes(records, VENUE)


@pytest.mark.parametrize("notes", ["sample", "corpus"], indirect=True)
def test_fetch_openreview_reads_the_notes_of_a_venue_with_a_token(tmp_path, notes):
    records, venue_notes = notes
    with serving({"/notes": openreview_api(venue_notes, token="sesame")}) as server:
        refused = fetch("openreview", VENUE, env={"TRIAGE_OPENREVIEW_API": server.url})
        assert refused.returncode == 2
        assert "HTTP 403 Forbidden" in one_line(refused) and "$OPENREVIEW_TOKEN or a file named with --token-file" in one_line(refused)
        (tmp_path / "token").write_text("sesame\n")
        done = fetch("openreview", VENUE, "--token-file", str(tmp_path / "token"), env={"TRIAGE_OPENREVIEW_API": server.url})
        assert done.returncode == 0, done.stderr
        pages = [q["offset"] for _, q, _ in server.requests[1:]]
        assert pages == [str(k) for k in range(0, len(records), 1000)]
        again = fetch("openreview", VENUE, env={"TRIAGE_OPENREVIEW_API": server.url, "OPENREVIEW_TOKEN": "sesame"})
        assert again.returncode == 1 and server.requests[-1][1]["mintcdate"] == str(venue_notes[-1]["tcdate"])
    path = tmp_path / "lists" / f"openreview-ICLR.cc_2024_Conference-{today()}.jsonl"
    found = listed(path)
    assert [r["title"] for r in found] == [" ".join(r["title"].split()) for r in records]
    first = found[0]
    assert first["authors"] == records[0]["authors"] and first["keywords"] == records[0]["keywords"]
    assert first["links"][0] == "https://openreview.net/forum?id=note000000"
    assert first["pdf"].startswith("https://openreview.net/pdf/")
    assert first["tldr"] == records[0]["tldr"] and first["area"] == records[0]["primary_area"]


def test_fetch_url_saves_a_bib_and_unpacks_a_bib_gz(tmp_path):
    bib = b"@inproceedings{a1, title={A fetched paper}, author={Ann Author}, abstract={We fetch a list over HTTP.}}\n"
    routes = {"/v1/list.bib": lambda p, q, h: (200, {}, bib), "/v1/anthology.bib.gz": lambda p, q, h: (200, {}, gzip.compress(bib))}
    with serving(routes) as server:
        plain = fetch(server.url + "/v1/list.bib")
        packed = fetch(server.url + "/v1/anthology.bib.gz")
        again = fetch(server.url + "/v1/list.bib")
    assert (plain.returncode, packed.returncode, again.returncode) == (0, 0, 1), (plain.stderr, packed.stderr)
    assert plain.stdout == f"{tmp_path / 'lists' / f'url-127.0.0.1-list-{today()}.bib'}\n"
    assert packed.stdout == f"{tmp_path / 'lists' / f'url-127.0.0.1-anthology-{today()}.bib'}\n"
    assert [r["title"] for r in listed(packed.stdout.strip())] == ["A fetched paper"]


def test_a_404_names_the_url_and_status():
    with serving({}) as server:
        done = fetch(server.url + "/gone.jsonl")
    assert done.returncode == 2
    assert one_line(done) == f"triage: {server.url}/gone.jsonl: HTTP 404 Not Found: no such page — 0 fetched; run again to resume"
