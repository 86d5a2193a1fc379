"""Time to first paint of the app, to swap in a filtered subset, and per `j`, at growing list sizes.

    python bench/render.py [--sizes 1000,10000,100000] [--keys 40]

`j` is timed once the index and ranking workers are done: the CPU time of the app (process time) from the
key to the screen drawn, median and 95th percentile over --keys presses, and how many of them laid the
screen out again (Screen._refresh_layout), which a key that only changes what the panes show should not.

Needs ../shared/tools/make_corpus.py (beside the checkout) to write the lists.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import statistics
import time
from pathlib import Path

from textual.screen import Screen

from store import read_path
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList

MAKE_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "tools" / "make_corpus.py"


async def keys(pilot, count: int) -> tuple[float, float, int]:
    """Press `j` `count` times, each drawn before the next: (median ms, p95 ms, presses that laid the screen out)."""
    layouts = 0
    original = Screen._refresh_layout

    def counting(self, *args, **kwargs):
        nonlocal layouts
        layouts += 1
        return original(self, *args, **kwargs)

    Screen._refresh_layout = counting
    times, relaid = [], 0
    try:
        for _ in range(count):
            before, cpu = layouts, time.process_time()
            await pilot.press("j")
            await pilot.pause()
            times.append((time.process_time() - cpu) * 1000)
            relaid += layouts > before
    finally:
        Screen._refresh_layout = original
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], relaid


async def measure(path: Path, count: int) -> tuple[int, float, float, float, tuple[float, float, int]]:
    started = time.perf_counter()
    collection = read_path(path)
    parsed = time.perf_counter()
    app = TriageApp(collection)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        painted = time.perf_counter()
        paper_list = app.query_one(PaperList)
        subset = collection.papers[::7]
        swap_start = time.perf_counter()
        paper_list.set_papers(subset)
        await pilot.pause()
        swapped = time.perf_counter()
        paper_list.set_papers(collection.papers)
        await app.workers.wait_for_complete()
        await pilot.pause()
        per_key = await keys(pilot, count)
    return len(collection.papers), parsed - started, painted - parsed, swapped - swap_start, per_key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--keys", type=int, default=40, help="how many `j` to time (default 40)")
    args = parser.parse_args()
    print(f"{'papers':>8} {'parse s':>8} {'first paint s':>14} {'swap 1/7 s':>11} {'j p50 ms':>9} {'j p95 ms':>9} {'j relayouts':>12}")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TRIAGE_DB"] = str(Path(folder) / "triage.json")
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(folder) / f"{size}.txt"
            subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "-o", str(path)], check=True)
            n, parse, paint, swap, (p50, p95, relaid) = asyncio.run(measure(path, args.keys))
            print(f"{n:>8} {parse:>8.2f} {paint:>14.2f} {swap:>11.3f} {p50:>9.1f} {p95:>9.1f} {relaid:>6}/{args.keys}")


if __name__ == "__main__":
    main()
