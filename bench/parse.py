"""Parse time and peak memory of `store.readers.read_paths` on real and synthetic abstract lists.

Rows: the 2,260-abstract ICLR 2024 file from ../shared/corpora and N synthetic abstracts made
by ../shared/tools/make_corpus.py (seed format, and JSONL with titles). Each file is parsed in
a fresh interpreter, so the pylatexenc cache starts cold and the peak RSS is that one parse's
(the "baseline" column is the interpreter with `store` imported, before parsing). Lists of
`store.readers.records.PARALLEL_FROM` abstracts or more are analysed in worker processes: "CPU s"
adds their time to the parent's, "worker MB" is the largest worker's peak RSS. On a busy
machine wall time says little; CPU s / cores is what an idle machine would take. "cached s" is
the wall time of opening the same unchanged file again, in another fresh interpreter, from the
parse cache the first run wrote (a temporary `$TRIAGE_CACHE`, so the user's cache is untouched).

    python bench/parse.py [-n 100000] [--repeat 3] [--file arxiv-10000.jsonl ...]

`--file` adds a row for each list given (an arXiv snapshot's JSON Lines, say, with true titles and authors).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def child(path: str) -> None:
    sys.path.insert(0, str(ROOT))
    from store.readers import read_paths

    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    collection = read_paths([path])
    elapsed = time.perf_counter() - start
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime - before.ru_utime - before.ru_stime + workers.ru_utime + workers.ru_stime
    named = sum(1 for p in collection.papers if p.name)
    print(json.dumps({"papers": len(collection.papers), "named": named, "seconds": elapsed, "cpu": cpu,
                      "baseline_mb": before.ru_maxrss / 1024, "peak_mb": me.ru_maxrss / 1024,
                      "worker_mb": workers.ru_maxrss / 1024}))


def run_child(path: Path, cache: str) -> dict:
    env = {**os.environ, "TRIAGE_CACHE": cache}
    out = subprocess.run([sys.executable, __file__, "--child", str(path)], capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def measure(path: Path, repeat: int) -> dict:
    runs, cached = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as cache:
            runs.append(run_child(path, cache))
            cached.append(run_child(path, cache)["seconds"])
    best = min(runs, key=lambda run: run["cpu"])
    return {**best, "cpu_max": max(run["cpu"] for run in runs), "cached": min(cached), "size_mb": path.stat().st_size / 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100_000, help="number of synthetic abstracts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per file; the one of least CPU is shown, and the most CPU any took")
    parser.add_argument("--file", action="append", default=[], type=Path, help="another list to parse (repeatable)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    files = [("ICLR 2024 (seed format)", SHARED / "corpora" / "iclr-2024-abstracts.txt")]
    with tempfile.TemporaryDirectory() as tmp:
        make = SHARED / "tools" / "make_corpus.py"
        for fmt in ("txt", "jsonl"):
            out = Path(tmp, f"synthetic.{fmt}")
            subprocess.run([sys.executable, str(make), str(args.n), "--format", fmt, "-o", str(out)], check=True)
            files.append((f"{args.n:,} synthetic ({fmt})", out))
        files += [(path.name[:28], path) for path in args.file]
        print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
        print(f"{'file':28} {'MB':>6} {'papers':>8} {'named':>7} {'wall s':>7} {'CPU s':>7} {'CPU max':>7} {'CPU µs/paper':>13}"
              f" {'baseline MB':>12} {'peak MB':>8} {'worker MB':>10} {'cached s':>9}")
        for label, path in files:
            row = measure(path, args.repeat)
            print(f"{label:28} {row['size_mb']:6.1f} {row['papers']:8d} {row['named']:7d} {row['seconds']:7.2f}"
                  f" {row['cpu']:7.2f} {row['cpu_max']:7.2f} {row['cpu'] / row['papers'] * 1e6:13.1f} {row['baseline_mb']:12.0f}"
                  f" {row['peak_mb']:8.0f} {row['worker_mb']:10.0f} {row['cached']:9.2f}")


if __name__ == "__main__":
    main()
