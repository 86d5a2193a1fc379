"""Sync through a folder (store.sync.folder): the time to merge 10,000 papers' marks from 3 other devices, and
what a sync adds to the app's open when a sync folder is set.

    python bench/sync.py [--papers 10000] [--devices 3] [--runs 3]

This database holds marks on all the papers; each other device's file in the folder holds marks on all
of them too, made at other times (every field of every paper changed somewhere). Timed, median of runs:

- first sync: every device file is new (read, checked, merged; one durable write; our file written);
- nothing new: the typical open: the device files were merged before (not read again), ours unchanged;
- one device changed 1%: that device's file is read again, 100 papers change here;
- app open: the UI thread's part of `--sync` (the sync itself runs on the writer thread after the
  list is shown: the time until its marks show is the "nothing new" or "changed" row).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from store.marks.db import TriageStore
from store.sync.marksfile import encode
from store.marks.merge import edit, values
from store.papers.model import Collection, Paper, Triage
from store.sync.folder import device_file, sync

FIELDS = ("read", "starred", "priority", "dismissed", "note", "tags")


def device_records(papers: list[str], device: str, rng: random.Random, base: float) -> dict:
    records = {}
    for pid in papers:
        before = values({})
        after = dict(before, read=rng.random() < 0.5, starred=rng.random() < 0.2, priority=rng.randrange(6),
                     note=f"note from {device}" if rng.random() < 0.1 else "", tags=["bench", device][: rng.randrange(3)])
        records[pid] = (edit({}, before, after, base + rng.random() * 1000, device), "")
    return records


def setup(folder: Path, n: int, devices: int, seed: int) -> tuple[Path, list[str], list[dict]]:
    rng = random.Random(seed)
    papers = [f"{i:010x}" for i in range(n)]
    db = folder / "mine.json"
    store = TriageStore(db)
    store.put({pid: Triage(read=i % 2 == 0, starred=i % 7 == 0, priority=i % 6, tags=("mine",), updated=time.time() - 2000)
               for i, pid in enumerate(papers)})
    store.close()
    shared = folder / "shared"
    shared.mkdir()
    others = []
    for k in range(devices):
        records = device_records(papers, f"dev{k}", rng, time.time() - 3000)
        (shared / f"dev{k}.triage-marks.jsonl").write_bytes(encode("marks", f"dev{k}", records))
        others.append(records)
    return db, papers, others


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def one_run(n: int, devices: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db, papers, others = setup(folder, n, devices, seed)
        shared = folder / "shared"
        store = TriageStore(db)
        out = {"first sync": timed(lambda: sync(store, shared))}
        out["nothing new"] = timed(lambda: sync(store, shared))
        rng = random.Random(seed + 1)
        changed = dict(others[0])
        for pid in rng.sample(papers, max(1, n // 100)):
            record = changed[pid][0]
            changed[pid] = (edit(record, values(record), dict(values(record), starred=not values(record)["starred"]),
                                 time.time(), "dev0"), "")
        (shared / "dev0.triage-marks.jsonl").write_bytes(encode("marks", "dev0", changed))
        out["one device changed 1%"] = timed(lambda: sync(store, shared))
        out["app open (UI thread)"] = app_open_ui_cost(store, shared)
        store.close()
        assert device_file(shared, store.device).is_file()
    return out


def app_open_ui_cost(store: TriageStore, shared: Path) -> float:
    """The time the UI thread spends on `--sync` at open: `AppSync.start` (the status text, the job queued)."""
    from tui.app import TriageApp

    papers = [Paper(id=f"{i:010x}", text=f"abstract {i}") for i in range(100)]
    app = TriageApp(Collection(papers=papers), db_path=str(store.path), sync_folder=str(shared))
    spent = []

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            assert app._sync is not None
            spent.append(timed(app._sync.start))
            await pilot.pause()

    asyncio.run(run())
    return spent[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--devices", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = [one_run(args.papers, args.devices, seed) for seed in range(args.runs)]
    load = os.getloadavg()[0]
    print(f"sync of {args.papers:,} papers' marks with {args.devices} other devices, median of {args.runs} runs"
          f" (load {load:.2f} on {os.cpu_count()} cores)")
    print(f"{'case':<26}{'seconds':>10}")
    for case in runs[0]:
        print(f"{case:<26}{statistics.median(run[case] for run in runs):>10.3f}")


if __name__ == "__main__":
    main()
