"""What a key costs the app on a long list: `j`, `s`, a query character, and a phrase's first letters.

    python bench/keys.py [--size 100000] [--list FILE]

In process, through Textual's Pilot at 120×40: for each key, from the key being sent until the app
has handled it and everything it caused (for a query character: the search on its worker thread and
the results put in the list) and the screen has been composed again (`Pilot.pause`, which waits for
the app to be idle and then refreshes the screen). Reported per key as p50/p95 of the wall time and
of the process's CPU time (all threads): the CPU figure is what the app spends, the wall figure what
a user waits on this machine (higher under load). Not included: writing to a real terminal.

A key bound to nothing (`f19`: the app looks it up and does nothing) is timed as the "floor": what
the driver itself (Pilot's press and pause: posting the key, waiting for every widget to be idle,
sampling the CPU to see that the app is) and the app's dispatch of a key cost, with nothing to draw.
A key's cost to the app is its row less this one; what this row costs a user is only the dispatch.

`j` is timed twice: the first 40 presses as soon as the app's search engine is ready (search works: a
user's first keys, while the open's thread still writes the cache entries and makes the citation keys,
holding the GIL in its Python parts), and 40 more once that thread is done ("j, open done").

A held `j` is 40 presses arriving at once (posted together, as a terminal's key repeat queues them
while the app is busy), timed until the last one is drawn with its paper in the detail pane, divided
by 40 (3 bursts): the list keeps up with a held key while that is below the repeat's interval (~33 ms
at 30 presses a second).

The list is made with ../shared/tools/make_corpus.py (beside the checkout) unless --list is given; it
is read (and cached) before the app starts, and the app's search engine is ready before the first key.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual import events

from store.readers import read_path
from store.papers.text import title_display
from tui.app import TriageApp
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList

MAKE_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "tools" / "make_corpus.py"
Timed = list[tuple[float, float]]
UNBOUND = "f19"
"""A key no binding of the app's uses (the floor row)."""
PHRASES = 25
"""Times `"n` and `"ne` are typed: 8 could not tell 10 ms apart on this machine (two runs of one build differed so)."""


async def timed(pilot, action: Callable[[], Awaitable[object]], samples: Timed) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    await action()
    await pilot.pause()
    samples.append((time.perf_counter() - wall, time.process_time() - cpu))


async def searched(app: TriageApp, pilot, key: str) -> None:
    """Type `key` into the filter and wait until the list shows the results of the whole query."""
    await pilot.press(key)  # the filter bar's change is handled: the search worker started
    await pilot.pause()
    await app.workers.wait_for_complete()  # a search worker ends once its results are in the list


async def burst(app: TriageApp, count: int) -> tuple[float, float]:
    """`count` presses of `j` arriving at once, as a held key sends them: (seconds until the last one is
    drawn with its paper in the detail pane, CPU seconds), each divided by `count`."""
    paper_list, detail = app.query_one(PaperList), app.query_one(DetailPane)
    target = paper_list.cursor + count
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        app.post_message(events.Key("j", "j"))
    while not (paper_list.cursor == target and detail.part("title").plain == title_display(paper_list.current.title).plain):
        await asyncio.sleep(0.001)
    drawn = asyncio.Event()
    app.call_after_refresh(drawn.set)
    await drawn.wait()
    return (time.perf_counter() - wall) / count, (time.process_time() - cpu) / count


async def measure(path: Path) -> dict[str, Timed]:
    app = TriageApp(read_path(path))
    keys: dict[str, Timed] = {"unbound key (floor)": [], "j": [], "j, open done": [], "j held (40 at once)": [], "s": [], "query character": [],
                              '"n': [], '"ne': []}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        while app._index is None:  # made on the open's thread (tui.loading), not a worker
            await asyncio.sleep(0.01)
        await app.workers.wait_for_complete()  # (and whatever the app prepares with it)
        await pilot.pause()
        for _ in range(40):
            await timed(pilot, lambda: pilot.press("j"), keys["j"])
        while app.working_behind:  # the open's thread, after the engine: the cache entries, the citation keys
            await asyncio.sleep(0.05)
        await pilot.pause()
        for _ in range(40):
            await timed(pilot, lambda: pilot.press(UNBOUND), keys["unbound key (floor)"])
        for _ in range(40):
            await timed(pilot, lambda: pilot.press("j"), keys["j, open done"])
        for _ in range(3):
            keys["j held (40 at once)"].append(await burst(app, 40))
            await pilot.pause()
        for _ in range(20):
            await timed(pilot, lambda: pilot.press("s"), keys["s"])
        await pilot.press("slash")
        for _ in range(4):
            for letter in "graph":
                await timed(pilot, lambda letter=letter: searched(app, pilot, letter), keys["query character"])
            for _ in "graph":
                await searched(app, pilot, "backspace")
        for _ in range(PHRASES):
            await searched(app, pilot, '"')
            await timed(pilot, lambda: searched(app, pilot, "n"), keys['"n'])
            await timed(pilot, lambda: searched(app, pilot, "e"), keys['"ne'])
            for _ in '"ne':
                await searched(app, pilot, "backspace")
    return keys


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--list", type=Path, help="an abstract list to use instead of a synthetic one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TRIAGE_DB"] = str(Path(folder) / "triage.json")
        path = args.list
        if path is None:
            path = Path(folder) / f"{args.size}.txt"
            subprocess.run([sys.executable, str(MAKE_CORPUS), str(args.size), "-o", str(path)], check=True)
        keys = asyncio.run(measure(path))
    print(f"{'key':<20} {'n':>3} {'wall p50 ms':>12} {'wall p95 ms':>12} {'cpu p50 ms':>11} {'cpu p95 ms':>11}")
    for key, samples in keys.items():
        wall, cpu = [w * 1000 for w, _ in samples], [c * 1000 for _, c in samples]
        print(f"{key:<20} {len(samples):>3} {quantile(wall, .5):>12.1f} {quantile(wall, .95):>12.1f}"
              f" {quantile(cpu, .5):>11.1f} {quantile(cpu, .95):>11.1f}")


if __name__ == "__main__":
    main()
