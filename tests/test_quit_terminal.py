"""`q` during a cold open of a long list, in tmux: the installed `triage` exits at once while the list is read, while
its engine is built, and right after, though its cache entries are still being written (they are given up: none is
left half-written; a mark made meanwhile is kept, and the next open works). `python bench/quit.py LIST` times it."""
from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest

from store.readers import cache, sealed
from tests.tmux import Tmux, triage_command
from tests.waits import wait

QUIT_WITHIN = 8.0
"""How long the app may take to be gone after `q` (the aim is about a second; before, it waited for the
cache writers: 11 s at 100,000 abstracts on an idle machine, 22 s on a busy one)."""


def writing(folder: Path) -> bool:
    """Whether a cache entry is being written in `folder` (its temporary file is there)."""
    return any(folder.glob(".*.tmp"))


@pytest.mark.slow
def test_q_while_a_long_lists_cache_is_written_exits_at_once_and_the_next_open_works(generated, tmp_path):
    path = generated(100_000)
    folder = tmp_path / "cache"  # (the TRIAGE_CACHE of every test)
    terminal = Tmux(f"{triage_command()} {path}")
    try:
        wait(lambda: writing(folder), timeout=600)  # searchable, and the parse entry being written
        terminal.send("q")
        terminal.wait_for(lambda s: "EXIT=0" in s, timeout=QUIT_WITHIN, interval=0.05)
        assert not [line for line in terminal.processes() if "triage" in line]
    finally:
        terminal.kill()
    assert not writing(folder)  # a given-up entry leaves no temporary file behind
    for entry in folder.iterdir():  # and whatever is there is whole
        if entry.suffix in (cache.SUFFIX, cache.HEAD_SUFFIX, cache.IDS_SUFFIX):
            sealed.unsealed(entry.read_bytes())

    again = Tmux(f"{triage_command()} {path}")
    try:
        again.wait_for(lambda s: "100,000 of 100,000 shown" in s, timeout=600)  # read whole
        again.quit()
    finally:
        again.kill()


def header(screen: str) -> str:
    return screen.splitlines()[0] if screen else ""


def first_row(screen: str) -> str:
    lines = screen.splitlines()
    return lines[3] if len(lines) > 3 else ""


