"""Long queries: how long the longest and costliest queries take to answer, this checkout beside a base
revision (48af6cb by default, before the caps), on the real ICLR 2024 list (2,260 papers) and the
bundled 19-paper list.

    python bench/long_queries.py [--base 48af6cb] [--timeout 60]

Each (revision, list, query) is measured in a process of its own (the base from `git archive`, as
bench/search.py does), which makes what answers the revision's queries (bench/common.py's `searcher`:
the engine, built into a cache folder of the revision's in this run by its first process, opened from it by
the others; a revision from before the engine, its SearchIndex, built and readied as its app readied it) and
then answers the query (parse and search) once, then twice more when that took under a second; the median wall and
CPU ms are printed (CPU is less noisy on a shared machine), or "> T s" when the process ran past
--timeout (it is killed). The queries: 500 identical terms, 500 distinct ones, a 1.2 MB query (a
saved search of that size stalled the picker), and queries at this checkout's caps built of the
costliest terms there are: words of one or two letters (each begins thousands of words), phrases of
one or two letters, negations, long words with two typos, author: names. "refused": the checkout
answers with nothing, at once, and says why.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, base_tree, searcher  # noqa: E402 (bench/common.py, beside this)
from search import REAL  # noqa: E402 (bench/search.py)

LISTS = [("ICLR 2024 (2,260)", REAL[0]), ("bundled (19)", ROOT / "seeds" / "iclr2024.txt")]
SHORT = [*string.ascii_lowercase, *string.digits] + [a + b for a in string.ascii_lowercase for b in string.ascii_lowercase]
TYPOS = ["reinfrocement", "representaiton", "generaliaztion", "optimizaiton", "distirbution", "convolutoinal",
         "adversairal", "probabilsitic", "architecutre", "segmentaiton"]


def queries(cap: int) -> list[tuple[str, str]]:
    """(label, query): `cap` is the most terms this checkout answers (100)."""
    typos = [f"{word}{k}" if k else word for k in range(cap // len(TYPOS) + 1) for word in TYPOS][:cap]
    return [
        ("500 × a", "|".join(["a"] * 500)),
        ("500 distinct short words, OR", "|".join(SHORT[:500])),
        ("1.2 MB: 600,000 × a", "|".join(["a"] * 600_000)),
        (f"{cap} short words, OR (cap)", "|".join(SHORT[:cap])),
        (f"{cap} short words, AND (cap)", " ".join(SHORT[:cap])),
        (f"{cap} short phrases, OR (cap)", "|".join(f'"{w}"' for w in SHORT[:cap])),
        (f"{cap} negated short words (cap)", " ".join(f"-{w}" for w in SHORT[:cap])),
        (f"{cap} long words with typos, OR (cap)", "|".join(typos)),
        (f"{cap} author: names, OR (cap)", "|".join(f"author:{w}" for w in SHORT[:cap])),
    ]


def measure(path: str, query: str) -> dict:
    """Build the search of `path`, answer `query`: the median seconds, the hits, the hint."""
    from store.readers import read_path

    index = searcher(read_path(path))[0]
    walls, cpus = [], []
    while len(walls) < 3 and (not walls or walls[0] < 1):
        started, cpu = time.perf_counter(), time.process_time()
        hits = index.search(query)
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
    return {"seconds": statistics.median(walls), "cpu": statistics.median(cpus), "hits": len(hits), "hint": hits.query.hint}


def in_process(tree: Path, path: Path, label: str, cap: int, timeout: float, cache: Path) -> dict | None:
    env = {**os.environ, "PYTHONPATH": str(tree), "TRIAGE_CACHE": str(cache)}
    try:
        done = subprocess.run([sys.executable, __file__, "--measure", str(path), label, str(cap)], env=env,
                              check=True, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout)


def shown(result: dict | None, timeout: float) -> str:
    if result is None:
        return f"> {timeout:.0f} s"
    if result["hint"].startswith("too long"):
        return "refused"
    return f"{result['seconds'] * 1000:,.0f} ({result['cpu'] * 1000:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="48af6cb", help="the revision to compare with (default 48af6cb, before the caps)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a query may run before it is stopped")
    parser.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)  # (path, label, cap: one query's numbers)
    args = parser.parse_args()
    if args.measure:
        path, label, cap = args.measure
        print(json.dumps(measure(path, dict(queries(int(cap)))[label])))
        return
    from store.search.query import MAX_TERMS

    print("load average %.2f %.2f %.2f on %d cores (a shared machine: wall times are noisy)"
          % (*os.getloadavg(), os.cpu_count() or 0))
    with tempfile.TemporaryDirectory() as tmp:
        base = base_tree(args.base, Path(tmp))
        for name, path in LISTS:
            if not path.exists():
                print(f"\n{name}: {path} not found, skipped")
                continue
            print(f"\n{name}")
            print(f"  {'query: parse and search, ms (CPU ms)':<40} {args.base:>16} {'this':>16} {'hits':>13}")
            for label, _ in queries(MAX_TERMS):
                before = in_process(base, path, label, MAX_TERMS, args.timeout, Path(tmp) / "cache-base")
                after = in_process(ROOT, path, label, MAX_TERMS, args.timeout, Path(tmp) / "cache-this")
                hits = " → ".join("-" if r is None else str(r["hits"]) for r in (before, after))
                print(f"  {label:<40} {shown(before, args.timeout):>16} {shown(after, args.timeout):>16} {hits:>13}", flush=True)


if __name__ == "__main__":
    main()
