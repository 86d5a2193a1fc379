"""Search as you type: index build time and memory, per-query latency, and `fzf --filter` on the same text.

    python bench/search.py [--sizes 1000,10000,100000] [--fzf-sizes 1000,10000]

Synthetic lists come from ../shared/tools/make_corpus.py, the real one is
../shared/corpora/iclr-2024-abstracts.txt (both beside the checkout). fzf (Debian package
`fzf`) is skipped with a note when it is not installed. Aims: every query's median ≤ 16 ms
at 10k papers and ≤ 100 ms at 100k; index build ≤ 5 s at 100k.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from store import SearchIndex, read_path

SHARED = Path(__file__).resolve().parents[2] / "shared"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"
ICLR = SHARED / "corpora" / "iclr-2024-abstracts.txt"

QUERIES = [
    ("1 word", "learning"),
    ("2 words", "graph neural"),
    ("4 words", "reinforcement learning policy gradient"),
    ("typo", "difusion recovry"),
    ("prefix", "contrastiv"),
    ("phrase", '"neural network"'),
    ("negation", "language !graph"),
]


def fzf_form(query: str) -> str:
    """The same query in fzf's syntax: a phrase becomes an exact term with escaped spaces."""
    if query.startswith('"'):
        return "'" + query.strip('"').replace(" ", "\\ ")
    return query


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def index_mb(papers: list) -> tuple[float, float]:
    """Memory the index holds and the most its build used at once, as tracemalloc counts them
    (a second build: tracing slows it)."""
    tracemalloc.start()
    index = SearchIndex(papers)
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del index
    return held / 2**20, peak / 2**20


def fzf_times(lines_file: Path, query: str, runs: int) -> tuple[float, int]:
    samples, hits = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        result = subprocess.run(["fzf", "--filter", fzf_form(query)], stdin=lines_file.open("rb"),
                                capture_output=True, check=False)
        samples.append(time.perf_counter() - started)
        hits = result.stdout.count(b"\n")
    return statistics.median(samples), hits


def bench(name: str, path: Path, fzf: bool, folder: Path) -> None:
    papers = read_path(path).papers
    started, cpu = time.perf_counter(), time.process_time()
    index = SearchIndex(papers)
    build, cpu = time.perf_counter() - started, time.process_time() - cpu
    held, peak = index_mb(papers)
    runs = 5 if len(papers) > 50_000 else 21
    lines = folder / f"{name}.lines"
    if fzf:
        lines.write_text("".join(" ".join(p.plain.split()) + "\n" for p in papers), encoding="utf-8")
    print(f"\n{name}: {len(papers)} papers, index built in {build:.2f} s ({cpu:.2f} s CPU), holding {held:.0f} MB"
          f" (peak {peak:.0f} MB while building)")
    print(f"  {'query':<10} {'text':<42} {'hits':>7} {'first ms':>9} {'median ms':>10} {'p95 ms':>8}"
          + (f" {'fzf hits':>9} {'fzf median ms':>14}" if fzf else ""))
    for label, query in QUERIES:
        started = time.perf_counter()
        index.search(query)  # the first time: what typing it in a fresh session costs
        first = (time.perf_counter() - started) * 1000
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            hits = index.search(query)
            samples.append((time.perf_counter() - started) * 1000)
        row = (f"  {label:<10} {query:<42} {len(hits):>7} {first:>9.1f} {statistics.median(samples):>10.1f}"
               f" {percentile(samples, 0.95):>8.1f}")
        if fzf:
            median, found = fzf_times(lines, query, 5)
            row += f" {found:>9} {median * 1000:>14.1f}"
        print(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--fzf-sizes", default="1000,10000")
    args = parser.parse_args()
    has_fzf = shutil.which("fzf") is not None
    print("load average %.2f %.2f %.2f on %d cores (other work makes wall times noisy; CPU times less so)"
          % (*os.getloadavg(), os.cpu_count() or 0))
    if not has_fzf:
        print("fzf not installed (apt-get install fzf): its column is left out")
    fzf_sizes = {int(s) for s in args.fzf_sizes.split(",") if s}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if ICLR.exists():
            bench("ICLR 2024 (real)", ICLR, has_fzf, folder)
        for size in (int(s) for s in args.sizes.split(",") if s):
            path = folder / f"{size}.txt"
            subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "-o", str(path)], check=True)
            bench(f"synthetic {size}", path, has_fzf and size in fzf_sizes, folder)


if __name__ == "__main__":
    main()
