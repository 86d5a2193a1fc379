"""The parse cache: a cold read vs a read from the cache, their time and memory, and the entries' sizes.

    python bench/parse_cache.py [--sizes 10000,100000] [--file LIST]... [--code CHECKOUT]

Synthetic lists come from ../shared/tools/make_corpus.py (beside the checkout; made once under
the system's temporary folder); `--file` adds lists of your own; the ICLR 2024 abstracts come
first when ../shared/corpora is there. Each read runs in a fresh interpreter with a temporary
`$TRIAGE_CACHE` (the user's cache is untouched): "cold" parses the list and writes the cache
(waiting for the background writer: `cache.settle`), "cached" reads it back, "ids" is what
`triage set` reads (`store.readers.ids.ids`). Columns: wall seconds of `read_paths` (best of
`--repeat`), the interpreter's peak RSS and its RSS once the read is done (with the collection
held), both with `store` imported before (its "base" RSS alone is shown), and each cache entry's
size on disk. `--code` measures another checkout's `store` (e.g. an export of main) with the
same lists, for before/after tables. On a busy machine wall times say little: the load average
is printed with each table.
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
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def child(code: str, what: str, path: str) -> None:
    sys.path.insert(0, code)
    from store.readers import cache, read_paths

    base = rss_mb()
    start = time.perf_counter()
    if what == "ids":
        from store.readers.ids import ids

        found = ids([path])
        count = len(found.papers) if found is not None else -1
    else:
        count = len(read_paths([path]).papers)
    seconds = time.perf_counter() - start
    after = rss_mb()
    cache.settle()
    print(json.dumps({"papers": count, "seconds": seconds, "base": base, "after": after,
                      "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def run(code: str, what: str, path: Path, folder: str) -> dict:
    env = {**os.environ, "TRIAGE_CACHE": folder}
    out = subprocess.run([sys.executable, __file__, "--child", code, what, str(path)],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def sizes(folder: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for entry in Path(folder).iterdir():
        found[entry.suffix] = found.get(entry.suffix, 0) + entry.stat().st_size / 1e6
    return found


def measure(code: str, path: Path, repeat: int) -> dict:
    best: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        for what in ("cold", "cached", "ids"):
            for _ in range(repeat if what != "cold" else 1):
                row = run(code, what, path, folder)
                if what not in best or row["seconds"] < best[what]["seconds"]:
                    best[what] = row
        return {**best, "sizes": sizes(folder)}


def synthetic(n: int) -> Path:
    path = Path(tempfile.gettempdir(), f"parse-cache-bench-{n}.txt")
    if not path.exists():
        subprocess.run([sys.executable, str(MAKE_CORPUS), str(n), "-o", str(path)], check=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="synthetic list lengths, comma-separated")
    parser.add_argument("--file", action="append", default=[], help="another list to measure")
    parser.add_argument("--repeat", type=int, default=3, help="cached and ids reads per list; the fastest is shown")
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose store is measured")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    lists = [Path(f) for f in args.file]
    iclr = SHARED / "corpora" / "iclr-2024-abstracts.txt"
    lists = ([iclr] if iclr.exists() else []) + [synthetic(int(n)) for n in args.sizes.split(",") if n] + lists
    print(f"code: {args.code}; cores: {os.cpu_count()}; load average before: {os.getloadavg()[0]:.1f}")
    print(f"{'list':28} {'papers':>7} | {'cold s':>6} {'peak':>5} {'held':>5} | {'cached s':>8} {'peak':>5} {'held':>5}"
          f" | {'ids s':>5} {'peak':>5} | {'base':>4} | {'.parse':>6} {'.ids':>5} MB")
    for path in lists:
        row = measure(args.code, path, args.repeat)
        cold, cached, ids, size = row["cold"], row["cached"], row["ids"], row["sizes"]
        print(f"{path.name[:28]:28} {cached['papers']:7d} | {cold['seconds']:6.2f} {cold['peak']:5.0f} {cold['after']:5.0f}"
              f" | {cached['seconds']:8.3f} {cached['peak']:5.0f} {cached['after']:5.0f}"
              f" | {ids['seconds']:5.3f} {ids['peak']:5.0f} | {cached['base']:4.0f}"
              f" | {size.get('.parse', 0):6.1f} {size.get('.ids', 0):5.1f}")
    print(f"load average after: {os.getloadavg()[0]:.1f} (peak, held, base: RSS in MB)")


if __name__ == "__main__":
    main()
