"""What a fetch leaves (store.fetch.source, store.fetch.arxiv): the arXiv API's pages, served on
loopback, combined into one dated Atom file the readers read; a second fetch asks only for what is
new; a fault half-way keeps what came; nothing partial replaces a whole file."""
from __future__ import annotations

import re
import time

import pytest

from store.readers import read_path
from tests.loopback import arxiv_api, corpus_records, sample_records, serving, stamped, today



def run(server, folder, page_size=5, **kwargs):
    from store.fetch.arxiv import Arxiv
    from store.fetch.client import Client
    from store.fetch.source import fetch

    source = Arxiv(["cs.LG"], api=server.url + "/api/query", page_size=page_size)
    return fetch(source, Client(delay=0, timeout=60, retries=1, backoff=0.01), folder, **kwargs)


def titles(path):
    return [paper.title for paper in read_path(path).papers]


def test_the_pages_make_one_dated_atom_file_the_reader_reads(tmp_path):
    records = stamped(sample_records(12))
    with serving({"/api/query": arxiv_api(records)}) as server:
        outcome = run(server, tmp_path)
    assert outcome.path == tmp_path / f"arxiv-cs.LG-{today()}.atom"
    assert titles(outcome.path) == [r["title"] for r in records]
    assert [q["start"] for _, q, _ in server.requests] == ["0", "5", "10"]
    assert {(q["sortBy"], q["sortOrder"], q["max_results"]) for _, q, _ in server.requests} == {("submittedDate", "ascending", "5")}
    assert all(q["search_query"].startswith("(cat:cs.LG) AND submittedDate:[") for _, q, _ in server.requests)
    assert outcome.summary() == f"12 new papers saved in {outcome.path}"


def test_a_second_fetch_asks_only_for_what_came_since_and_adds_only_that(tmp_path):
    records = stamped(sample_records(12))
    with serving({"/api/query": arxiv_api(records)}) as server:
        run(server, tmp_path)
        again = run(server, tmp_path)
        assert again.path is None and again.summary() == "nothing new since the last fetch"
        newest = time.strftime("%Y%m%d%H%M", time.gmtime(records[-1]["when"]))
        assert f"submittedDate:[{newest} TO " in server.requests[-1][1]["search_query"]
        records += stamped(sample_records(15))[12:]  # three papers submitted since
        for r in records[12:]:
            r["when"] = time.time()
        more = run(server, tmp_path)
    assert more.new == 3
    assert titles(more.path) == [r["title"] for r in records]


def test_a_lasting_fault_half_way_keeps_what_came_and_the_next_run_resumes(tmp_path):
    records = stamped(sample_records(12))
    with serving({"/api/query": arxiv_api(records)}) as server:
        server.failing = lambda q: "503" if q.get("start") == "10" else None
        cut = run(server, tmp_path)
        assert str(cut.fault).endswith("HTTP 503 Service Unavailable (after 2 tries)")
        assert cut.summary() == f"10 of 12 fetched (kept in {cut.path}); run again to resume"
        assert len(titles(cut.path)) == 10
        server.failing = lambda q: None
        resumed = run(server, tmp_path)
    assert titles(resumed.path) == [r["title"] for r in records]


def test_a_malformed_page_is_one_error_naming_its_url_and_line_and_nothing_whole_is_replaced(tmp_path):
    from store.common.errors import ReadError

    records = stamped(sample_records(12))
    with serving({"/api/query": arxiv_api(records)}) as server:
        whole = run(server, tmp_path).path
        before = whole.read_bytes()
        server.faults.extend(["malformed"])
        outcome = run(server, tmp_path, since="2000-01-01T00:00:00Z")
    assert isinstance(outcome.fault, ReadError)
    assert re.fullmatch(rf"{re.escape(server.url)}/api/query\?search_query=.*start=0&max_results=5:\d+: not valid XML: .*",
                        str(outcome.fault))
    assert outcome.path is None and whole.read_bytes() == before


def test_an_empty_day_writes_nothing(tmp_path):
    with serving({"/api/query": arxiv_api([])}) as server:
        outcome = run(server, tmp_path)
    assert outcome.path is None and outcome.fault is None and list(tmp_path.iterdir()) == []


def test_a_damaged_saved_file_is_said_and_left_as_it_is(tmp_path):
    from store.common.errors import ReadError

    damaged = tmp_path / f"arxiv-cs.LG-{today()}.atom"
    damaged.write_text('<feed xmlns="http://www.w3.org/2005/Atom"><entry>')
    with serving({"/api/query": arxiv_api(stamped(sample_records(3)))}) as server, pytest.raises(ReadError, match="not valid XML"):
        run(server, tmp_path)
    assert damaged.read_text().endswith("<entry>")


def test_a_real_corpus_in_pages_of_1000(tmp_path, corpora):
    records = stamped(corpus_records(corpora))
    with serving({"/api/query": arxiv_api(records)}) as server:
        outcome = run(server, tmp_path, page_size=1000)
    assert len(server.requests) == 3
    assert titles(outcome.path) == [" ".join(r["title"].split()) for r in records]


def test_a_feeds_sidecar_says_how_to_fetch_it_again_and_a_hostile_one_is_not_read(tmp_path):
    import os

    from store.fetch import saved

    folder = tmp_path / "lists"
    day = folder / f"openreview-ICLR.cc_2025_Conference-{today()}.jsonl"
    assert saved.recall(day) is None  # (no sidecar: a list that was not fetched)
    saved.remember(folder, "openreview-ICLR.cc_2025_Conference", ["openreview", "ICLR.cc/2025/Conference"])
    assert saved.recall(day) == ["openreview", "ICLR.cc/2025/Conference"]
    assert saved.recall(folder / "openreview-ICLR.cc_2025_Conference.jsonl") is None  # not a dated list
    sidecar = folder / f"openreview-ICLR.cc_2025_Conference{saved.FEED}"
    for hostile in ("link", "fifo", "huge", "not json", "not words"):
        sidecar.unlink()
        if hostile == "link":
            (tmp_path / "elsewhere").write_text('{"fetch": ["arxiv", "cs.LG"]}')
            sidecar.symlink_to(tmp_path / "elsewhere")
        elif hostile == "fifo":
            os.mkfifo(sidecar)
        elif hostile == "huge":
            sidecar.write_text('{"fetch": ["arxiv", "' + "x" * (saved.SIDECAR_LIMIT + 1) + '"]}')
        else:
            sidecar.write_text("{fetch" if hostile == "not json" else '{"fetch": [1, 2]}')
        assert saved.recall(day) is None, hostile
