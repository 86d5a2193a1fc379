"""`q` right after a cold open of a long list, in tmux: the installed `triage` exits at once though its cache
entries are still being written (they are given up: none is left half-written, and the next open works)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from store.readers import cache
from tests.tmux import Tmux, triage_command

QUIT_WITHIN = 8.0
"""How long the app may take to be gone after `q` (the aim is about a second; before, it waited for the
cache writers: 11 s at 100,000 abstracts on an idle machine, 22 s on a busy one)."""


def writing(folder: Path) -> bool:
    """Whether a cache entry is being written in `folder` (its temporary file is there)."""
    return any(folder.glob(".*.tmp"))


def wait(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.05)


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
            cache._unsealed(entry.read_bytes())

    again = Tmux(f"{triage_command()} {path}")
    try:
        again.wait_for(lambda s: "100000 of 100000 shown" in s, timeout=600)  # read whole
        again.quit()
    finally:
        again.kill()
