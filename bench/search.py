"""Search as you type: the search's build time and memory, per-query latency — this checkout beside a base
revision (main by default), in one table, and `fzf --filter` on the same text.

    python bench/search.py [--sizes 10000,100000] [--base main] [--fzf-sizes 10000]

The lists are JSON Lines with the fields researchers search by: the real ICLR 2024 list
(../shared/corpora/iclr-2024-papers.jsonl: authors, keywords, primary area, track, TL;DR), and
synthetic ones from ../shared/tools/make_corpus.py (abstracts and titles), each record given the
authors, keywords, area, venue and TL;DR of a real ICLR/ICML paper drawn at random (seeded), as
the tool writes none. Each revision is measured in a process of its own (the base from `git
archive`), on the same files, with a cache folder of its own. What is built is what answers the
revision's queries (bench/common.py's `searcher`): this checkout's engine, its folder built in an
empty cache (store.search.engine, as a first open of the list builds it); a base revision from
before the engine, its SearchIndex built and readied (phrase texts, qualifiers) as its app did
before the first query. Memory is the process's: "held" its resident memory (anonymous and the
index files mapped) grown since before the first build, "peak" its peak (VmHWM) above that. fzf
(Debian package `fzf`) is skipped with a note when it is not installed. Aims: every query's
median ≤ 16 ms at 10k papers and ≤ 100 ms at 100k; the search's build ≤ 5 s at 100k; the record
fields (authors, keywords) add ≤ 20% to build time and memory.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MAKE_CORPUS, ROOT, SHARED, base_tree, searcher  # noqa: E402 (bench/common.py, beside this file)

REAL = [SHARED / "corpora" / f"{name}-2024-papers.jsonl" for name in ("iclr", "icml")]

QUERIES = [
    ("1 word", "learning"),
    ("2 words", "graph neural"),
    ("4 words", "reinforcement learning policy gradient"),
    ("typo", "difusion recovry"),
    ("prefix", "contrastiv"),
    ("phrase", '"neural network"'),
    ("negation", "language !graph"),
    ("name", "bengio"),
    ("author:", "author:bengio"),
    ("author: \"\"", 'author:"Yoshua Bengio"'),
    ("kw: \"\"", 'kw:"diffusion models"'),
    ("title:", "title:graph"),
]
BUILDS = 3  # the build's median of this many


def records(text: str) -> list[dict]:
    """The records of JSON Lines (split at newlines only: U+2028 may be inside a string)."""
    return [json.loads(line) for line in text.split("\n") if line.strip()]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_mb() -> tuple[float, float]:
    """This process's resident memory and its peak (VmHWM), MB."""
    text = Path("/proc/self/status").read_text()
    return tuple(int(text.split(key + ":")[1].split()[0]) / 1024 for key in ("VmRSS", "VmHWM"))


def measure(path: Path) -> dict:
    """The search's build (median wall and CPU s), memory (MB held, peak) and each query's hits and
    first / median / p95 ms, with the `store` this process imports."""
    from store.readers import read_path

    collection = read_path(path)
    papers = collection.papers
    before = rss_mb()[0]
    walls, cpus = [], []
    for _ in range(BUILDS):
        started, cpu = time.perf_counter(), time.process_time()
        index = None  # (the last one let go first, as a reopen would)
        index = searcher(collection, fresh=True)[0]
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
    now, peak = rss_mb()
    runs = 5 if len(papers) > 50_000 else 21
    queries = {}
    for _, query in QUERIES:
        started = time.perf_counter()
        hits = index.search(query)  # the first time: what typing it in a fresh session costs
        first = (time.perf_counter() - started) * 1000
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            hits = index.search(query)
            samples.append((time.perf_counter() - started) * 1000)
        understood = not hits.query.hint
        queries[query] = (len(hits) if understood else None, first, statistics.median(samples), percentile(samples, 0.95))
    return {"papers": len(papers), "build": statistics.median(walls), "cpu": statistics.median(cpus),
            "held": now - before, "peak": peak - before, "queries": queries}


