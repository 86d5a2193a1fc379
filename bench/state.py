"""Durable triage writes: the journaled store against TinyDB's stock JSONStorage, load time, bulk marks,
and the UI-side cost of a triage key press in the app.

    python bench/state.py [--sizes 100,1000,10000] [--writes 300]

Each write is one paper's state made durable (the call returns after fsync). The stock
storage is timed on the same file system in the same run, with fewer writes at large
sizes (it rewrites the whole file each time). The key press is timed in a headless app
showing as many papers as the largest size: what the UI thread does before the durable
write is handed to the writer thread.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from tinydb import TinyDB

from store.marks.db import TriageStore
from store.papers.model import Collection, fingerprint, Paper, paper_id, Triage

TEXT = (
    "We study sparse attention for long documents and show that a learned token budget matches "
    "dense attention at a tenth of the memory on six benchmarks, transferring to vision models. "
)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def states(n: int) -> dict[str, Triage]:
    return {f"p{i:06d}": Triage(read=i % 2 == 0, starred=i % 7 == 0, priority=i % 6, tags=("bench",)) for i in range(n)}


def journaled(folder: Path, n: int, writes: int) -> list[float]:
    store = TriageStore(folder / f"journal-{n}.json")
    store.put(states(n))
    store.close()
    store = TriageStore(folder / f"journal-{n}.json")
    samples = []
    for i in range(writes):
        started = time.perf_counter()
        store.put({f"p{(i * 37) % n:06d}": Triage(read=True, starred=True, priority=i % 5 + 1, updated=time.time())})
        samples.append(time.perf_counter() - started)
    store.close()
    return samples


def stock(folder: Path, n: int, writes: int) -> list[float]:
    db = TinyDB(folder / f"stock-{n}.json")
    fp = fingerprint(TEXT)
    db.insert_multiple({**state.marks(), "updated": state.updated, "fp": fp, "id": pid} for pid, state in states(n).items())
    samples = []
    for i in range(writes):
        started = time.perf_counter()
        db.update({"starred": True, "priority": i % 5 + 1, "updated": time.time()}, doc_ids=[(i * 37) % n + 1])
        samples.append(time.perf_counter() - started)
    db.close()
    return samples


async def key_presses(n: int, presses: int) -> tuple[list[float], float]:
    """UI-side seconds per `s` press, and seconds until "mark all shown as read" is durable."""
    from tui.app import TriageApp

    texts = [f"{TEXT} Variant {i}." for i in range(n)]
    papers = [Paper(id=paper_id(t), text=t, title=f"Paper {i}", position=i) for i, t in enumerate(texts)]
    app = TriageApp(Collection(papers=papers))
    samples = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(presses):
            started = time.perf_counter()
            app.action_toggle_star()
            samples.append(time.perf_counter() - started)
        await pilot.pause()
        started = time.perf_counter()
        app.change({p.id: Triage(read=True) for p in papers})
        await asyncio.wrap_future(app._writer.submit(lambda: None))
        bulk = time.perf_counter() - started
    return samples, bulk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--writes", type=int, default=300)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("durable write of one paper's state, ms")
        print(f"{'states':>7} {'journal p50':>12} {'journal p95':>12} {'stock p50':>10} {'stock p95':>10} {'p95 ×':>7}")
        for n in sizes:
            ours = journaled(folder, n, args.writes)
            theirs = stock(folder, n, max(20, min(args.writes, 300_000 // n)))
            p95, stock_p95 = percentile(ours, 0.95), percentile(theirs, 0.95)
            print(
                f"{n:>7} {statistics.median(ours) * 1e3:>12.2f} {p95 * 1e3:>12.2f} "
                f"{statistics.median(theirs) * 1e3:>10.2f} {stock_p95 * 1e3:>10.2f} {stock_p95 / p95:>7.1f}"
            )

        n = max(sizes)
        path = folder / f"journal-{n}.json"
        loads = []
        for _ in range(5):
            started = time.perf_counter()
            TriageStore(path)
            loads.append(time.perf_counter() - started)
        bulk = TriageStore(folder / "bulk.json")
        marks = {pid: Triage(read=True, updated=time.time()) for pid in states(n)}
        started = time.perf_counter()
        bulk.put(marks)
        bulk_s = time.perf_counter() - started
        print()
        print(f"{'load a ' + str(n) + '-state DB (median of 5)':<44} {statistics.median(loads) * 1e3:>8.1f} ms")
        print(f"{'mark ' + str(n) + ' papers read, one durable write':<44} {bulk_s * 1e3:>8.1f} ms")

        os.environ["TRIAGE_DB"] = str(folder / "app.json")
        presses, app_bulk = asyncio.run(key_presses(n, args.writes))
        print(f"{'key press s, UI side, p50 / p95 (' + str(n) + ' papers)':<44} "
              f"{statistics.median(presses) * 1e3:>8.3f} / {percentile(presses, 0.95) * 1e3:.3f} ms")
        print(f"{'R in the app: ' + str(n) + ' shown read, until durable':<44} {app_bulk * 1e3:>8.1f} ms")


if __name__ == "__main__":
    main()
