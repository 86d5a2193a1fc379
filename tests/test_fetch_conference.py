"""`triage fetch conference NAME YEAR`: a conference virtual site's public JSON (its events, and the
abstracts sidecar where the year has one) served on loopback, saved as a dated list whose papers keep
their poster session, time, room and board: shown in the detail pane, found by `session:`, sorted by
the session's time, and read again offline."""
from __future__ import annotations

import json

import pytest

from store.papers.model import Collection
from store.readers import read_path
from tests.hostile import one_line, triage
from tests.loopback import conference_events, conference_site, corpus_records, sample_records, serving, today
from tui.app import TriageApp
from tui.widgets.detail import DetailPane

EVENTS = "/static/virtual/data/iclr-2024-orals-posters.json"


def fetch(server, *args):
    return triage("fetch", "conference", *args, "--delay", "0.01", "--timeout", "10",
                  env={"TRIAGE_CONFERENCE_SITE": server.url})


def listed(path, *args):
    done = triage("list", str(path), "--format", "jsonl", *args)
    return [json.loads(line) for line in done.stdout.split("\n") if line]


@pytest.fixture
def records():
    return sample_records(12)


@pytest.mark.parametrize("inline", [False, True], ids=["sidecar", "inline"])
def test_the_program_is_saved_with_abstracts_and_reopens_offline_by_session(tmp_path, records, inline):
    payload, abstracts = conference_events(records, inline=inline)
    with serving(conference_site(payload, None if inline else abstracts)) as server:
        done = fetch(server, "ICLR", "2024")
        again = fetch(server, "iclr", "2024")
    path = tmp_path / "lists" / f"conference-iclr-2024-{today()}.jsonl"
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == (f"{path}\n", f"triage: 12 new papers saved in {path}\n")
    assert (again.returncode, again.stderr) == (1, "triage: nothing new since the last fetch\n")
    saved = [json.loads(line) for line in path.read_text().splitlines()]  # the site's events, one a line
    assert [e["id"] for e in saved] == [e["id"] for e in payload["results"]]
    found = listed(path)  # (the server is gone: offline)
    assert [(p["title"], p["text"]) for p in found] == [(r["title"], r["abstract"].strip()) for r in records]
    assert (found[0]["venue"], found[0]["year"], found[0]["track"]) == ("ICLR 2024", 2024, "poster")
    assert found[0]["authors"] == records[0]["authors"] and found[0]["area"] == records[0]["primary_area"]
    second = [r["title"] for r in records[1::6]]  # dealt round six sessions: 1, 7 are in the second
    assert [p["title"] for p in listed(path, "--query", 'session:"poster session 2"')] == second
    assert [p["title"] for p in listed(path, "--query", "session:wed")] == [r["title"] for r in records if records.index(r) % 6 in (2, 3)]
    plan = [p["title"] for p in listed(path, "--sort", "session")]  # a plan of the days: by session time
    assert plan == [records[i]["title"] for s in range(6) for i in range(s, 12, 6)]


def test_a_real_corpus_keeps_every_paper(tmp_path, corpora):
    records = corpus_records(corpora)
    payload, abstracts = conference_events(records)
    with serving(conference_site(payload, abstracts)) as server:
        done = fetch(server, "iclr", "2024")
    assert done.returncode == 0, done.stderr
    assert len(read_path(done.stdout.strip()).papers) == len(records)


async def test_the_detail_pane_shows_the_session_time_room_and_board(tmp_path, records):
    payload, abstracts = conference_events(records)
    with serving(conference_site(payload, abstracts)) as server:
        path = fetch(server, "iclr", "2024").stdout.strip()
    app = TriageApp(Collection(read_path(path).papers[1:2]))
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.press("less_than_sign")  # the pane half the width: each field on a line of its own
        await pilot.pause()
        lines = app.query_one(DetailPane).shown_text.splitlines()
    assert "Session  Poster Session 2 · Tue 7 May 16:30–18:30 · Halle B · board #2" in lines


async def test_an_oral_papers_talk_and_poster_are_both_its_slots(tmp_path, records):
    payload, abstracts = conference_events(records, orals=(0, 5))
    with serving(conference_site(payload, abstracts)) as server:
        path = fetch(server, "iclr", "2024").stdout.strip()
    found = listed(path)
    assert [p["title"] for p in found] == [records[i]["title"] for i in (0, 5, *range(1, 5), *range(6, 12))]
    assert [p["track"] for p in found[:3]] == ["oral", "oral", "poster"]
    assert [p["title"] for p in listed(path, "--query", 'session:"poster session 6"')] == [records[i]["title"] for i in (5, 11)]
    assert [p["title"] for p in listed(path, "--query", "session:oral")] == [records[0]["title"], records[5]["title"]]
    app = TriageApp(Collection(read_path(path).papers[1:2]))
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.press("less_than_sign")
        await pilot.pause()
        lines = app.query_one(DetailPane).shown_text.splitlines()
    assert "Session  Oral 1A · Tue 7 May 10:15–10:30 · Halle A" in lines
    assert "Also  Poster Session 6 · Thu 9 May 16:30–18:30 · Halle B · board #6" in lines


def test_a_malformed_page_is_one_line_naming_its_url_exit_2(tmp_path, records):
    payload, abstracts = conference_events(records)
    with serving(conference_site(payload, abstracts)) as server:
        server.faults.append("malformed")
        done = fetch(server, "iclr", "2024")
    assert done.returncode == 2
    assert one_line(done).startswith(f"triage: {server.url}{EVENTS}:1: not valid JSON: ")
    assert not (tmp_path / "lists").exists()


def test_an_http_error_is_one_line_naming_the_url_and_status(tmp_path, records):
    payload, abstracts = conference_events(records)
    with serving(conference_site(payload, abstracts)) as server:
        missing = fetch(server, "neurips", "2024")  # a year the site has no program for
        server.failing = lambda q: "503"
        busy = fetch(server, "iclr", "2024")
    assert missing.returncode == 2 and busy.returncode == 2
    assert one_line(missing) == (f"triage: {server.url}/static/virtual/data/neurips-2024-orals-posters.json: "
                                 "HTTP 404 Not Found: no such page — 0 fetched; run again to resume")
    assert one_line(busy).startswith(f"triage: {server.url}{EVENTS}: HTTP 503 Service Unavailable (after 4 tries)")


@pytest.mark.parametrize("args", [["iclr"], ["cvpr", "2024"], ["iclr", "24x"]])
def test_bad_arguments_are_one_line_exit_2(args):
    done = triage("fetch", "conference", *args)
    assert done.returncode == 2, done.stderr
    one_line(done)


def test_a_slot_from_the_site_is_text_never_markup_or_escapes(tmp_path, records):
    from store.papers.slots import slot

    payload, _ = conference_events(records[:1], inline=True)
    event = payload["results"][0]
    event.update(session="[@click=app.quit]Poster[/] \x1b]52;c;aGk=\x07Session 1", room_name="Hall\x1b[2J A",
                 poster_position="#7\u202e", starttime="soon")
    path = tmp_path / "program.jsonl"
    path.write_text(json.dumps({**event, "conference": "ICLR 2024"}) + "\n")
    assert slot(read_path(path).papers[0]) == "[@click=app.quit]Poster[/] Session 1 · soon · Hall A · board #7"
