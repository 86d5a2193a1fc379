"""Opening a list in a real terminal: time to the first frame, to "search ready", and peak memory.

    python bench/open.py [--sizes iclr,10000,100000] [--before OLD/.venv/bin/triage] [--query graph] [--lists DIR]

Each run starts `triage LIST` in a private tmux server (120x40) and polls the screen every 50 ms:
"first frame" is when the list's first rows are on screen and the header counts them ("… of N
shown", N not yet all papers when a long list is still read behind its first rows); then the query
is typed at once (in place of one the last session left, in a database that saw the list before), and
"search ready" is when the filter bar counts its matches of the whole list
("M of TOTAL"); "titles" is when the header no longer says the derived titles are still being worked
out ("titles 40%…": a list parsed behind the app derives them once search is ready), and the open is
then quit (its cache entries are written once the titles are). "peak RSS" sums the
resident memory of the app and every process under it (the parse workers), sampled at each poll;
"peak PSS" the same with each page shared by forked processes counted once.
"cold" runs with an empty parse/index cache, "cached" again with the cache that run left; "cache MB" is
its size on disk. The app runs in a temporary folder (a build older than its fix, run in this checkout,
had its parse workers import this checkout's modules: they died on them, and it parsed in one process).
The app runs with its modules' bytecode kept (as an installed `triage` has it, whatever
`PYTHONDONTWRITEBYTECODE` says here: compiling them at each start was ~0.2 s of the first frame).
`--before` adds the same rows for another installed `triage` (an older
checkout: `git worktree add /tmp/before d612428`, a venv there, `pip install -e /tmp/before`).
Synthetic lists come from ../shared/tools/make_corpus.py (made once in a temporary folder, or in
`--lists`, kept there for the next run); `iclr`
is ../shared/corpora/iclr-2024-abstracts.txt. The load (`uptime`) is printed with each row:
numbers on a loaded machine are pessimistic.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from tui.widgets.line_text import counted  # (the header's counts, as it shows them)

SHARED = Path(__file__).resolve().parents[2] / "shared"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"
ICLR = SHARED / "corpora" / "iclr-2024-abstracts.txt"
POLL = 0.05
TIMEOUT = 300.0
QUIT = 120.0
"""Seconds an app is given to exit after `q` (it may write its cache first)."""


def tmux(socket: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", socket, *args], check=True, capture_output=True, text=True).stdout


def ended(socket: str) -> None:
    """End the private tmux server `socket`, its socket file too (tmux leaves it behind: one a run in /tmp/tmux-UID)."""
    subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
    (Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}" / socket).unlink(missing_ok=True)


def _pss(pid: int) -> int:
    """Proportional resident bytes of a process: its shared pages split between their sharers."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("Pss:"))
    except (OSError, StopIteration):
        return 0


