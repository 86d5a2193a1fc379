"""The engine on disk (store.search.engine) on a list, beside `rg -i` on the list file, in one run (issue 34).

    python bench/engine_search.py [LIST ...] [--runs 5]     (default: the ICLR list)

For each list: its read (`read_path`), the engine's build (`engine_for` with no folder in the cache: its folder
built there), the reopen to a first answer (`engine_for` again: the folder checked and opened, then `graph`), the
folder's size on disk, and each query of bench/scale.py's QUERIES: p50 CPU ms over `--runs` of the search (every
match found and ordered: tantivy answers on the calling thread; the machine is shared) with its matches, of a
screen's first 40 rows made with their title highlights, and wall ms of `rg -i` on the list file with bench/scale.py's
pattern for the class ("-": rg is not installed). Wall seconds and CPU seconds (all threads); the cache is a temporary folder.
Compare within one table.

The run of 2026-12-03, 14:55 UTC (load 10–12 on the 2 shared cores; the engine as helper branch hits34 had it before
its commit, `search` giving Hits; `python bench/engine_search.py iclr-2024-papers.jsonl 100k.jsonl --runs 3`, the
100k list `make_corpus.py 100000 --format jsonl`, 155 MB):
                                   ICLR jsonl (2,260)      100,000 (make_corpus)
  build s wall (CPU)               1.42 (0.83)             102.5 (40.7)
  reopen to first answer s (CPU)   0.061 (0.029)           0.58 (0.19)
  engine folder on disk            5 MB                    159 MB
  at 100,000, query p50 CPU ms (matches) / rg -i p50 wall ms on the file:
    learning 53.7 (66,876) / 159   graph neural 16.3 / 341   4 words 20.2 / 188   difusion recovry 5.2 / 293
    contrastiv 10.7 / 216   "n 80.9 (100,000) / 334   "neural network" 18.9 (23,313) / 204   "graph neural
    network" 9.6 / 238   title:graph 5.9 / 173   llm OR agent 28.1 / 667   language NOT graph 18.0 / 268
    (author:, kw: ≤ 1.2: make_corpus's records have neither); a screen's 40 rows with their title highlights
    within ±25% of the search (Hits are made when read); ICLR: every class ≤ 12 ms, rg 14–33 ms.

History: the run of 2026-12-03, 11:55 UTC, beside the app's SearchIndex of then (removed since: the engine replaced
it), load 12–13 on the 2 shared cores; `python bench/engine_search.py ICLR 100k.jsonl`, the 100k list
`make_corpus.py 100000 --format jsonl`; SearchIndex / engine (the engine's search then gave rows, not Hits: "first
40" was `Engine.search(first=40)`):
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
So then: phrases 3–10× faster, reopening 3× faster in CPU (nothing loaded but the lexicon, when first asked), a
screen's rows about as fast as SearchIndex's every match; ordering every match in Python cost more (66,876
rows for `learning`), as `"n` did (a regex over the term dictionary, 100,000 equal scores). The build cost
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
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import SHARED, timed  # noqa: E402 (beside this file)
from scale import QUERIES, _tool  # noqa: E402

ICLR = SHARED / "corpora" / "iclr-2024-abstracts.txt"
ROWS = 40
"""A screen's rows."""


def table(path: Path, runs: int) -> None:
    from store.readers import read_path
    from store.readers.engine_cache import engine_for

    read = timed(lambda: read_path(path), 1)
    collection = read[2]
    print(f"\n== {path.name}: {len(collection.papers):,} papers (read in {read[0]:.1f} s); load {os.getloadavg()[0]:.1f}")

    def reopen():
        engine, built = engine_for(collection)[:2]
        engine.search("graph")
        return engine, built

    build = timed(lambda: engine_for(collection)[:2], 1)
    opened = timed(reopen, 1)
    engine = opened[2][0]
    print(f"  {'build s wall (CPU)':<34}{build[0]:>10.2f} ({build[1]:.2f})" + ("" if build[2][1] else "  (not built: found)"))
    print(f"  {'reopen to first answer s (CPU)':<34}{opened[0]:>10.3f} ({opened[1]:.3f})" + ("  (built again)" if opened[2][1] else ""))
    has_rg = shutil.which("rg") is not None
    folder = getattr(engine, "folder", None)
    size = "in memory" if folder is None else f"{sum(f.stat().st_size for f in folder.rglob('*') if f.is_file()) / 2**20:.0f} MB"
    print(f"  {'engine folder on disk':<34}{size:>10}")
    print(f"  {'query p50 CPU ms (matches)':<34}{'search':>19}{'first 40 rows':>15}{'rg -i p50 ms':>14}")
    for label, query, pattern, _ in QUERIES:
        samples = [timed(lambda: engine.search(query), 1) for _ in range(runs)]
        screen = [timed(lambda: [(hit.paper_id, hit.title_spans) for hit in engine.search(query)[:ROWS]], 1)[1]
                  for _ in range(runs)]
        rg = statistics.median(_tool(["rg", "-i", "-c", "-e", pattern], path, pattern) for _ in range(runs)) if has_rg else None
        cpu = statistics.median(s[1] for s in samples) * 1000
        print(f"  {label:<10} {query[:23]:<23}{cpu:>10.1f} ({len(samples[0][2]):>6}){statistics.median(screen) * 1000:>15.1f}"
              f"{'-' if rg is None else f'{rg:.0f}':>14}", flush=True)


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
