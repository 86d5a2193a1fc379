"""A mark's durability in the app while its sync with a folder is stuck (a network folder that does not
answer, a file a sync tool holds), and how long `q` then waits.

    python bench/sync_stuck.py [--marks 20] [--give-up 5]

The app's parts without a screen: its `Saver` (the writer thread) and `AppSync`, on a real database. The
stuck sync is `store.sync.folder.sync` made to wait on an event that is never set. Each mark is saved as a key
would save it; timed until a second store (as another process would) reads it from the database file.
Rows:

- no sync: the marks alone;
- sync stuck, on its own thread: `AppSync.start` (as the app does now);
- sync stuck, on the writer thread: the sync queued in front of the marks (`Saver.refresh`, as the app
  did before): a mark never becomes durable; shown as "never" after `--give-up` seconds;
- q: `Saver.close` with `AppSync.at_close` while the sync is stuck.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import tui.syncing
from store.marks.changes import Change
from store.marks.db import TriageStore
from store.papers.model import Triage
from tui.saving import Saver
from tui.syncing import AppSync

STUCK = threading.Event()


def stuck_sync(store: TriageStore, folder: str, now: float | None = None):
    STUCK.wait()  # never set: a read that does not come back
    raise AssertionError("unreachable")


def durability(db: Path, saver: Saver, marks: int, give_up: float) -> list[float]:
    """Seconds from each mark's save until another store reads it from the database file."""
    reader = TriageStore(db)
    times = []
    try:
        for i in range(marks):
            pid = f"paper{i:04d}"
            started = time.perf_counter()
            saver.save({pid: Change.between(Triage(), Triage(starred=True, updated=time.time()), time.time())},
                       lambda _pid: Triage())
            while not reader.get(pid).starred:
                if time.perf_counter() - started > give_up:
                    return times + [float("inf")]
                time.sleep(0.001)
            times.append(time.perf_counter() - started)
    finally:
        reader.close()
    return times


def saver_for(db: Path) -> Saver:
    return Saver(TriageStore(db), lambda: set(), lambda callback: callback(), lambda states: None,
                 lambda message: None, lambda message, severity: None)


def case(name: str, marks: int, give_up: float) -> tuple[str, list[float], float | None]:
    with tempfile.TemporaryDirectory() as tmp:
        db, folder = Path(tmp) / "t.json", Path(tmp) / "shared"
        folder.mkdir()
        saver = saver_for(db)
        app_sync = AppSync(str(folder), saver.store, saver, lambda callback: callback(), lambda text: None,
                           lambda message, severity: None)
        if name == "sync stuck, on its own thread":
            app_sync.start()
        elif name == "sync stuck, on the writer thread":
            saver.refresh(lambda: app_sync._run() or {})
        times = durability(db, saver, marks, give_up)
        closed = None
        if name == "sync stuck, on its own thread":
            started = time.perf_counter()
            saver.close(app_sync.at_close)
            closed = time.perf_counter() - started
        elif name == "no sync":
            saver.close()
        # (the writer thread of the old arrangement stays stuck: left to end with the process)
        return name, times, closed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marks", type=int, default=20)
    parser.add_argument("--give-up", type=float, default=5.0)
    args = parser.parse_args()
    tui.syncing.sync = stuck_sync  # the app's sync, stuck
    rows = [case(name, args.marks, args.give_up)
            for name in ("no sync", "sync stuck, on its own thread", "sync stuck, on the writer thread")]
    print(f"a mark's durability (save → read from the database file by another store), {args.marks} marks"
          f" (load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores, a shared machine)")
    print(f"{'case':<36}{'median ms':>10}{'max ms':>10}{'q waits s':>11}")
    for name, times, closed in rows:
        never = any(t == float("inf") for t in times)
        median = "never" if never else f"{statistics.median(times) * 1000:.1f}"
        worst = "never" if never else f"{max(times) * 1000:.1f}"
        print(f"{name:<36}{median:>10}{worst:>10}{'' if closed is None else f'{closed:.2f}':>11}")
    os._exit(0)  # the old arrangement's writer thread is stuck for good


if __name__ == "__main__":
    main()