def process_table() -> tuple[dict[int, int], dict[int, int]]:
    """Each running process's parent and its resident bytes, by pid (from /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                stat = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(stat[1])
        rss[pid] = int(stat[21]) * os.sysconf("SC_PAGE_SIZE")
    return parents, rss


def tree_memory(root: int) -> tuple[int, int]:
    """(resident bytes, proportional resident bytes) of all of `root`'s descendants. RSS counts a page
    a forked process shares with its parent in each of them; PSS counts it once in all."""
    parents, rss = process_table()
    mine = []
    for pid in rss:
        at = pid
        while at > 1 and at != root:
            at = parents.get(at, 0)
        if at == root and pid != root:  # the shell tmux started (root) is not the app
            mine.append(pid)
    return sum(rss[pid] for pid in mine), sum(map(_pss, mine))


def run(triage: str, path: Path, total: int, cache: Path, db: Path, query: str) -> tuple[float, float, float, float, float]:
    """(first frame s, search ready s, titles s, peak RSS MB, peak PSS MB) of one open."""
    socket = f"bench-open-{uuid.uuid4().hex[:8]}"
    env = f"TRIAGE_CACHE={cache} TRIAGE_DB={db} TRIAGE_CONFIG={db.parent / 'keys.toml'} TERM=xterm-256color"
    start = time.monotonic()
    tmux(socket, "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-c", str(db.parent),
         f"env -u COLUMNS -u LINES -u TMUX -u PYTHONDONTWRITEBYTECODE {env} {triage} {path}; echo EXIT=$?; sleep 600")
    try:
        shell = int(tmux(socket, "list-panes", "-t", "t", "-F", "#{pane_pid}").split()[0])
        shown = re.compile(r"\bof [\d,]+ shown")
        matched = re.compile(rf"\b[\d,]+ of {counted(total, total)}\b(?! shown)")
        titling = re.compile(r"\btitles(?: \d+%)?…")
        first = ready = titled = None
        peak = peak_pss = 0
        while time.monotonic() - start < TIMEOUT:
            rss, pss = tree_memory(shell)
            peak, peak_pss = max(peak, rss), max(peak_pss, pss)
            screen = tmux(socket, "capture-pane", "-p", "-t", "t")
            now = time.monotonic() - start
            lines = screen.splitlines()
            if first is None and shown.search(screen) and len(lines) > 3 and len(lines[3].split()) > 2:  # a row
                first = now
                tmux(socket, "send-keys", "-t", "t", "/", "C-u", *query)  # (C-u: a query the session restored goes)
            elif first is not None and ready is None and matched.search(screen):
                ready = now
            if ready is not None and not titling.search(screen):
                titled = now
                break
            time.sleep(POLL)
        tmux(socket, "send-keys", "-t", "t", "Enter", "q")  # back to the list, then quit
        deadline = time.monotonic() + QUIT
        while "EXIT=" not in tmux(socket, "capture-pane", "-p", "-t", "t") and time.monotonic() < deadline:
            rss, pss = tree_memory(shell)  # the cache may be written as the app exits
            peak, peak_pss = max(peak, rss), max(peak_pss, pss)
            time.sleep(POLL)
        nan = float("nan")
        return first or nan, ready or nan, titled or nan, peak / 2**20, peak_pss / 2**20
    finally:
        ended(socket)


def corpus(size: str, folder: Path) -> tuple[Path, int]:
    if size == "iclr":
        path = ICLR
    else:
        path = folder / f"abstracts-{size}.txt"
        if not path.exists():
            subprocess.run([sys.executable, str(MAKE_CORPUS), size, "-o", str(path)], check=True)
    return path, count(path, folder)


def count(path: Path, folder: Path) -> int:
    """The number of papers the header will count in the list at `path`, parsed once (kept in `folder`)."""
    counted = folder / f"{path.name}.papers"  # the number of papers the header will count, parsed once
    if counted.exists() and counted.stat().st_mtime >= path.stat().st_mtime:
        return int(counted.read_text())
    from store.readers import read_path

    total = len(read_path(path).papers)
    counted.write_text(str(total))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="iclr,10000,100000")
    parser.add_argument("--before", help="another triage command to compare with (an older checkout's)")
    parser.add_argument("--after", help="the triage command to measure (default: the one beside this Python)")
    parser.add_argument("--query", default="graph")
    parser.add_argument("--lists", help="a folder to keep the synthetic lists in (made there once, then reused: "
                                         "a 100,000-abstract list takes a minute to make and count)")
    args = parser.parse_args()
    after = args.after or str(Path(sys.executable).parent / "triage")
    versions = ([("before", args.before)] if args.before else []) + [("after", after)]
    with tempfile.TemporaryDirectory(prefix="bench-open-") as tmp:
        folder = Path(tmp)
        lists = Path(args.lists) if args.lists else folder
        lists.mkdir(parents=True, exist_ok=True)
        os.environ["TRIAGE_CACHE"] = str(lists / "quick-cache")
        print(f"{'list':>8} {'papers':>7} {'version':>7} {'open':>6} {'first frame s':>13} {'search ready s':>14} {'titles s':>8} "
              f"{'peak RSS MB':>11} {'peak PSS MB':>11} {'cache MB':>8}  load (uptime)")
        for size in args.sizes.split(","):
            path, total = corpus(size, lists)
            for version, triage in versions:
                cache = folder / f"cache-{version}-{size}"
                shutil.rmtree(cache, ignore_errors=True)
                cache.mkdir()
                for kind in ("cold", "cached"):
                    db = folder / f"db-{version}-{size}-{kind}" / "triage.json"
                    db.parent.mkdir()
                    load = os.getloadavg()[0]
                    first, ready, titled, peak, pss = run(triage, path, total, cache, db, args.query)
                    size_mb = sum(f.stat().st_size for f in cache.iterdir()) / 2**20
                    print(f"{size:>8} {total:>7} {version:>7} {kind:>6} {first:>13.2f} {ready:>14.2f} {titled:>8.2f} {peak:>11.0f} {pss:>11.0f} "
                          f"{size_mb:>8.0f}  {load:.2f}", flush=True)


if __name__ == "__main__":
    main()
