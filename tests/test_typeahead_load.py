"""Type-ahead on a loaded machine (the installed `triage` in tmux, two busy loops beside it): a letter
typed at once after `'` reaches the saved-searches picker that `'` opens, on the ICLR list scrolled well down."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.test_saved_terminal import filter_line
from tests.tmux import Tmux, triage_command

NICE = 10
"""How much lower the app's priority is than the busy loops' (as on a machine at load ~20)."""


def loaded(command: str, pids: Path) -> str:
    """`command` started beside two `yes > /dev/null` loops in the same terminal session (the kernel shares
    the CPU out per session: loops elsewhere would not slow it), at a lower priority; the loops' ids in `pids`."""
    return (f"sh -c 'yes > /dev/null & echo $! > {pids}; yes > /dev/null & echo $! >> {pids}; "
            f"exec nice -n {NICE} {command}'")


def kill_loops(pids: Path) -> None:
    for pid in pids.read_text().split() if pids.exists() else ():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_letter_typed_right_after_the_quote_runs_its_saved_search_under_load(corpora, tmp_path, size):
    pids = tmp_path / "loops"
    term = Tmux(loaded(f"{triage_command()} --db {tmp_path / 'db.json'} {corpora / 'iclr-2024-papers.jsonl'}", pids), *size)
    try:
        term.wait_for(lambda s: "2260 of 2260 shown" in s, timeout=120)
        term.send("C-f", "C-f", "C-f")  # well past the first screen
        term.send("/")
        term.send("-l", "graph")
        term.wait_for(lambda s: filter_line(s) == "/ graph" and "of 2260" in s and "2260 of 2260" not in s, timeout=120)
        term.send("Enter", "M")
        term.wait_for(lambda s: "Save search · graph" in s, timeout=120)
        term.send("-l", "graphs")
        term.send("Tab", "m", "Enter")
        # (Not the "Saved 'graphs' on m" notice: starved beside the loops, the app may paint its first frame
        # after the dialog more than the notice's 5 s after it was given, and it is gone by then.)
        term.wait_for(lambda s: "Save search" not in s and "Saved searches" not in s, timeout=120)
        term.send("'")
        term.wait_for(lambda s: "Saved searches" in s and "m  graphs" in s, timeout=120)
        term.send("Escape")
        term.wait_for(lambda s: "Saved searches" not in s, timeout=120)
        for _ in range(5):
            term.send("/", "Escape")
            term.wait_for(lambda s: "2260 of 2260 shown" in s and "/ filter: words" in s, timeout=120)
            term.send("'", "m")  # at once: the m is for the picker the quote opens, not "more like this"
            screen = term.wait_for(lambda s: filter_line(s) == "/ graph" and "of 2260 shown" in s
                                   and "Saved searches" not in s, timeout=120)
            assert "like" not in screen.splitlines()[1], screen  # no "more like this"
        term.quit()
    finally:
        kill_loops(pids)
        term.kill()
