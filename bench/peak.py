"""Where a cold open's memory peaks: each phase's peak, and what each process held then.

    python bench/peak.py [--size 100000 | --list FILE] [--lists DIR] [--triage OTHER/.venv/bin/triage] [--within S] [--limit MB]

`bench/open.py` gives a cold open's peak RSS as one number; this one says when and in what. The
installed `triage` opens the list with an empty cache in a private tmux server (120x40), a query is
typed once the first rows are on screen (as open.py does), and every 50 ms the resident memory of
each process under it is read from /proc with the phase the header names: "reading" (the parse, on
worker processes forked from a server beside the app), "indexing" (the search engine built), "titles" (an
app from before the engine derived them on worker processes again), and "after" (from the header's last word
until `AFTER` s later: the cache entries, the citation keys; before the engine also the texts phrases were
looked in). Printed for each phase: its peak (the app and every
process under it), when, and what each process held then: the app, the fork server, the resource
tracker and the workers; beside it the phase's peak of anonymous memory (RssAnon of them all: what the processes hold
themselves, which the kernel cannot take back), and when. A resident size also counts the pages of the files a
process maps: the engine's segments, which a merge of them reads whole (at 1,000,000 papers a spike of ~1.1 GB of
them for ~15 s of the indexing, let go once the merge ends, and pages the kernel may take back whenever it needs the
room). Then the app's own peak as the kernel kept it (VmHWM), which a poll cannot miss. With `--limit MB` (as root,
on a kernel with a memory cgroup) the app runs in a cgroup of that much memory, page cache included, and the cgroup's
own peak and its OOM kills are printed: whether the open fits in that much. A run ends `AFTER` s after
the header's last word, or after `--within` seconds (raise it for a long list: 1,000,000 papers take ~6 minutes). Synthetic lists come from ../shared/tools/make_corpus.py, made once in `--lists`.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from open import corpus, ended, process_table, tmux  # noqa: E402 (bench/open.py beside this file)

POLL = 0.05
AFTER = 20
"""Seconds the phase after the header's last word is watched: the cache entries, the citation keys."""
PHASES = ("reading", "indexing", "titles", "after")
_SAID = re.compile(r"\b(reading|indexing|titles)\b[^\n]*…")


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:  # (gone meanwhile)
        return ""


def processes(shell: int) -> dict[str, int]:
    """The resident bytes of each process below `shell`, named by what it is (workers numbered)."""
    parents, rss = process_table()
    lines = {pid: _command(pid) for pid in parents if parents[pid] == shell or parents.get(parents[pid]) == shell}
    app = next((pid for pid, parent in parents.items() if parent == shell and "sleep" not in lines[pid]), None)
    named: dict[str, int] = {}
    if app is None:
        return named
    named["app"] = rss[app]
    for pid, parent in parents.items():
        if parent == app and pid in rss:
            kind = "server" if "forkserver" in lines[pid] else "tracker" if "resource_tracker" in lines[pid] else "worker"
            named[f"{kind} {pid}" if kind == "worker" else kind] = rss[pid]
            for child, its in parents.items():  # a fork server's workers
                if its == pid:
                    named[f"worker {child}"] = rss.get(child, 0)
    return named


def anonymous(shell: int) -> int:
    """The anonymous resident bytes (RssAnon) of every process below `shell`: the app and what it started."""
    parents, _ = process_table()
    total = 0
    for pid in parents:
        at = pid
        while at > 1 and at != shell:
            at = parents.get(at, 0)
        if at == shell and pid != shell:
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:  # (gone meanwhile)
                continue
            if "RssAnon:" in status:
                total += int(status.split("RssAnon:")[1].split()[0]) * 1024
    return total


def high_water(shell: int) -> int:
    """The app's own peak resident bytes as the kernel kept it (VmHWM): what a 50 ms poll can miss."""
    parents, _ = process_table()
    app = next((pid for pid, parent in parents.items() if parent == shell and "sleep" not in _command(pid)), None)
    try:
        status = Path(f"/proc/{app}/status").read_text()
    except (OSError, TypeError):
        return 0
    return int(status.split("VmHWM:")[1].split()[0]) * 1024


class Limited:
    """A memory cgroup of `mb` MB (v2 where the memory controller is there, else v1), made for one run and removed."""

    def __init__(self, mb: int) -> None:
        v2 = Path("/sys/fs/cgroup")
        self.v2 = "memory" in (v2 / "cgroup.controllers").read_text() if (v2 / "cgroup.controllers").exists() else False
        self.path = (v2 if self.v2 else v2 / "memory") / f"bench-peak-{uuid.uuid4().hex[:8]}"
        self.path.mkdir()
        (self.path / ("memory.max" if self.v2 else "memory.limit_in_bytes")).write_text(str(mb * 2**20))

    def joining(self) -> str:
        """What a shell runs to put itself (and what it starts) in the cgroup."""
        return f"echo $$ > {self.path / 'cgroup.procs'};"

    def said(self) -> str:
        """The cgroup's limit, its peak use (page cache included) and its OOM kills."""
        limit = int((self.path / ("memory.max" if self.v2 else "memory.limit_in_bytes")).read_text())
        peak = self.path / ("memory.peak" if self.v2 else "memory.max_usage_in_bytes")
        used = f"{int(peak.read_text()) / 2**20:.0f} MB" if peak.exists() else "unknown"
        events = (self.path / ("memory.events" if self.v2 else "memory.oom_control")).read_text()
        kills = int(events.split("oom_kill ")[1].split()[0]) if "oom_kill " in events else 0
        return f"in a cgroup of {limit / 2**20:.0f} MB: its peak {used} (page cache included), OOM kills {kills}"

    def remove(self) -> None:
        for _ in range(50):  # (once its processes are gone)
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.1)


