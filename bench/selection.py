"""Bulk triage at scale, in the real app (Pilot): select all papers shown (`ctrl+a`), star them (`s`,
then `y` to the question), and wait until the store has written them durably (the writer thread's
queue drained: `TriageStore.put` returns after its fsync). Then the same for the undo (`u`).

    python bench/selection.py [--sizes 1000,10000] [--repeat 3]

Papers: `python ../shared/tools/make_corpus.py N` (synthetic abstracts), read once per size; each
run a fresh database. Figures in milliseconds, the median of `--repeat` runs, each from the key to
the end of its work (not to the end of Pilot's wait for the app to be idle, which also waits for the
For-you ranking the new stars start on a worker): select = `ctrl+a` until the selection is made and
its rows marked for redraw; star = `y` until the stars are durable; undo = `u` until durable.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from store.readers import read_path  # noqa: E402
from tui.app import TriageApp  # noqa: E402

MAKE_CORPUS = ROOT.parent / "shared" / "tools" / "make_corpus.py"
"""The synthetic corpus maker beside the checkout (as the tests find the corpora)."""


def timed(target: object, name: str, done: list[float]) -> None:
    """Wrap method `name` of `target` so that each call appends the time it returned to `done`."""
    method = getattr(target, name)

    def wrapper(*args, **kwargs):
        result = method(*args, **kwargs)
        done.append(time.perf_counter())
        return result

    setattr(target, name, wrapper)


async def one_run(collection, db: str) -> tuple[float, float, float]:
    """One fresh app: the times from a key to the end of its work (the selection made; the marks durable)."""
    app = TriageApp(collection, db)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()  # the start's own work (search index, citation keys) is done
        await pilot.pause()
        selected: list[float] = []
        written: list[float] = []
        timed(app, "action_select_all", selected)
        timed(app.store, "put", written)  # runs on the writer thread; returns after the fsync

        def durable() -> float:
            app._writer.submit(lambda: None).result()  # the writer's queue drained
            return written[-1]

        start = time.perf_counter()
        await pilot.press("ctrl+a")
        select = selected[-1] - start
        await pilot.press("s")
        await pilot.pause()
        start = time.perf_counter()
        await pilot.press("y")
        star = durable() - start
        assert app.store.get(collection.papers[-1].id).starred
        start = time.perf_counter()
        await pilot.press("u")
        undo = durable() - start
        assert not app.store.get(collection.papers[-1].id).starred
    return select * 1000, star * 1000, undo * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'papers':>8} {'select':>8} {'star':>8} {'undo':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TRIAGE_CACHE"] = str(Path(tmp) / "cache")
        for n in (int(size) for size in args.sizes.split(",")):
            corpus = Path(tmp) / f"corpus-{n}.txt"
            corpus.write_bytes(subprocess.run([sys.executable, str(MAKE_CORPUS), str(n)], check=True,
                                              capture_output=True).stdout)
            collection = read_path(corpus)
            runs = [asyncio.run(one_run(collection, str(Path(tmp) / f"db-{n}-{k}.json"))) for k in range(args.repeat)]
            print(f"{n:>8} " + " ".join(f"{statistics.median(column):>8.0f}" for column in zip(*runs)))


if __name__ == "__main__":
    main()
