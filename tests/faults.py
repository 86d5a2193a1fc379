"""Fault trials on the installed `triage` in tmux: SIGKILL the app right after a mark is shown saved,
restart it, and count the marks that did not come back. Used by the slow tests and bench/faults.py.

Trial k opens the app on the bundled list (the restart of trial k - 1), checks every row shows the
marks made so far, toggles the star of row k mod 19, waits until the row shows it saved (its first
column no `…`, the header no "saving…") and kills the process with SIGKILL at once. In every other
trial the write is held up: the database's lock is held (as by a `triage set` or a compaction in
another process) from before the key until 0–100 ms after the row shows the new star, so a mark that
looked saved before it is durable would be killed unsaved.
"""
from __future__ import annotations

import fcntl
import os
import random
import re
import signal
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from tests.tmux import Tmux, triage_command

ROWS = 19
"""The bundled list's papers: all on screen at 120x40, from the screen's fourth line."""
TOP = 3


@dataclass
class Tally:
    trials: int = 0
    failures: int = 0
    """Trials whose restart showed a row unlike the marks made and shown saved before it."""
    lost: int = 0
    """Marks shown saved that a restart did not show."""


def rows(screen: str) -> list[str]:
    """The first four columns of each of the 19 rows: `…` while unsaved (else blank or the For-you bucket),
    `•` unread, `★`, the priority."""
    return [line[:4] for line in screen.splitlines()[TOP : TOP + ROWS]]


ROW = re.compile(r"^[^…][•✗ ][★ ][0-5 ] \S")


def drawn(screen: str) -> bool:
    """Whether all 19 rows are on screen, their marks saved."""
    lines = screen.splitlines()[TOP : TOP + ROWS]
    return len(lines) == ROWS and all(ROW.match(line) for line in lines) and "saving…" not in screen


def saved_star(screen: str, row: int, starred: bool) -> bool:
    """Whether `row` shows its star as `starred`, saved (no `…`, no "saving…")."""
    lines = rows(screen)
    return len(lines) == ROWS and lines[row][0] != "…" and lines[row][1:] == f"•{'★' if starred else ' '} " \
        and "saving…" not in screen


def app_pid(tmux: Tmux) -> int:
    """The pid of `triage` in the pane: the child of the pane's shell."""
    shell = tmux.command("list-panes", "-F", "#{pane_pid}").strip()
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", shell], capture_output=True, text=True).stdout.split()
    (pid,) = children
    return int(pid)


def hold_lock(db: Path) -> int:
    """Take the database's lock (as another process's write does) until the file returned is closed."""
    fd = os.open(f"{db}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def kill_trials(db: Path, trials: int) -> Tally:
    """Run `trials` kill-and-restart trials on database `db` (made fresh); the tally."""
    command = f"{triage_command()} --db {db}"
    starred = [False] * ROWS
    tally = Tally()
    rng = random.Random(16)
    for trial in range(trials + 1):
        tmux = Tmux(command)
        try:
            screen = tmux.wait_for(drawn, interval=0.02)
            shown = [r[2] == "★" for r in rows(screen)]
            if trial:
                tally.trials += 1
                tally.failures += shown != starred
                tally.lost += sum(a != b for a, b in zip(starred, shown))
                starred = shown  # go on from what is there
            if trial == trials:
                break
            row = trial % ROWS
            held = hold_lock(db) if trial % 2 else None
            tmux.send("g", *["j"] * row, "s")
            starred[row] = not starred[row]
            if held is not None:
                tmux.wait_for(lambda s: len(rows(s)) == ROWS and rows(s)[row][2] == ("★" if starred[row] else " "))
                threading.Timer(rng.uniform(0, 0.1), os.close, (held,)).start()  # closing the file lets the lock go
            tmux.wait_for(lambda s: saved_star(s, row, starred[row]), interval=0)  # the kill comes right after
            os.kill(app_pid(tmux), signal.SIGKILL)
        finally:
            tmux.kill()
    return tally