def write_list(size: int, path: Path, pool: list[dict]) -> None:
    """`size` synthetic records (make_corpus.py's) with the record fields of real papers drawn from `pool`."""
    made = subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "--format", "jsonl"], check=True,
                          capture_output=True, text=True).stdout
    rng = random.Random(size)
    with path.open("w", encoding="utf-8") as out:
        for record in records(made):
            real = rng.choice(pool)
            record.update({k: real[k] for k in ("authors", "keywords", "primary_area", "venue", "tldr") if k in real})
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


def in_process(tree: Path, path: Path, cache: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "TRIAGE_CACHE": str(cache)}
    done = subprocess.run([sys.executable, __file__, "--measure", str(path)], env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout)


def fzf_median(path: Path, query: str) -> str:
    lines = path.with_suffix(".lines")
    if not lines.exists():
        lines.write_text("".join(" ".join(r["abstract"].split()) + "\n" for r in records(path.read_text(encoding="utf-8"))),
                         encoding="utf-8")
    form = "'" + query.strip('"').replace(" ", "\\ ") if query.startswith('"') else query
    samples = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run(["fzf", "--filter", form], stdin=lines.open("rb"), capture_output=True, check=False)
        samples.append(time.perf_counter() - started)
    return f"{statistics.median(samples) * 1000:.1f}"


def change(before: float, after: float) -> str:
    return f"{(after - before) / before * 100:+.0f}%" if before else ""


def table(name: str, base: str, before: dict, after: dict, fzf: Path | None) -> None:
    print(f"\n{name}: {after['papers']} papers (load average {os.getloadavg()[0]:.2f})")
    print(f"  {'':<52} {base:>10} {'this':>10} {'change':>7}")
    for label, key, unit in (("search build, wall", "build", "s"), ("search build, CPU", "cpu", "s"),
                             ("memory held (RSS grown)", "held", "MB"), ("memory peak (VmHWM grown)", "peak", "MB")):
        print(f"  {label:<52} {before[key]:>7.2f} {unit:<2} {after[key]:>7.2f} {unit:<2} {change(before[key], after[key]):>7}")
    print(f"\n  {'query ms: first, median, p95':<52} {base:>18} {'this':>18} {'hits':>15}" + ("  fzf ms" if fzf else ""))
    for label, query in QUERIES:
        old, new = before["queries"][query], after["queries"][query]
        hits = f"{'-' if old[0] is None else old[0]} → {'-' if new[0] is None else new[0]}"
        times = " ".join(f"{t[1]:>6.1f} {t[2]:>5.1f} {t[3]:>5.0f}" for t in (old, new))
        print(f"  {label:<10} {query:<41} {times} {hits:>15}"
              + (f"  {fzf_median(fzf, query)}" if fzf and ":" not in query else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--base", default="main", help="the revision to compare with (default main)")
    parser.add_argument("--fzf-sizes", default="10000")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # (one revision's numbers, as JSON, in a process of its own)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return
    has_fzf = shutil.which("fzf") is not None
    print("load average %.2f %.2f %.2f on %d cores (other work makes wall times noisy; CPU times less so)"
          % (*os.getloadavg(), os.cpu_count() or 0))
    print(f"'-' hits: the revision does not understand the query (it matches nothing); '{args.base}' is the base")
    if not has_fzf:
        print("fzf not installed (apt-get install fzf): its column is left out")
    fzf_sizes = {int(s) for s in args.fzf_sizes.split(",") if s}
    pool = [record for path in REAL if path.exists() for record in records(path.read_text(encoding="utf-8"))]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = base_tree(args.base, folder)
        lists = [("ICLR 2024 (real)", REAL[0])] if REAL[0].exists() else []
        for size in (int(s) for s in args.sizes.split(",") if s):
            write_list(size, folder / f"{size}.jsonl", pool)
            lists.append((f"synthetic {size}", folder / f"{size}.jsonl"))
        for name, path in lists:
            before = in_process(base, path, folder / "cache-base")
            after = in_process(ROOT, path, folder / "cache-this")
            wanted = has_fzf and after["papers"] in fzf_sizes
            table(name, args.base, before, after, path if wanted else None)


if __name__ == "__main__":
    main()
