"""The engine on disk (store.search.engine) beside today's SearchIndex, on the same list, in one run (issue 34).

    python bench/engine_search.py [LIST ...] [--runs 5]     (default: the ICLR list)

For each list: its read (`read_path`), then for each engine the build (SearchIndex: built and its cache entry
written; the engine: its folder built), the reopen to a first answer (SearchIndex: the index loaded from its
cache entry, then `graph`; the engine: its folder checked and opened, then `graph`) and each query of
bench/scale.py's QUERIES, every match found and ordered, p50 over `--runs`, with the matches each found (CPU ms: the
machine is shared, and tantivy answers on the calling thread), and the engine's first 40 rows with the count (what a screen asks: `Engine.search(first=40)`). Wall
seconds and CPU seconds (all threads); the cache is a temporary folder. The machine is shared: compare within one
table.

The run of 2026-12-03 (load 12–15 on the 2 shared cores; `python bench/engine_search.py ICLR 100k.jsonl`, the
100k list `make_corpus.py 100000 --format jsonl`), SearchIndex / engine:
                                   ICLR (2,260)                     100,000 (make_corpus)
  build s wall (CPU)               1.11 (0.49) / 1.75 (0.97)        108 (24) / 106 (35)
  reopen to first answer s (CPU)   0.077 (0.037) / 0.041 (0.020)    0.67 (0.41) / 0.21 (0.14)
  engine folder on disk                           4 MB                               162 MB
  query p50 CPU ms, every match ordered (engine: first 40 rows and the count), 100,000:
    learning 10.1 / 44.9 (6.4)   graph neural 4.7 / 18.0 (21.7)   4 words 8.4 / 16.7 (30.4)
    difusion recovry 3.9 / 2.7 (6.3)   contrastiv 3.8 / 9.6 (15.1)   "n 17.6 / 105 (208)
    "neural network" 70.4 / 22.2 (13.4)   "graph neural network" 53.6 / 8.6 (14.7)   author:… ≤ 1
    title:graph 1.6 / 5.2 (10.0)   llm OR agent 10.7 / 47.5 (22.9)   language NOT graph 7.6 / 29.1 (15.1)
So: phrases 3–6× faster, reopening 3× faster in CPU (and nothing loaded but the lexicon), words slower when every
match is ordered in Python (66,876 rows for `learning`); the first rows alone cost more than all when many papers
tie at the 40th (synthetic texts repeat: tantivy breaks ties by segment, so they are asked for again), and `"n`
(every paper) is the slowest: a regex over the term dictionary and 100,000 equal scores.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from scale import QUERIES  # noqa: E402 (beside this file)

ICLR = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "iclr-2024-abstracts.txt"


def timed(work):
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def table(path: Path, runs: int) -> None:
    from store.readers import cache, read_path
    from store.readers.engine_cache import engine_for
    from store.readers.index_cache import search_index

    read = timed(lambda: read_path(path))
    collection = read[2]
    print(f"\n== {path.name}: {len(collection.papers):,} papers (read in {read[0]:.1f} s); load {os.getloadavg()[0]:.1f}")

    def today_build():
        index = search_index(collection)
        cache.settle()
        return index

    def today_reopen():
        index = search_index(collection)
        index.search("graph")
        return index

    def engine_reopen():
        engine = engine_for(collection)[0]
        engine.search("graph")
        return engine

    built = {"SearchIndex": timed(today_build), "engine": timed(lambda: engine_for(collection)[0])}
    opened = {"SearchIndex": timed(today_reopen), "engine": timed(engine_reopen)}
    print(f"  {'':<34}{'SearchIndex':>22}{'engine':>22}")
    print(f"  {'build s wall (CPU)':<34}" + "".join(f"{built[e][0]:>14.2f} ({built[e][1]:.2f})" for e in built))
    print(f"  {'reopen to first answer s (CPU)':<34}" + "".join(f"{opened[e][0]:>14.3f} ({opened[e][1]:.3f})" for e in opened))
    size = sum(f.stat().st_size for f in opened["engine"][2].folder.rglob("*") if f.is_file()) / 2**20
    print(f"  {'engine folder on disk MB':<34}{'':>22}{size:>22.0f}")
    print(f"  query p50 CPU ms (matches), every match ordered{'':<12}engine: first 40 rows and the count")
    for label, query, _, _ in QUERIES:
        cells = ""
        for name, (_, _, engine) in opened.items():
            samples = [timed(lambda: engine.search(query)) for _ in range(runs)]
            cells += f"{statistics.median(s[1] for s in samples) * 1000:>14.1f} ({len(samples[0][2]):>6})"
        screen = [timed(lambda: opened["engine"][2].search(query, first=40))[1] for _ in range(runs)]
        print(f"  {label:<10} {query[:23]:<23}{cells}{statistics.median(screen) * 1000:>12.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lists", nargs="*", default=[str(ICLR)])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        os.environ["TRIAGE_CACHE"] = temp
        for path in args.lists:
            table(Path(path), args.runs)


if __name__ == "__main__":
    main()
