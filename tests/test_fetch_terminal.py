"""Fetching in a real terminal (tmux) against a real HTTP server on loopback: `triage fetch … --open` and
`triage --fetch SPEC` open the app on what was fetched; the progress line of `triage fetch`."""
from __future__ import annotations

import re
import shlex
import subprocess

import pytest

from tests.loopback import arxiv_api, sample_records, serving, stamped, today
from tests.tmux import Tmux, triage_command



def test_fetch_open_opens_the_app_on_the_fetched_list(arxiv_server):
    term = Tmux(f"{triage_command()} fetch arxiv cs.LG --endpoint {arxiv_server.url}/api/query --delay 0.01 --open")
    try:
        term.wait_for(lambda s: "12 of 12 shown" in s and f"arxiv-cs.LG-{today()}.atom" in s and "Sample paper 0" in s)
        term.quit()
    finally:
        term.kill()


def test_triage_fetch_option_fetches_then_opens_the_app(tmp_path, arxiv_server):
    spec = f"arxiv cs.LG --endpoint {arxiv_server.url}/api/query --delay 0.01"
    term = Tmux(f"{triage_command()} --fetch {shlex.quote(spec)}")
    try:
        screen = term.wait_for(lambda s: "12 of 12 shown" in s or "EXIT=" in s)
        assert "12 of 12 shown" in screen and f"arxiv-cs.LG-{today()}.atom" in screen
        term.quit()
    finally:
        term.kill()
    assert (tmp_path / "lists" / f"arxiv-cs.LG-{today()}.atom").is_file()


def test_a_bad_fetch_spec_is_one_line_and_no_app():
    term = Tmux(f"{triage_command()} --fetch 'nowhere at all'")
    try:
        screen = term.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=2" in screen and "triage: no source 'nowhere'" in screen and "Traceback" not in screen
    finally:
        term.kill()


PROGRESS = re.compile(r"fetching arxiv-cs\.LG: page \d, \d+ of 12 papers, [\d,]+ a second(, about [\d,]+ s left)?")


@pytest.mark.parametrize("width", [120, 50])
def test_fetch_on_a_terminal_shows_a_progress_line_and_leaves_no_half_line(arxiv_server, width):
    """Three pages a second apart: the line says the page, the papers, the rate and the time left, fits the
    terminal (at 50 columns it is cut, never wrapped), and is gone once the fetch is done."""
    term = Tmux(f"{triage_command()} fetch arxiv cs.LG --endpoint {arxiv_server.url}/api/query --delay 1", width=width)
    try:
        seen = term.wait_for(lambda s: "page 2," in s or "EXIT=" in s)
        line = next(line for line in seen.splitlines() if line.startswith("fetching"))
        assert len(line) < width
        if width >= 100:
            assert PROGRESS.fullmatch(line.rstrip()) and "s left" in line, line
        screen = term.wait_for(lambda s: "EXIT=" in s)
        lines = [line for line in screen.splitlines() if line.strip()]
        assert lines[0].startswith("triage: 12 new papers saved"), screen
        assert "fetching" not in screen and "EXIT=0" in screen, screen
    finally:
        term.kill()


def test_F_fetches_the_newest_papers_of_the_open_feed_marks_them_new_keeps_marks_and_cursor(tmp_path):
    """The app opened on a list `triage fetch` saved; four papers more on the server; `F` in the app: the list grows
    in place (the header saying how far), the new rows marked + (is:new finds them), the star and the cursor's
    paper kept. Then a refused request: one line in the header, the list as it was."""
    records = stamped(sample_records(12))
    served = records[:8]
    with serving({"/api/query": arxiv_api(served, cap=4)}) as server:
        first = triage_fetch(server)
        assert first.returncode == 0, first.stderr
        # A list opened once before: its 8 papers are seen (not new) when the app opens it.
        subprocess.run([triage_command(), "list", first.stdout.strip()], capture_output=True, check=True, timeout=120)
        term = Tmux(f"{triage_command()} {first.stdout.strip()}")
        try:
            term.wait_for(lambda s: "8 of 8 shown" in s)
            term.send("s", "j", "j")
            term.wait_for(lambda s: "1 ★" in s and "in setting 2." in s and "saving…" not in s)
            served.extend(records[8:])
            term.send("F")
            term.wait_for(lambda s: "fetching: page 1, 4 of 5 papers" in s.splitlines()[0])  # (paced: 1 s a page)
            screen = term.wait_for(lambda s: "12 of 12 shown" in s and "1 ★" in s and "in setting 2." in s
                                   and "Sample paper 11" in s)
            rows = {line.split("Sample paper ")[1].split(":")[0]: line.split("▕")[0] for line in screen.splitlines()
                    if "Sample paper " in line and "▕" in line}
            assert all("+" in rows.get(str(i), "") for i in range(8, 12)), screen
            assert not any("+" in rows.get(str(i), "+") for i in range(8)), screen
            assert "changed on disk" not in screen
            term.send("/", "is:new", "Enter")
            term.wait_for(lambda s: "4 of 12 shown" in s and "Sample paper 8" in s and "Sample paper 7" not in s)
            term.send("Escape")
            term.wait_for(lambda s: "12 of 12 shown" in s)
            server.failing = lambda q: "403"
            term.send("F")
            screen = term.wait_for(lambda s: "HTTP 403" in s and "12 of 12 shown" in s.splitlines()[0])
            header = screen.splitlines()[0]
            assert "not fetched from 127.0.0.1: HTTP 403 Forbidden" in header and "12 of 12 shown" in header, screen
            term.quit()
        finally:
            term.kill()


def test_F_on_a_list_that_was_not_fetched_says_so(tmp_path, seed_path):
    term = Tmux(f"{triage_command()} {seed_path}")
    try:
        term.wait_for(lambda s: "19 of 19 shown" in s)
        term.send("F")
        assert "19 of 19 shown" in term.wait_for(lambda s: "F: not a list triage fetch saved" in s)
    finally:
        term.kill()


def triage_fetch(server):
    return subprocess.run([triage_command(), "fetch", "arxiv", "cs.LG", "--endpoint", f"{server.url}/api/query",
                           "--delay", "1", "--timeout", "10"], capture_output=True, text=True, timeout=60)


def test_F_with_the_feeds_latest_file_damaged_says_so_in_the_header_and_the_app_goes_on(tmp_path):
    records = stamped(sample_records(6))
    with serving({"/api/query": arxiv_api(records)}) as server:
        first = triage_fetch(server)
        path = first.stdout.strip()
        term = Tmux(f"{triage_command()} {path}")
        try:
            term.wait_for(lambda s: "6 of 6 shown" in s)
            with open(path, "w") as file:
                file.write("<feed><entry>")
            term.send("F")
            # (the header fits its parts to the notice a frame after it shows: wait for both)
            term.wait_for(lambda s: "not fetched:" in s.splitlines()[0] and "6 of 6 shown" in s.splitlines()[0])
            assert "EXIT" not in term.screen()
            term.quit()
        finally:
            term.kill()
