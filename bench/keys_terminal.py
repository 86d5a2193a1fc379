"""What a key costs the app in a real terminal: CPU ms per key of the `triage` process, in tmux at 120x40.

    python bench/keys_terminal.py [--list FILE | --size 100000] [--triage OTHER/.venv/bin/triage] [--presses 200]

`bench/keys.py` times keys in process (Textual's Pilot, no terminal); this one runs the installed
`triage` on the list in a private tmux server, as a user does, and reads the process's CPU time
(utime + stime in /proc) over `--presses` presses sent 120 ms apart (slower than Textual draws a
frame: each is drawn on its own, none is merged with the next), less the CPU the app spends over
the same time with no keys (measured just before: its clock and the terminal's polling). Rows:

- `f19` (floor): a key bound to nothing: the terminal driver's parse of the key and its dispatch.
- `j,k`: the cursor down and up in turn near the top of the list: the list does not scroll, the
  detail pane shows another paper at each key.
- `j`: the cursor down a page below the top (after `ctrl+f`), so every press scrolls the list by one
  row and shows another paper: the key of a user reading down the list.

The list is opened once with an empty cache (cold, not measured) and quit once its cache entries are
written; the measured open is a cached one, measured after the header says the background work is
done (no "reading", "indexing" or "titles"), `--settle` seconds more and until the app is idle (under
3% of a core for two seconds: the phrase texts are made behind the app after a cached open). `--triage` adds the same rows for another installed `triage`
(an older checkout's: `git worktree add /tmp/before COMMIT`, a venv there, `pip install -e /tmp/before`),
each with its own cache, so one command gives before and after. The load (`uptime`) is printed with
each row: numbers on a loaded machine are pessimistic. The list is made with
../shared/tools/make_corpus.py (beside the checkout) unless --list is given.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from open import ended  # noqa: E402 (bench/open.py beside this file: its tmux server, ended with its socket file)

MAKE_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "tools" / "make_corpus.py"
GAP = 0.12
"""Seconds between two presses."""
TIMEOUT = 300.0
KEYS = (("f19 (floor)", ("f19",), ()), ("j,k (no scroll)", ("j", "k"), ()), ("j (scrolls)", ("j",), ("C-f",)))
"""(row, the keys pressed in turn, the keys sent once before: the cursor to where the row starts)."""
BUSY = re.compile(r"reading|indexing|titles")
SHOWN = re.compile(r"· [0-9a-f]{10}\b")
"""A paper's id in the detail pane's meta line: a paper is shown."""


class Terminal:
    """`triage LIST` in a private tmux server at 120x40."""

    def __init__(self, triage: str, path: Path, cache: Path) -> None:
        self.socket = f"bench-keys-{uuid.uuid4().hex[:8]}"
        env = f"TRIAGE_CACHE={cache} TRIAGE_DB={cache}-db.json TRIAGE_CONFIG={cache}-keys.toml TERM=xterm-256color"
        self.tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-c", str(cache.parent),
                  f"exec env -u COLUMNS -u LINES -u TMUX -u PYTHONDONTWRITEBYTECODE {env} {triage} {path}")
        self.pid = int(self.tmux("list-panes", "-t", "t", "-F", "#{pane_pid}").split()[0])

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def cpu(self) -> float:
        """CPU seconds the app has used (all its threads)."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def settled(self) -> None:
        """Wait until a paper is shown and the header says nothing is worked on behind the app."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            screen = self.screen()
            if SHOWN.search(screen) and not BUSY.search(screen.splitlines()[0]):
                return
            time.sleep(0.2)
        raise SystemExit(f"triage did not settle in {TIMEOUT:.0f} s:\n{self.screen()}")

    def quiet(self) -> None:
        """Wait until the app uses under 3% of a core over two seconds in a row (its work behind is done)."""
        deadline, calm = time.monotonic() + TIMEOUT, 0
        while calm < 2 and time.monotonic() < deadline:
            start = self.cpu()
            time.sleep(1)
            calm = calm + 1 if self.cpu() - start < 0.03 else 0

    def close(self) -> None:
        self.send("q")
        deadline = time.monotonic() + 60
        while os.path.exists(f"/proc/{self.pid}") and time.monotonic() < deadline:  # the cache is written as it exits
            time.sleep(0.1)
        ended(self.socket)


def per_key(term: Terminal, keys: tuple[str, ...], count: int) -> tuple[float, float]:
    """(CPU ms per press of `keys` in turn, the idle app's CPU in % of a core)."""
    span = GAP * count + 0.5
    start = term.cpu()
    time.sleep(span)
    idle = term.cpu() - start
    start = term.cpu()
    for i in range(count):
        term.send(keys[i % len(keys)])
        time.sleep(GAP)
    time.sleep(0.5)
    used = term.cpu() - start
    return (used - idle) / count * 1000, idle / span * 100


def measure(triage: str, path: Path, cache: Path, presses: int, settle: float) -> list[tuple[str, float, float]]:
    if not cache.exists():  # the cold open, to write the cache the measured open reads
        cache.mkdir(parents=True)
        term = Terminal(triage, path, cache)
        term.settled()
        term.close()
    term = Terminal(triage, path, cache)
    try:
        term.settled()
        time.sleep(settle)
        term.quiet()
        rows = []
        for name, keys, before in KEYS:
            if before:
                term.send(*before)
                time.sleep(1)
            rows.append((name, *per_key(term, keys, presses)))
        return rows
    finally:
        term.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", type=Path, help="an abstract list (default: a synthetic one of --size)")
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--triage", help="another triage command to compare with (an older checkout's)")
    parser.add_argument("--after", help="the triage command to measure (default: the one beside this Python)")
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--settle", type=float, default=12.0, help="seconds to wait once the app says it is done")
    args = parser.parse_args()
    after = args.after or str(Path(sys.executable).parent / "triage")
    versions = ([("before", args.triage)] if args.triage else []) + [("after", after)]
    with tempfile.TemporaryDirectory(prefix="bench-keys-") as tmp:
        folder = Path(tmp)
        path = args.list
        if path is None:
            path = folder / f"{args.size}.txt"
            subprocess.run([sys.executable, str(MAKE_CORPUS), str(args.size), "-o", str(path)], check=True)
        print(f"{'version':>7} {'key':<16} {'n':>4} {'cpu ms/key':>10} {'idle % core':>11}  load (uptime)")
        for version, triage in versions:
            for name, ms, idle in measure(triage, path, folder / f"cache-{version}", args.presses, args.settle):
                print(f"{version:>7} {name:<16} {args.presses:>4} {ms:>10.1f} {idle:>11.1f}  {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
