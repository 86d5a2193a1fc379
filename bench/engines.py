"""Engines for issue 34: tantivy and SQLite FTS5 on the same records (and, when the design note below was measured,
the app's SearchIndex of then beside them).

    python bench/engines.py [--sizes 100000,1000000] [--engines tantivy,fts5] [--runs 7]
                            [--data /work/wt/engine34-data] [--reuse] [--rg-runs 3]

SearchIndex, the app's in-memory index of then ("today" in the note), was removed when the engine the note chose
replaced it (store.search.engine): its column is history, measured by an adapter removed with it (`Today` in
`git show 99dd615:bench/engine_adapters.py`: `read_path` + `search_index` + `literal_ready` from the app's cache
entries). The app's engine, as built and opened from the cache, is measured by bench/engine_search.py, and in the
app by bench/scale.py.

DESIGN NOTE (issue 34) — the run of 2026-12-02 on the shared 2-core machine (load average 10–27 from
other developers' tests: wall times are several times the CPU times; compare CPU, and competitors
within one table, which ran in the same minutes).

100,000 arXiv-form records (208 MB of JSON Lines), `python bench/engines.py --sizes 100000`:

                                         SearchIndex (today)     tantivy          SQLite FTS5
  build, CPU s (wall s)                  56.6 (560)              33.6 (205)       46.1 (519)
  build peak RSS MB                      1253                    149              27
  on disk MB                             235 (+ list re-read)    155 (records in) 469 (records in)
  reopen to first answer, CPU s (wall)   2.00 (19.0)             0.07 (0.31)      0.12 (1.04)
  peak RSS MB reopened, all queries      642                     85               30
  query p50/p95 ms: 1 word               151/187                 26/71            1255/1612
                    2 words              76/113                  68/151           525/549
                    typo (2 words)       73/113                  75/116           122/173
                    "neural network"     929/1129                56/70            772/864
                    "n                   186/259                 1/21 (capped)    1709/1918
                    kw:cs.LG             200/287                 2/18             245/282
                    llm OR agent         146/217                 51/62            688/824
  rg -i on the same file: 750–2,500 ms a query (bench/scale.py's table has fzf: 20 s to >180 s).
  (today's app, bench/scale.py: cold open searchable after 195 s wall, 80 s CPU for the session, peak
  1,375 MB for the app and its workers; reopened searchable after 12 s, 787 MB.)
1,000,000 records (2,082 MB), tantivy alone (`--engines tantivy`, load 10–27; FTS5's and SearchIndex's
builds did not fit the session on this load — FTS5 scores and counts every match, so its common-word
query grows ~10×, ~12 s; today's app was still "reading 0%" after 10 min at 7.9 GB, bench/scale.py):
  build 277 s CPU (1,487 s wall), peak 748 MB; 1,509 MB on disk with the records; reopened to its
  first answer in 0.08 s CPU (0.51 s wall), 135 MB resident after every query; p50/p95 ms: 1 word
  45/233 (715,277 matches), 2 words 83/171, 4 words 200/264, typo 39/60, prefix 24/87, "n 21/32,
  "neural network" 222/274, "graph neural network" 146/201, author: 3/20, author:"…" 0.6/0.9,
  kw: 55/61, title: 15/20, OR 35/67, NOT 143/172; rg -i on the same file 1.3–7.8 s a query.
  So at 1M the phrase, 4-word and NOT classes miss "p50 ≤ 100 ms" under this load; everything else
  meets it. Not the count (checked at load 11: "neural network" 136 ms with the count, 131 without):
  a top-40 search scores every match, each phrase candidate's positions read, in two fields. Next:
  one `text` field for title and abstract (the title's boost from a second, title-only clause only
  on the words, not the phrase), and a phrase's prefix expansion bounded by the vocabulary.

Choice: tantivy. It is the only one of the three that meets the query aim already at 100k under this
load (every class p50 ≤ 75 ms but "4 words", 146 ms, and each far under rg), opens in 0.07 s of CPU
with 85 MB resident (its segments are memory-mapped: the aim "reopened searchable ≤ 1 s, ≤ 300 MB"
is met by construction, at any size), builds in 60% of today's index CPU on two threads within a
128 MB writer heap (the build peak is the writer's budget, not the list's size), and keeps the records
themselves in its compressed document store in less room than today's cache alone. FTS5 is
smallest in memory and needs no dependency, but every query that matches many papers costs a bm25
over all of them plus a count (1.3 s for one common word at 100k, so ~10 s at 1M): the aim fails
where the user types most (the first letters of a word). SearchIndex stays fast for words but its
phrases cost ~1 s at 100k and grow with the texts it holds in memory, and its memory is the issue.

How the index maps onto the query language (bench/engine_adapters.py is the sketch of it):
- fields: title (boost 3: title above body), abstract, authors (`author:`), categories/keywords
  (`kw:`, `cat:`), and area, track, venue as raw-token fields for the qualifiers (`area:`, `track:`,
  `venue:`); id, year, the position in the list and the interest score as fast fields.
- words: each word is an OR of itself (boost 1), its near spellings from rapidfuzz over the vocabulary
  kept beside the index (boost 0.5: typo quality; one edit under 8 letters, two from 8), and, for the
  word being typed, its prefix (boost 0.3). AND between words, `OR` as a should-group, `NOT`/`-` as
  must-not. Phrases are phrase queries over positions, the last word a prefix (the app's literal match
  finds "neural networks" for "neural network": same counts, 24,510 vs 24,386 — the app's differ by
  the abstracts' LaTeX and hyphens, to check case by case against tests/test_literal_phrases.py).
  `"n` is a phrase-prefix query: tantivy expands a prefix to 50 terms by default (21,793 matches, the
  app 100,000): the vocabulary file gives the prefix's terms instead (a term-set query), as for typos.
- highlights: tantivy's SnippetGenerator gives the detail pane's spans; the rows keep store.search.highlight
  over the title with the query's expanded terms (the words the engine matched, typos included).
- qualifiers on marks (`is:starred`, tags, notes) stay in the triage database (they change at every
  key): their ids become a term-set filter; the views and sorts (year, title, file order, For you) are
  fast-field orders (`searcher.search(order_by_field=…)`); For you's and more-like-this' features
  (tf-idf rows) are built once with the index and kept beside it (a sparse matrix file), the model's
  scores written back as a fast field after a mark.
- on disk: one index folder per list (or per library: the marked papers of every list and the fetched
  daily lists as one index, segments added per day), under the cache folder, keyed as today's entries
  (the list files' identity and this code's version). The records and texts live in its document
  store and are read for the rows on screen and the detail pane only.
- removed by it: store/papers/packed.py (packed texts), store/search/phrases.py and as_lines.py (the
  phrase texts), store/search/index_build.py, index_made.py, index_entry.py and store/readers/index_cache.py
  (numpy postings and their packed cache entry), the parse's fork server and workers in tui/processes.py
  (tantivy indexes on its own threads; a JSON Lines list is streamed into the writer), store/common/heap.py
  (glibc malloc tuning) and the CPython private calls. store/search/query.py (the language) and
  vocabulary.py (rapidfuzz) stay; store/search/index.py becomes the translation to engine queries.
- damage: tantivy checks its files (meta.json, segment footers) on open; a failed open or search is a
  rebuild said in the header. Two windows: one writer lock (tantivy's), readers share the segments.

What is measured, for each size's arXiv-form list (bench/arxiv_lists.py, made once into `--data`) and
each engine (bench/engine_adapters.py), each step in a fresh process:
- build: from the list file to an index on disk that answers (tantivy: the records in its document
  store, committed and merged; FTS5: a `papers` table and an external-content fts5 table over it
  with prefix indexes 1–3, optimized; both with the vocabulary file beside; SearchIndex, in the note's
  run: the app's parse and index cache entries): CPU s (all threads),
  wall s, peak RSS (VmHWM), and the size on disk;
- reopen: a new process opens the index until its first answer (`graph`), wall and CPU s;
- queries: each class of bench/scale.py's QUERIES, first time, then p50/p95 ms over `--runs`,
  with its match count and the ids of the first 40 rows (the rows a screen shows); the peak RSS
  of the reopened process after all of them. `rg -i` on the list file is timed once per size in the
  parent, on the same patterns as bench/scale.py.
The page cache is warm (the index was just written: a shared machine, its caches are not dropped).
The machine is shared (2 cores, ~7 developers): CPU seconds are what load inflates least.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arxiv_lists import DATA, arxiv_list  # noqa: E402 (beside this file)
from engine_adapters import ENGINES  # noqa: E402
from scale import QUERIES, _tool, percentile  # noqa: E402


def peak_mb() -> float:
    return int(Path("/proc/self/status").read_text().split("VmHWM:")[1].split()[0]) / 1024


def build(engine: str, path: Path, folder: Path) -> dict:
    started, cpu = time.perf_counter(), time.process_time()
    ENGINES[engine].build(path, folder)
    return {"wall": time.perf_counter() - started, "cpu": time.process_time() - cpu, "peak": peak_mb()}


def reopen(engine: str, folder: Path, runs: int) -> dict:
    started, cpu = time.perf_counter(), time.process_time()
    opened = ENGINES[engine](folder)
    opened.search("graph")
    out = {"wall": time.perf_counter() - started, "cpu": time.process_time() - cpu, "queries": {}}
    for label, query, _, _ in QUERIES:
        started = time.perf_counter()
        count, ids = opened.search(query)
        first = (time.perf_counter() - started) * 1000
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            opened.search(query)
            samples.append((time.perf_counter() - started) * 1000)
        out["queries"][label] = {"count": count, "first": first, "samples": samples, "ids": ids[:5]}
    out["peak"] = peak_mb()
    return out


def child(step: str, engine: str, path: Path, folder: Path, runs: int) -> dict:
    env = {**os.environ, "TRIAGE_CACHE": str(folder)}
    done = subprocess.run([sys.executable, __file__, f"--{step}", engine, str(path), str(folder), "--runs", str(runs)],
                          env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{engine} {step} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def disk_mb(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20


def cell(samples: list[float]) -> str:
    return f"{statistics.median(samples):.1f}/{percentile(samples, 0.95):.1f}" if samples else "-"


def table(size: int, path: Path, engines: list[str], data: Path, runs: int, reuse: bool, rg_runs: int) -> None:
    print(f"\n== {size:,} records, arXiv snapshot form ({path.name}, {path.stat().st_size / 2**20:.0f} MB); "
          f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} shared cores", flush=True)
    results = {}
    for engine in engines:
        folder = data / f"engine-{engine}-{size}"
        kept = data / f"engine-{engine}-{size}.json"
        if reuse and kept.exists():
            results[engine] = tuple(json.loads(kept.read_text()))
            print(f"  {engine}: as measured before ({kept.name})", flush=True)
            continue
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        built = child("build", engine, path, folder, runs)
        opened = child("reopen", engine, path, folder, runs)
        results[engine] = (built, disk_mb(folder), opened)
        kept.write_text(json.dumps(results[engine]))
        print(f"  {engine}: built ({built['cpu']:.0f} s CPU), reopened (load {os.getloadavg()[0]:.2f})", flush=True)
    rg = {label: [_tool(["rg", "-i", "-c", "-e", pattern], path, pattern) for _ in range(rg_runs)]
          for label, _, pattern, _ in QUERIES}
    print(f"  {'':<34}" + "".join(f"{e:>22}" for e in engines))
    rows = [("build CPU s (wall s)", lambda b, d, o: f"{b['cpu']:.1f} ({b['wall']:.1f})"),
            ("build peak RSS MB", lambda b, d, o: f"{b['peak']:.0f}"),
            ("on disk MB", lambda b, d, o: f"{d:.0f}"),
            ("reopen to first answer s, CPU (wall)", lambda b, d, o: f"{o['cpu']:.2f} ({o['wall']:.2f})"),
            ("peak RSS MB, reopened + all queries", lambda b, d, o: f"{o['peak']:.0f}")]
    for label, show in rows:
        print(f"  {label:<34}" + "".join(f"{show(*results[e]):>22}" for e in engines))
    print(f"\n  query ms p50/p95 (matches){'':<8}" + "".join(f"{e:>22}" for e in engines) + f"{'rg -i p50/p95':>16}")
    for label, query, _, _ in QUERIES:
        cells = ""
        for e in engines:
            got = results[e][2]["queries"][label]
            cells += f"{cell(got['samples']) + ' (' + str(got['count']) + ')':>22}"
        print(f"  {label:<10} {query[:23]:<23}{cells}{cell(rg[label]):>16}")
    for e in engines:
        firsts = " ".join(f"{label} {results[e][2]['queries'][label]['first']:.0f}" for label, *_ in QUERIES)
        print(f"  first-time ms, {e}: {firsts}")
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--engines", default="tantivy,fts5")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--rg-runs", type=int, default=3, help="runs of rg -i per query (a run is ~20 s at 1M on a loaded machine)")
    parser.add_argument("--reuse", action="store_true", help="an engine measured before at a size (its results kept "
                        "beside its index, engine-ENGINE-SIZE.json) is not measured again: engines run apart make one table")
    parser.add_argument("--build", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--reopen", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build or args.reopen:
        engine, path, folder = args.build or args.reopen
        step = build(engine, Path(path), Path(folder)) if args.build else reopen(engine, Path(folder), args.runs)
        print(json.dumps(step))
        return
    data = Path(args.data)
    for size in (int(s) for s in args.sizes.split(",")):
        table(size, arxiv_list(size, data), args.engines.split(","), data, args.runs, args.reuse, args.rg_runs)


if __name__ == "__main__":
    main()
