"""Time to first paint of the app, and to swap in a filtered subset, at growing list sizes.

    python bench/render.py [--sizes 1000,10000,100000]

Needs ../shared/tools/make_corpus.py (beside the checkout) to write the lists.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from store import read_path
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList

MAKE_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "tools" / "make_corpus.py"


async def measure(path: Path) -> tuple[int, float, float, float]:
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
    return len(collection.papers), parsed - started, painted - parsed, swapped - swap_start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    args = parser.parse_args()
    print(f"{'papers':>8} {'parse s':>8} {'first paint s':>14} {'swap 1/7 s':>11}")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TRIAGE_DB"] = str(Path(folder) / "triage.json")
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(folder) / f"{size}.txt"
            subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "-o", str(path)], check=True)
            n, parse, paint, swap = asyncio.run(measure(path))
            print(f"{n:>8} {parse:>8.2f} {paint:>14.2f} {swap:>11.3f}")


if __name__ == "__main__":
    main()
