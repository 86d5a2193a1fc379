"""How long `q` takes to give the terminal back, at each moment of a long list's open.

    python bench/quit.py LIST [--runs 1] [--cases reading,indexing,searchable,reopened,marked,queried] [--triage PATH]

Each run starts `triage LIST` in a private tmux server (120x40, an empty cache of its own, a fresh database)
and polls the screen every 20 ms until the moment of its case, then presses `q` and times until the shell
prints the app's exit status (the app gone, the terminal given back) and no process it started is left:
- reading: the header says "reading N%…" (N ≥ 10: the worker processes are at work);
- indexing: it says "indexing…" (the engine folder is being built);
- searchable: "indexing…" has gone (its parse entry and the rest may still be written);
- reopened: the list is opened again on the cache a whole open left, and quit once searchable;
- marked: while reading, `space` marks the first paper read; `q` once the header counts it ("1 read");
- queried: while reading, a query is typed, then `enter` and `s` (a star for its first result: it waits for the
  results, which wait for the engine); `q` once the filter shows the query.
The load (`uptime`) is printed with each row: numbers on a loaded machine are pessimistic.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from open import ended, tmux  # noqa: E402 (bench/open.py beside this file: its tmux server, ended with its socket file)

POLL = 0.02
TIMEOUT = 600.0

READING = re.compile(r"reading (\d+)%")


def below(shell: int) -> list[int]:
    """The processes under `shell` (the app and those it started)."""
    parents = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat") as f:
                    parents[int(entry.name)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    mine = []
    for pid in parents:
        at = pid
        while at > 1 and at != shell:
            at = parents.get(at, 0)
        if at == shell and pid != shell:
            mine.append(pid)
    return mine


def reading(screen: str) -> bool:
    found = READING.search(screen)
    return found is not None and int(found[1]) >= 10


def one(triage: str, path: Path, folder: Path, case: str) -> tuple[float, float]:
    """(seconds from the start to the key, seconds from the key to the app gone) of one run in `folder`."""
    socket = f"bench-quit-{uuid.uuid4().hex[:8]}"
    env = (f"TRIAGE_CACHE={folder / 'cache'} TRIAGE_DB={folder / 'triage.json'} TRIAGE_CONFIG={folder / 'keys.toml'} "
           f"XDG_CACHE_HOME={folder / 'xdg'} TRIAGE_NO_HINTS=1 TERM=xterm-256color")
    start = time.monotonic()
    tmux(socket, "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-c", str(folder),
         f"env -u COLUMNS -u LINES -u TMUX {env} {triage} {path}; echo EXIT=$?; sleep 600")
    try:
        shell = int(tmux(socket, "list-panes", "-t", "t", "-F", "#{pane_pid}").split()[0])
        indexed = False
        while time.monotonic() - start < TIMEOUT:
            screen = tmux(socket, "capture-pane", "-p", "-t", "t")
            indexing = "indexing…" in screen
            indexed = indexed or indexing
            if ((case in ("reading", "marked", "queried") and reading(screen)) or (case == "indexing" and indexing)
                    or (case == "searchable" and indexed and not indexing)
                    or (case == "reopened" and " shown" in screen and "reading" not in screen and not indexing)):
                break
            time.sleep(POLL)
        else:
            raise SystemExit(f"{case}: never reached")
        if case in ("marked", "queried"):
            typed = [["Space"]] if case == "marked" else [["/"], ["-l", "neural"], ["Enter", "s"]]
            for keys in typed:
                tmux(socket, "send-keys", "-t", "t", *keys)
            shown = " 1 read" if case == "marked" else "/ neural"
            while shown not in tmux(socket, "capture-pane", "-p", "-t", "t"):
                time.sleep(POLL)
        pressed = time.monotonic()
        tmux(socket, "send-keys", "-t", "t", "q")
        while "EXIT=" not in tmux(socket, "capture-pane", "-p", "-t", "t") or len(below(shell)) > 1:  # (the sleep)
            time.sleep(POLL)
        return pressed - start, time.monotonic() - pressed
    finally:
        ended(socket)


def settled(triage: str, path: Path, folder: Path) -> None:
    """A whole open of `path` in `folder`, quit once its cache entries are all written."""
    socket = f"bench-quit-{uuid.uuid4().hex[:8]}"
    env = f"TRIAGE_CACHE={folder / 'cache'} TRIAGE_DB={folder / 'triage.json'} TRIAGE_NO_HINTS=1 TERM=xterm-256color"
    tmux(socket, "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-c", str(folder),
         f"env -u TMUX {env} {triage} {path}; echo EXIT=$?; sleep 600")
    try:
        start = time.monotonic()
        seen = False
        while time.monotonic() - start < TIMEOUT:
            screen = tmux(socket, "capture-pane", "-p", "-t", "t")
            seen = seen or "indexing…" in screen
            cache = folder / "cache"
            if seen and "indexing…" not in screen and cache.is_dir() and any(cache.glob("*.parse")) \
                    and not any(cache.glob(".*.tmp")):
                break
            time.sleep(0.2)
        tmux(socket, "send-keys", "-t", "t", "q")
        while "EXIT=" not in tmux(socket, "capture-pane", "-p", "-t", "t"):
            time.sleep(0.2)
    finally:
        ended(socket)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("list", type=Path)
    parser.add_argument("--cases", default="reading,indexing,searchable,reopened")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--triage", default=str(Path(sys.executable).parent / "triage"))
    args = parser.parse_args()
    print(f"{'case':>10} {'key at s':>8} {'q to gone s':>11}  load (uptime)", flush=True)
    for case in args.cases.split(","):
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="bench-quit-") as tmp:
                folder = Path(tmp)
                if case == "reopened":
                    settled(args.triage, args.list.resolve(), folder)
                load = os.getloadavg()[0]
                at, took = one(args.triage, args.list.resolve(), folder, case)
                print(f"{case:>10} {at:>8.2f} {took:>11.2f}  {load:.2f}", flush=True)
                shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