def run(triage: str, path: Path, folder: Path, within: float = 300, limited: Limited | None = None
        ) -> tuple[dict[str, tuple[float, dict[str, int]]], dict[str, tuple[float, int]], int]:
    """Each phase's (seconds since the start, the processes' memory) at its peak, and (seconds, anonymous bytes) at
    its peak of anonymous memory; the app's VmHWM at the end."""
    socket = f"bench-peak-{uuid.uuid4().hex[:8]}"
    env = f"TRIAGE_CACHE={folder / 'cache'} TRIAGE_DB={folder / 'triage.json'} TRIAGE_CONFIG={folder / 'keys.toml'} TERM=xterm-256color"
    start = time.monotonic()
    tmux(socket, "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-c", str(folder),
         f"{limited.joining() if limited else ''} env -u COLUMNS -u LINES -u TMUX {env} {triage} {path}; echo EXIT=$?; sleep 600")
    peaks: dict[str, tuple[float, dict[str, int]]] = {}
    anon: dict[str, tuple[float, int]] = {}
    try:
        shell = int(tmux(socket, "list-panes", "-t", "t", "-F", "#{pane_pid}").split()[0])
        typed, done = False, None
        while time.monotonic() - start < within:
            now = time.monotonic() - start
            held = processes(shell)
            screen = tmux(socket, "capture-pane", "-p", "-t", "t")
            said = _SAID.search(screen)
            if not typed and re.search(r"\bof [\d,]+ shown", screen):
                tmux(socket, "send-keys", "-t", "t", "/", *"graph")
                typed = True
            phase = said.group(1) if said else "after" if "indexing" in peaks else None
            if phase == "after" and done is None:
                done = now
            if phase is not None and sum(held.values()) > sum(peaks.get(phase, (0, {}))[1].values()):
                peaks[phase] = (now, held)
            if phase is not None and (own := anonymous(shell)) > anon.get(phase, (0, 0))[1]:
                anon[phase] = (now, own)
            if done is not None and now > done + AFTER:
                break
            time.sleep(POLL)
        highest = high_water(shell)
        tmux(socket, "send-keys", "-t", "t", "Enter", "q")
        time.sleep(1)
    finally:
        ended(socket)
    return peaks, anon, highest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="100000")
    parser.add_argument("--list", type=Path, help="a list to open instead of a synthetic one")
    parser.add_argument("--lists", help="a folder to keep the synthetic lists in (made there once)")
    parser.add_argument("--triage", help="the triage command to measure (default: the one beside this Python)")
    parser.add_argument("--within", type=float, default=300, help="seconds a run may take at most (default 300)")
    parser.add_argument("--limit", type=int, help="MB of memory the app runs in (a cgroup; as root)")
    args = parser.parse_args()
    triage = args.triage or str(Path(sys.executable).parent / "triage")
    with tempfile.TemporaryDirectory(prefix="bench-peak-") as tmp:
        path = args.list or corpus(args.size, Path(args.lists) if args.lists else Path(tmp))[0]
        print(f"{path.name}, cold, load {os.getloadavg()[0]:.2f}")
        limited = Limited(args.limit) if args.limit else None
        try:
            peaks, anon, highest = run(triage, path, Path(tmp), args.within, limited)
            cgroup = limited.said() if limited else ""
        finally:
            if limited:
                limited.remove()
    print(f"{'phase':>9} {'at s':>6} {'total MB':>9} {'app':>6} {'server':>7} {'tracker':>8} {'anon MB':>8} {'at s':>6}"
          "  workers MB")
    for phase in PHASES:
        if phase not in peaks:
            continue
        at, held = peaks[phase]
        mb = {name: size / 2**20 for name, size in held.items()}
        workers = " ".join(f"{size:.0f}" for name, size in sorted(mb.items()) if name.startswith("worker"))
        anon_at, anon_bytes = anon.get(phase, (0.0, 0))
        print(f"{phase:>9} {at:>6.2f} {sum(mb.values()):>9.0f} {mb.get('app', 0):>6.0f} {mb.get('server', 0):>7.0f} "
              f"{mb.get('tracker', 0):>8.0f} {anon_bytes / 2**20:>8.0f} {anon_at:>6.2f}  {workers or '-'}")
    print(f"the app's own peak as the kernel kept it (VmHWM, between polls too): {highest / 2**20:.0f} MB")
    if cgroup:
        print(cgroup)


if __name__ == "__main__":
    main()