def parent(pid: int) -> int | None:
    """The parent of process `pid` (None once it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie does not: its parent has not reaped it yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("moment", ["reading", "indexing…"])
def test_q_while_a_long_list_is_read_or_indexed_ends_it_keeps_the_mark_and_the_next_open_searches(generated, tmp_path, moment):
    """`q` while a cold list is read (its worker processes at work) or its engine built ("indexing…"): the app is gone
    with every process it started, the terminal is the shell's again, a star made while the list was read is kept,
    and the next open (from what was finished, or read again) searches the whole list. An engine left half-built is
    never opened, and the next open's clean-up removes it."""
    path = generated(30_000)
    folder = tmp_path / "cache"  # (the TRIAGE_CACHE of every test)
    terminal = Tmux(f"{triage_command()} {path}")
    try:
        terminal.wait_for(lambda s: "reading" in header(s), timeout=300, interval=0.05)
        terminal.send("s")  # a star on the first paper, while the rest is read behind it
        terminal.wait_for(lambda s: "★" in first_row(s) and "1 ★" in header(s), interval=0.05)
        terminal.wait_for(lambda s: moment in header(s), timeout=600, interval=0.05)
        shell = int(terminal.command("list-panes", "-t", "t", "-F", "#{pane_pid}").split()[0])
        # (the app: the pane's shell's child, not the tmux server, whose command names the list too and which stays
        # until the pane's shell ends, a minute after the app: waiting for it took the test ~60 s)
        app = [pid for pid in map(int, filter(str.isdigit, (p.name for p in Path("/proc").iterdir())))
               if running(pid) and parent(pid) == shell
               and str(path) in " ".join(Path(f"/proc/{pid}/cmdline").read_text().split("\0"))]
        children = [int(child) for pid in app for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        terminal.send("q")
        screen = terminal.wait_for(lambda s: "EXIT=0" in s, interval=0.05)
        assert "shown" not in screen and "Traceback" not in screen  # the app's screen gone, the shell's back, nothing said
        assert app and children  # (the app, its fork server or resource tracker)
        wait(lambda: not any(map(running, app + children)), timeout=60,  # every process it started ends
             what=lambda: [Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ") for pid in app + children if running(pid)])
    finally:
        terminal.kill()
    assert not writing(folder)  # an entry given up leaves no temporary file behind

    again = Tmux(f"{triage_command()} {path}")
    try:
        again.wait_for(lambda s: "★" in first_row(s) and "1 ★" in header(s), timeout=300)  # the star kept
        again.send("/", *"graph")
        again.wait_for(lambda s: re.search(r"\b[\d,]+ of 30,000\b(?! shown)", s) is not None, timeout=600)  # searched, whole
        again.send("Enter")
        again.quit()
    finally:
        again.kill()
    assert not any(folder.glob("*.building-*"))  # the build the quit left was removed by the next open's clean-up


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGHUP, signal.SIGTERM, signal.SIGKILL], ids=["hangup", "termination", "kill"])
def test_a_hangup_or_kill_while_a_long_list_is_read_ends_every_process_it_started_and_keeps_the_star(generated, tmp_path, number):
    """The terminal closed (SIGHUP), `kill` (SIGTERM) or `kill -9` (SIGKILL, the OOM killer's: nothing the app does
    can run) while a cold list is read: the app ends of it as before, and every process it started ends with it (its
    fork server, resource tracker and workers stayed, orphaned, ~110 MB at 100,000 abstracts; after a SIGKILL, until
    the fork server was told to end with the app: tui.fork_server); the star it showed saved is kept."""
    path = generated(30_000)
    terminal = Tmux(f"{triage_command()} {path}")
    try:
        terminal.wait_for(lambda s: "reading" in header(s), timeout=300, interval=0.05)
        terminal.send("s")
        terminal.wait_for(lambda s: "1 ★" in header(s) and "saving" not in header(s) and "reading" in header(s), interval=0.05)
        shell = int(terminal.command("list-panes", "-t", "t", "-F", "#{pane_pid}").split()[0])
        app = [pid for pid in map(int, filter(str.isdigit, (p.name for p in Path("/proc").iterdir())))
               if running(pid) and parent(pid) == shell
               and str(path) in " ".join(Path(f"/proc/{pid}/cmdline").read_text().split("\0"))]
        started = [int(child) for pid in app for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        workers = [int(child) for pid in started for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        assert len(app) == 1 and workers  # (the fork server's workers, at the parse)
        os.kill(app[0], number)
        terminal.wait_for(lambda s: f"EXIT={128 + number}" in s)
        # (as the app itself after `q`: before, the orphans went on for up to a minute at 30,000 abstracts)
        wait(lambda: not any(map(running, app + started + workers)), timeout=QUIT_WITHIN,
             what=lambda: [Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ") for pid in app + started + workers
                           if running(pid)])
    finally:
        terminal.kill()

    again = Tmux(f"{triage_command()} {path}")
    try:
        again.wait_for(lambda s: "★" in first_row(s) and "1 ★" in header(s), timeout=300)  # the star kept
        again.quit()
    finally:
        again.kill()


def children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGKILL], ids=["termination", "kill"])
def test_a_command_killed_while_it_parses_leaves_no_worker_behind(generated, number):
    """`triage list` on a cold list, killed (SIGTERM, or SIGKILL, which nothing can catch) once its worker processes
    parse: they end with it. They stayed for good before, each blocked writing to its results pipe."""
    path = generated(30_000)
    command = subprocess.Popen([triage_command(), "list", str(path), "-q", "graph"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        wait(lambda: children(command.pid) or command.poll() is not None, timeout=300)
        workers = children(command.pid)
        assert workers and command.poll() is None  # (the parse on them)
        os.kill(command.pid, number)
        assert command.wait(timeout=60) == -number
        wait(lambda: not any(map(running, workers)), timeout=QUIT_WITHIN,
             what=lambda: [Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ") for pid in workers if running(pid)])
    finally:
        if command.poll() is None:
            command.kill()
        for pid in filter(running, workers):  # (a failure's orphans)
            os.kill(pid, signal.SIGKILL)
