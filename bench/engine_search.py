"""The engine on disk (store.search.engine) beside today's SearchIndex, on the same list, in one run (issue 34).

    python bench/engine_search.py [LIST ...] [--runs 5]     (default: the ICLR list)

For each list: its read (`read_path`), then for each engine the build (SearchIndex: built and its cache entry
written; the engine: its folder built), the reopen to a first answer (SearchIndex: the index loaded from its
cache entry, then `graph`; the engine: its folder checked and opened, then `graph`) and each query of
bench/scale.py's QUERIES, every match found and ordered, p50 over `--runs`, with the matches each found (CPU ms: the
machine is shared, and tantivy answers on the calling thread), and the engine's first 40 rows with the count (what a screen asks: `Engine.search(first=40)`). Wall
seconds and CPU seconds (all threads); the cache is a temporary folder. The machine is shared: compare within one
table.

The run of 2026-12-03, 11:55 UTC (load 12–13 on the 2 shared cores; `python bench/engine_search.py ICLR
100k.jsonl`, the 100k list `make_corpus.py 100000 --format jsonl`), SearchIndex / engine:
                                   ICLR (2,260)                     100,000 (make_corpus)
  build s wall (CPU)               3.12 (0.61) / 4.26 (0.89)        42.5 (21.4) / 57.3 (34.1)
  reopen to first answer s (CPU)   0.272 (0.040) / 0.108 (0.019)    0.92 (0.57) / 0.29 (0.19)
  engine folder on disk                           4 MB                               159 MB
  query p50 CPU ms at 100,000, every match ordered (engine: the first 40 rows and the count, one search: an
  ordered folder):
    learning 12.1 / 49.1 (8.4)   graph neural 8.4 / 21.2 (14.1)   4 words 14.5 / 14.2 (14.7)
    difusion recovry 4.9 / 3.7 (3.5)   contrastiv 5.3 / 11.2 (5.2)   "n 21.7 / 77.9 (41.9)
    "neural network" 78.8 / 23.6 (8.0)   "graph neural network" 58.8 / 7.9 (5.5)   author:…, kw: ≤ 1
    title:graph 2.3 / 5.1 (4.2)   llm OR agent 8.6 / 35.5 (12.5)   language NOT graph 8.1 / 25.6 (9.8)
So: phrases 3–10× faster, reopening 3× faster in CPU (nothing loaded but the lexicon, when first asked), a
screen's rows about as fast as SearchIndex's every match; ordering every match in Python costs more (66,876
rows for `learning`), as `"n` does (a regex over the term dictionary, 100,000 equal scores). The build costs
60% more CPU (the words found in Python, then indexed on one thread).

The run of 15:05 UTC (load 2-5; ICLR, and `make_corpus.py` lists of 10,000 and 100,000 as plain text), the
engine's documents made in one regex pass a text (store.search.engine.documents' `spelled`), build s wall (CPU),
SearchIndex / engine: ICLR 0.67 (0.45) / 0.63 (0.50), 10,000 2.93 (1.85) / 2.31 (1.75), 100,000 33.2 (18.5) /
28.8 (18.1); the run before it, with the words found in two passes: engine 0.62 (0.60), 3.72 (2.52), 22.7 (23.4)
(SearchIndex 0.47, 1.73, 17.3 s of CPU). The same tokens in the index: the same answers, queries as fast.
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
