"""The installed `triage` in tmux under fire (slow tests: `pytest -m "not slow"` leaves them out).

- SIGKILL right after a mark is shown saved, 50 times: every mark shown saved comes back.
- Two app windows and a `triage set` loop marking the same papers at gaps from 0.3 s down to 0.05 s:
  every acknowledged change is stored at the end. Acknowledged: for a window, the row shows the mark
  saved (no `…`, no "saving…"); for `triage set`, it exited 0.

The gaps between the keys and commands are the stimulus (how close together the marks come), not
waits for an outcome: those poll the screen.
"""
from __future__ import annotations

import json
import subprocess
import time

import pytest

from store.readers import read_path
from tests.faults import drawn, kill_trials, rows
from tests.tmux import Tmux, triage_command

pytestmark = pytest.mark.slow

TRIALS = 50
PAPERS = 3
GAPS = (0.3, 0.2, 0.1, 0.05)


def test_sigkill_right_after_a_mark_is_shown_saved_loses_no_mark(tmp_path):
    tally = kill_trials(tmp_path / "db.json", TRIALS)
    assert (tally.trials, tally.failures, tally.lost) == (TRIALS, 0, 0)


def test_two_windows_and_triage_set_marking_the_same_papers_keep_every_acknowledged_change(tmp_path, seed_path):
    """Window A toggles stars, `triage set` adds a tag, window B sets a priority, on each of the first
    three papers in turn, the three a gap apart; four rounds, the gap shrinking from 0.3 s to 0.05 s."""
    db = tmp_path / "db.json"
    ids = [paper.id for paper in read_path(seed_path).papers[:PAPERS]]
    command = f"{triage_command()} --db {db}"
    starred, priority = [False] * PAPERS, [0] * PAPERS
    runs: list[tuple[int, str, subprocess.Popen]] = []
    a, b = Tmux(command), Tmux(command)
    try:
        for window in (a, b):
            window.wait_for(drawn)
        for turn, gap in enumerate(GAPS):
            for row, pid in enumerate(ids):
                a.send("s")
                starred[row] = not starred[row]
                time.sleep(gap)
                tag = f"t{turn}{row}"
                runs.append((row, tag, subprocess.Popen(
                    [triage_command(), "set", pid, "--tag", tag, "--db", str(db)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )))
                time.sleep(gap)
                priority[row] = 1 + (turn + row) % 5
                b.send(str(priority[row]))
                time.sleep(gap)
                a.send("j")
                b.send("j")
            a.send("g")
            b.send("g")
        tags: list[set[str]] = [set() for _ in ids]
        for row, tag, run in runs:
            if run.wait(timeout=60) == 0:
                tags[row].add(tag)
        expected = [f"•{'★' if star else ' '}{digit}" for star, digit in zip(starred, priority)]
        for window in (a, b):  # both windows end up showing every mark, saved
            window.wait_for(lambda s: drawn(s) and [r[1:] for r in rows(s)[:PAPERS]] == expected)
        a.quit()
        b.quit()
    finally:
        a.kill()
        b.kill()
    assert sum(len(t) for t in tags) == len(GAPS) * PAPERS, "every triage set was acknowledged"
    listed = subprocess.run([triage_command(), "list", "--format", "jsonl", "--db", str(db)],
                            capture_output=True, text=True, check=True).stdout
    stored = {row["id"]: row for row in map(json.loads, listed.splitlines())}
    for row, pid in enumerate(ids):
        assert (stored[pid]["starred"], stored[pid]["priority"]) == (starred[row], priority[row])
        assert set(stored[pid]["tags"]) >= tags[row]
