"""Time to first paint of the app, to swap in a filtered subset, and per `j`, at growing list sizes.

    python bench/render.py [--sizes 1000,10000,100000] [--keys 40] [--list FILE]

A swap shows every 7th paper in place of all of them (as a view or a query that narrows 100,000 to
~14,000 does): timed from `set_papers` until the frame that shows the new rows is drawn, with the CPU
time the UI thread spent on it in brackets; once right after the first paint, while the index (and the
rest the app makes at start) is made or loaded on other threads, and once they are done.
(`Pilot.pause` is not used for it: it waits until the whole process is idle, up to 1 s, which the
background work at start never is.)

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

from store.readers import read_path
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


async def swap(paper_list: PaperList, papers: list) -> tuple[float, float]:
    """Show `papers` in the list: (seconds until the frame that shows them is drawn, seconds of UI-thread CPU)."""
    drawn = asyncio.Event()
    wall, cpu = time.perf_counter(), time.thread_time()
    paper_list.set_papers(papers)
    paper_list.call_after_refresh(drawn.set)
    await drawn.wait()
    return time.perf_counter() - wall, time.thread_time() - cpu


async def measure(path: Path, count: int) -> tuple[int, float, float, tuple[float, float], tuple[float, float],
                                                   tuple[float, float, int]]:
    started = time.perf_counter()
    collection = read_path(path)
    parsed = time.perf_counter()
    app = TriageApp(collection)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        painted = time.perf_counter()
        paper_list = app.query_one(PaperList)
        subset = collection.papers[::7]
        busy = await swap(paper_list, subset)  # while the index (and the rest made at start) is made or loaded
        await swap(paper_list, collection.papers)
        await app.workers.wait_for_complete()
        await pilot.pause()
        idle = await swap(paper_list, subset)
        await swap(paper_list, collection.papers)
        await pilot.pause()
        per_key = await keys(pilot, count)
    return len(collection.papers), parsed - started, painted - parsed, busy, idle, per_key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--keys", type=int, default=40, help="how many `j` to time (default 40)")
    parser.add_argument("--list", type=Path, help="an abstract list to use instead of the synthetic ones (read from the parse cache the second time)")
    args = parser.parse_args()
    print(f"{'papers':>8} {'parse s':>8} {'first paint s':>14} {'swap 1/7 ms (ui cpu)':>21} {'idle swap ms (ui cpu)':>22}"
          f" {'j p50 ms':>9} {'j p95 ms':>9} {'j relayouts':>12}")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TRIAGE_DB"] = str(Path(folder) / "triage.json")
        for size in (int(s) for s in args.sizes.split(",")) if args.list is None else [0]:
            path = args.list or Path(folder) / f"{size}.txt"
            if args.list is None:
                subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "-o", str(path)], check=True)
            n, parse, paint, busy, idle, (p50, p95, relaid) = asyncio.run(measure(path, args.keys))
            print(f"{n:>8} {parse:>8.2f} {paint:>14.2f} {ms(busy):>21} {ms(idle):>22}"
                  f" {p50:>9.1f} {p95:>9.1f} {relaid:>6}/{args.keys}")


def ms(timing: tuple[float, float]) -> str:
    return f"{timing[0] * 1000:.0f} ({timing[1] * 1000:.0f})"


if __name__ == "__main__":
    main()
