"""paper-triage at scale: one table per list size, fzf and rg timed in the same run on the same text.

    python bench/scale.py [--sizes iclr,100000,1000000] [--kinds arxiv,bare] [--data /work/wt/engine34-data]
                          [--runs 7] [--skip open,queries,cli] [--cache DIR]

The lists: `iclr` is the real ICLR 2024 list (../shared/corpora/iclr-2024-papers.jsonl, 2,260 records);
a number N gives two lists made once by bench/arxiv_lists.py into `--data` (outside the repository)
and reused: `arxiv-N.jsonl` (the arXiv metadata snapshot's own JSON Lines, records of the corpora,
varied) and `abstracts-N.txt` (make_corpus.py's bare abstracts). 2700000 (the snapshot's size) is
a size like any other (its list is 5.6 GB in this form; made in ~2.5 minutes): run once, see the end of these notes.
Run of 2026-12-02, before the engine (the app's in-memory SearchIndex; load 14-27 on the 2 shared cores):
ICLR and both 100k lists measured whole; at 1M (arxiv-1000000.jsonl, 2,082 MB) the app showed its first
59 rows and then, after 10 minutes (62 s of CPU), still said "reading 0%…" with 7.9 GB resident: the run
was stopped there to leave the machine to bench/engines.py; the bare 1M list was made but not opened.
Queries part alone, 2026-12-03 15:05 UTC, with the engine (as helper branch hits34 committed it; load 4–7;
`--sizes 100000 --kinds arxiv --skip open,cli --runs 5`): no folder in the cache, so read and built in the
measuring process, 62 s wall, 44.9 s CPU, peak 1,272 MB there (the whole list read in one process); p50 ms,
engine / rg -i: 1 word 74 / 85, 2 words 26 / 177, 4 words 20 / 102, typo 6 / 161, prefix 11 / 85, "n 104 / 83,
"neural network" 24 / 64, 3-word phrase 8 / 99, author: 2 / 182, author:"…" 4 / 158, kw: 11 / 223, title: 5 /
176, OR 54 / 332, NOT 45 / 180 (fzf --filter, one run: 2–25 s). So every class under 100 ms and under rg but `"n`
(100,000 matches, each scored), ~25% over rg. ICLR whole, 15:10 UTC, the app on the engine (engine34 then, load 5):
first frame 4.1 s cold / 2.8 reopened, searchable 6.2 / 3.5 s, session CPU 2.6 / 1.0 s, peak 116 / 95 MB; every
query p50 ≤ 14 ms, rg -i 7–27 ms; set 0.3 s CPU, list --sort interest 2.9, similar 0.4, export 0.3 (plain 0.1).
Open part, 2026-12-03 17:50-18:41 UTC (load 7-11, `--skip queries,cli --runs 1`), reopened, first frame / searchable s /
session CPU s / peak MB, main then with the texts entry (branch texts34: texts and fields read when asked): 100k
arXiv 2.76 / 7.80 / 4.4 / 658 → 3.40 / 12.83 / 4.4 / 307 (texts alone: 2.39 / 8.11 / 3.2 / 360); 10k 2.78 / 3.63 / 1.6 /
131 → 2.23 / 3.03 / 1.0 / 115; ICLR 1.95 / 2.59 / 1.4 / 95 → 2.22 / 2.59 / 1.2 / 95 (one earlier run of both sizes gave
the branch 12 s / 9.3 s CPU at 10k reopened, not seen again in three runs by hand: load).
Export, 2026-12-04 03:15 UTC (branch export34: fields read only when they may be cited; load 5-6), `triage export
arxiv-100000.jsonl --format bibtex -o OUT --force` with the cache filled (parse and `.cite` entries), wall / CPU s, main
→ branch, the plain script beside: 4.8 / 3.2 → 3.0 / 2.2, plain 2.4 / 1.7 (1.25x; main 2.0x); on main idle earlier
5.0 / 4.9 against 1.6 / 1.5. The cli part below (03:25, load 10, the `.cite` entry made by that first export: keys
and titles of all: ~0.5 + 1.0 s CPU) gave export 21.7 / 4.8, plain 7.0 / 2.4.
Open part at 100k arXiv, 2026-12-04 03:32-03:39 UTC (load 5-7.5, another helper's 1M bench running), first frame /
searchable s / session CPU s / peak MB, main then branch reopen34 (the engine's folder opened beside the read):
reopened 0.88 / 2.90 / 3.6 / 345 → 1.31 / 3.47 / 3.5 / 345; new db 1.04 / 3.48 / 3.9 / 340 → 1.19 / 4.14 / 3.8 / 343:
within the load's noise (by hand at load 3.5, searchable minus first frame, same database: 2.37, 1.81, 1.56 → 1.95,
1.71, 1.67 s; new database 2.26 → 2.08 s). The CRC pass (~0.07 s CPU at 100k) only gains where a core is free.
1M arXiv, 2026-12-04 (`--sizes 1000000 --kinds arxiv --skip queries,cli --runs 1`, load 5-9: helpers' work beside),
open part, cold: JSON Lines read whole (main 8c2c1ff): 9.9 GB resident and still "reading 0%" after 8 minutes (85 s of
CPU), stopped there; read a line at a time (branch jsonl34): "reading 99%" after ~12 minutes with 3.4 GB, the whole list
shown (999,998 papers), then indexing at 4.5-5.9 GB; not searchable within the 1,000 s timeout: first frame 2.55 s,
session CPU 867 s, peak 5,845 MB, cache 1,223 MB; the `q` sent at the timeout ended the app only 8-15 minutes later
(the query the open part types held `q` behind its results, which waited for the engine: since quit35, `q` goes
first; the whole list's attach and the noting of its open are given up at quit).
Idle (load 1.5-1.9), 03:49, main with jsonl34, reopen34, rank34 and export34, 100k arXiv: cold 1.21 / 48.62 / 73.1 /
725, reopened 0.92 / 2.49 / 3.8 / 355, new db 0.76 / 2.90 / 3.5 / 341 (first frame s / searchable s / CPU s / peak MB).
Open part at 100k arXiv, 2026-12-04 20:00-20:07 UTC (load 13-19), main then branch lean35 (a reopened paper keeps its
arXiv links as its id, and the values few are distinct of once: categories, authors...), CPU s / peak MB: cold 56.8 /
730 → 61.5 / 728, reopened 2.9 / 347 → 2.6 / 232, new db 2.8 / 346 → 2.5 / 233; cache 122 → 106 MB.
Reopened, 2026-12-04 22:23-23:13 UTC, main then branch reopen36 (the open noted in the library after search ready; one
search of the query typed, not of the restored one too), bench/open.py's steps by a script beside it (each version its
own cache, opened cold once; runs alternated; CPU of the app's tree from the first frame to searchable), median of 5,
searchable s / CPU s: 100k arXiv at load 3.4 (the branch without its `/` change): 1.35 / 0.73 → 1.20 / 0.60; at load
16-21: 3.60 / 0.97 → 3.09 / 0.77; 100k with a new database (load 10, 3 runs, so too): 3.45 / 1.24 → 2.12 / 0.73; 10k
(load 10, 4 runs): 1.42 / 0.29 → 1.42 / 0.24; ICLR: 1.53 / 0.27 → 1.32 / 0.22. First frame and peak (~220 MB at 100k)
unchanged. Idle (load 0.4, 23:32-23:34): 100k reopened 1.35 → 1.37 s (5 runs; peak 210 → 225 MB), new database 1.54 /
1.28 → 1.01 / 0.74 (3 runs), 10k 0.65 → 0.66, ICLR 0.60 → 0.60: idle, a reopen with its database is bound by the engine
folder opened ahead (0.40 s from the first frame: numpy and tantivy imported under the GIL beside the read, then the CRCs
of its 169 MB), not by the passes over the papers. What the read takes (CPU): ~0.23 s, most of it making 100,000
`Paper`s (`built` ~0.1, two `Packed` per paper ~0.08); one search ~0.04.
Queries part at 1M arXiv, 2026-12-06 17:10-17:25 UTC (load 1.3-2.7, `--sizes 1000000 --kinds arxiv --skip open,cli
--runs 5 --data . --cache …` from the lists' folder), main 47ad96f with its folder (not `ordered`: merges had mixed
its rows) then the index sorted by row (ordered), ms p50 of every hit ranked / of the first screen ("screen"):
learning 375/47 → 342/23, graph neural 81/53 → 86/28, 4 words 48/42 → 47/40, typo 7/10 → 9/7, prefix 42/48 → 48/7,
"n 519/775 → 492/137, "neural network" 147/97 → 149/50, 3-word phrase 51/63 → 52/35, author: 3/3 → 4/1, author:"…"
4/4 → 4/3, kw: 45/73 → 45/18, title: 13/16 → 15/4, OR 237/47 → 222/26, NOT 141/48 → 143/27; rg -i 565-2,891 ms a
query, fzf --filter 10-111 s; the index built in 95 s either way.
2,700,000 arXiv records (arxiv-2700000.jsonl, 2,699,998 papers), 2026-12-06 19:18-20:05 UTC, idle but for the run:
cold, `triage list arxiv-2700000.jsonl -q learning` with an empty cache (main de72c6e) 878 s wall, 1,313 s CPU, peak
16.5 GB (the whole list read into one process before it is written to the cache), cache 7.5 GB. Reopened, the app
(bench/open.py's `run`, three opens, main 51f5c7a): first frame 0.41-0.54 s, searchable 1.04-1.16 s, peak 736-754 MB
(app and workers); `triage list -q '"neural network"'` (659,201 rows) 2.9-3.0 s at 1.0 GB (22-25 s and 3.9 GB at every
call before seen56: the list's own identities were forgotten as they were written, so each call made every paper's
again), the whole list 2.8 s. Queries part (`--sizes 2700000 --kinds arxiv --skip open,cli --runs 3 --data . --cache
…`), ms p50 every hit ranked / first screen / `rg -i`: learning 1,130/52/6,032, graph neural 218/59/3,238, 4 words
98/83/2,330, typo 20/11/2,921, prefix 120/12/1,690, "n 1,219/286/1,316, "neural network" 413/126/1,059, 3-word phrase
125/84/2,367, author: 4/2/2,743, author:"…" 6/3/2,797, kw: 122/44/2,756, title: 29/5/2,770, OR 606/51/7,034, NOT
375/56/1,955 (p95 within 5% of p50 but typo's every hit, 170); fzf --filter 177 s (1 word), 161 s (typo), 29 s (phrase),
at up to 18 GB; the measuring process (the list read in it, every hit of each class ranked) peaked at 8.4 GB.

Each list gets three parts, all through the public code paths:
- open: the installed `triage LIST` in a private tmux server (bench/open.py's `run`: the first frame,
  a query typed at once, "searchable" when the filter bar counts its matches of the whole list, the
  peak RSS of the app and its workers, polled), "cold" with an empty cache and database, then "reopened"
  with what that left, its database too (the same user opening the list again: what a reopen is), then
  "new db" with that cache and an empty database (a user whose database never saw the list: every
  paper's identities are worked out, store.library.seen; bench/open.py's "cached" row is that one); its
  CPU (user+system, the whole session to its exit) by /usr/bin/time. (Before 2026-12-04 "reopened" was
  the "new db" row.)
- queries: the list's engine as the app gets it (`read_path`, then `engine_for`: the folder the open
  left in the cache, opened; built first when there is none, as with `--skip open`, which the row
  says), in a process of its own: each query's first
  time, then p50 / p95 over `--runs` of every hit ranked (`triage`: what `triage list -q` and the app's list of hits
  read) and of the first hundred hits with their count ("screen": `Engine.glance`, what the app shows first from
  tui.filtering's `GLANCE_FROM` papers on, the rest following); `rg -i` and `fzf --filter` on the list file itself, in the same
  loop (one run of each in turn, so load falls on all three alike). rg and fzf cannot say what
  triage says (fields, typos, ranking): each row gives the nearest pattern they take (QUERIES), "-"
  where there is none; "*" after a count: the app shows a hint beside it (an unfinished `"n`).
- cli: `triage set ID --star`, `triage list --sort interest`, `triage similar ID`, `triage export
  --format bibtex` of all, and a plain script writing the same records as BibTeX, `triage list -q` of a phrase
  printing its papers as JSON Lines (best first) beside `rg -i` printing the lines holding it — wall and CPU s
  (the process and its children, from getrusage) and the peak RSS of the process tree (polled).
The machine is shared (2 cores, other developers' test runs): the load average is printed with each
table; CPU seconds are what load inflates least.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# rg and fzf as `pip install -e ".[bench]"` puts them, beside this interpreter (else those on PATH): the competitors
# every table here times (bench/engines.py and bench/engine_search.py time them through this module too).
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
sys.path.insert(0, str(Path(__file__).resolve().parent))
import open as opening  # noqa: E402 (bench/open.py beside this file)
from arxiv_lists import DATA, SHARED, arxiv_list  # noqa: E402

ICLR = SHARED / "corpora" / "iclr-2024-papers.jsonl"
PLAIN = Path(__file__).resolve().parent / "plain_export.py"

# (class, triage query, rg -i pattern (a regex, "|"-joined alternatives; "!" before a second pattern = lines
#  without it), fzf --filter query); None: the tool has no way to say it. `(?-u:\b)`: rg's Unicode word
#  boundary with -i took ~60 s a run on the 208 MB arXiv-form 100k list (5 s CPU), the ASCII one as a literal does.
QUERIES = [
    ("1 word", "learning", "learning", "learning"),
    ("2 words", "graph neural", "graph.*neural|neural.*graph", "graph neural"),
    ("4 words", "reinforcement learning policy gradient", "reinforcement.*learning.*policy.*gradient",
     "reinforcement learning policy gradient"),
    ("typo", "difusion recovry", "diffusion.*recovery|recovery.*diffusion", "difusion recovry"),
    ("prefix", "contrastiv", "contrastiv", "contrastiv"),
    ('"n prefix', '"n', r"(?-u:\b)n", "'n"),
    ("phrase", '"neural network"', r"neural\s+network", "'neural\\ network"),
    ("phrase 3", '"graph neural network"', r"graph\s+neural\s+network", "'graph\\ neural\\ network"),
    ("author:", "author:bengio", r'"authors": "[^"]*bengio', None),
    ('author:""', 'author:"Yoshua Bengio"', r'"authors": "[^"]*yoshua bengio', None),
    ("kw:", "kw:cs.LG", r'"categories": "[^"]*cs\.lg', None),
    ("title:", "title:graph", r'"title": "[^"]*graph', None),
    ("OR", "llm OR agent", r"(?-u:\b)(llm|agent)", "llm | agent"),
    ("NOT", "language NOT graph", "language!graph", "language !graph"),
]


FZF_BYTES = 50 * 2**20
FZF_BIG = ("1 word", "typo", "phrase")
TOOL_TIMEOUT = 180
"""fzf --filter is slow on long lines (~0.5–3 s a query on the 4 MB ICLR list): on a list of more than
FZF_BYTES it runs once, for these classes only; a run longer than TOOL_TIMEOUT s is stopped ("inf")."""


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def lists(size: str, kinds: list[str], data: Path) -> list[tuple[str, Path]]:
    if size == "iclr":
        return [("ICLR 2024 jsonl", ICLR)]
    made = []
    if "arxiv" in kinds:
        made.append((f"arXiv snapshot form, {int(size):,}", arxiv_list(int(size), data)))
    if "bare" in kinds:
        made.append((f"make_corpus bare abstracts, {int(size):,}", opening.corpus(size, data)[0]))
    return made


# ---- open


def open_rows(triage: str, path: Path, total: int, folder: Path) -> None:
    """Prints a row for a cold open, one for the reopen (the cold open's database) and one for a reopen with a new
    database, each as it is measured (a 1M open takes minutes)."""
    opening.TIMEOUT = opening.QUIT = max(300.0, total / 1000)  # 1M: ~17 min each way (the app before the engine took that)
    cache = folder / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)
    for kind in ("cold", "reopened", "new db"):
        db = folder / f"db-{'new' if kind == 'new db' else 'cold'}" / "triage.json"
        db.parent.mkdir(parents=True, exist_ok=True)
        timing = folder / f"time-{kind.replace(' ', '-')}"
        timing.unlink(missing_ok=True)
        load = os.getloadavg()[0]
        first, ready, _, peak, _ = opening.run(f"/usr/bin/time -o {timing} -f '%U %S' {triage}", path, total, cache, db,
                                               "graph")
        cpu = sum(map(float, timing.read_text().split()[-2:])) if timing.exists() else float("nan")
        size = sum(f.stat().st_size for f in cache.iterdir()) / 2**20
        print(f"  {kind:<9} {first:>14.2f} {ready:>13.2f} {cpu:>16.1f} {peak:>17.0f} {size:>9.0f}  {load:>5.2f}", flush=True)


# ---- queries


def measure_queries(path: Path, runs: int) -> dict:
    """In a process of its own (`--measure-queries`): the engine as the app gets it, each query's
    times beside rg's and fzf's, the peak memory, and the ids of a few papers for the CLI part."""
    from store.readers import read_path
    from store.readers.engine_cache import engine_for

    started, cpu = time.perf_counter(), time.process_time()
    collection = read_path(path)
    engine, built = engine_for(collection)[:2]
    ready = (time.perf_counter() - started, time.process_time() - cpu)
    out = {"papers": len(collection.papers), "ready": ready, "built": built, "queries": {}}
    big = path.stat().st_size > FZF_BYTES
    for label, query, pattern, fuzzy in QUERIES:
        started = time.perf_counter()
        hits = engine.search(query)
        first = (time.perf_counter() - started) * 1000
        mine, screen, rg, fzf = [], [], [], []
        if big and label not in FZF_BIG:
            fuzzy = None
        for run in range(runs):
            started = time.perf_counter()
            hits = engine.search(query)
            mine.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            engine.glance(query, {})
            screen.append((time.perf_counter() - started) * 1000)
            rg.append(_tool(["rg", "-i", "-c", "-e", pattern], path, pattern))
            if fuzzy is not None and (run == 0 or not big):
                fzf.append(_tool(["fzf", "--filter", fuzzy], path, None))
        out["queries"][label] = {"hits": f"{len(hits)}{'*' if hits.query.hint else ''}", "first": first, "mine": mine,
                                 "screen": screen, "rg": rg, "fzf": fzf}
    out["ids"] = [hit.paper_id for hit in engine.search("graph neural")[:3]] or [collection.papers[0].id]
    out["peak"] = int(Path("/proc/self/status").read_text().split("VmHWM:")[1].split()[0]) / 1024
    return out


def _tool(command: list[str], path: Path, pattern: str | None) -> float:
    """ms of one run of rg or fzf over the list file (rg's "a!b": lines with a and without b)."""
    started = time.perf_counter()
    if pattern is not None and "!" in pattern:
        wanted, unwanted = pattern.split("!")
        first = subprocess.Popen(["rg", "-i", "-e", wanted, str(path)], stdout=subprocess.PIPE)
        subprocess.run(["rg", "-i", "-v", "-c", "-e", unwanted], stdin=first.stdout, capture_output=True)
        first.wait()
    else:
        with path.open("rb") as source:
            try:
                subprocess.run(command + ([str(path)] if pattern is not None else []),
                               stdin=None if pattern is not None else source, capture_output=True, timeout=TOOL_TIMEOUT)
            except subprocess.TimeoutExpired:
                return float("inf")
    return (time.perf_counter() - started) * 1000


def query_rows(path: Path, cache: Path, runs: int) -> tuple[list[str], dict]:
    env = {**os.environ, "TRIAGE_CACHE": str(cache)}
    done = subprocess.run([sys.executable, __file__, "--measure-queries", str(path), "--runs", str(runs)], env=env,
                          check=True, capture_output=True, text=True)
    got = json.loads(done.stdout)
    how = "no folder in the cache: read and built" if got["built"] else "cache the open left: parse, engine folder opened"
    rows = [f"  engine as the app gets it ({how}): "
            f"{got['ready'][0]:.1f} s wall, {got['ready'][1]:.1f} s CPU; peak {got['peak']:.0f} MB",
            f"  {'class':<10} {'query':<40} {'hits':>7} {'first ms':>9} {'triage p50/p95':>15} {'screen p50/p95':>15} "
            f"{'rg -i p50/p95':>15} {'fzf p50/p95':>15}"]
    for label, query, _, _ in QUERIES:
        q = got["queries"][label]

        def cell(samples: list[float]) -> str:
            return f"{statistics.median(samples):.0f}/{percentile(samples, 0.95):.0f}" if samples else "-"

        rows.append(f"  {label:<10} {query:<40} {q['hits']:>7} {q['first']:>9.0f} {cell(q['mine']):>15} "
                    f"{cell(q['screen']):>15} {cell(q['rg']):>15} {cell(q['fzf']):>15}")
    return rows, got


# ---- command line


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """(wall s, CPU s of it and its children, peak RSS MB of its process tree, exit code) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    shell = subprocess.Popen(["sh", "-c", '"$@" >/dev/null 2>&1', "sh", *command], env=env)  # (sh stays: the root)
    peak = 0
    while shell.poll() is None:
        peak = max(peak, opening.tree_memory(shell.pid)[0])
        time.sleep(opening.POLL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, peak / 2**20, shell.returncode


def cli_rows(triage: str, path: Path, ident: str, folder: Path) -> None:
    db = folder / "db-cli" / "triage.json"
    db.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "TRIAGE_CACHE": str(folder / "cache"), "TRIAGE_DB": str(db)}
    out = folder / "out"
    out.mkdir(exist_ok=True)
    commands = [
        ("triage set ID --star", [triage, "set", ident, "--star", str(path)]),
        ("triage list --sort interest", [triage, "list", str(path), "--sort", "interest"]),
        ("triage similar ID", [triage, "similar", ident, str(path)]),
        ('triage list -q \'"neural network"\' (jsonl)', [triage, "list", str(path), "-q", '"neural network"', "--format",
                                                        "jsonl"]),
        ("rg -i 'neural network' (the lines)", ["rg", "-i", "-e", "neural network", str(path)]),
        ("triage export --format bibtex (all)", [triage, "export", str(path), "--format", "bibtex", "-o",
                                                 str(out / "all.bib"), "--force"]),
        ("plain script: the same records as BibTeX", [sys.executable, str(PLAIN), str(path), str(out / "plain.bib")]),
    ]
    print(f"  {'command':<42} {'wall s':>8} {'CPU s':>8} {'peak RSS MB':>12} {'exit':>5}", flush=True)
    for label, command in commands:
        wall, cpu, peak, code = timed(command, env)
        print(f"  {label:<42} {wall:>8.1f} {cpu:>8.1f} {peak:>12.0f} {code:>5}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="iclr,100000,1000000")
    parser.add_argument("--kinds", default="arxiv,bare", help="which large lists: arxiv, bare or both")
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--skip", default="", help="parts to leave out: open, queries, cli")
    parser.add_argument("--triage", default=str(Path(sys.executable).parent / "triage"))
    parser.add_argument("--cache", help="the cache folder the queries part reads the lists' engines from, kept (else a new "
                                         "one: each list read and its engine built first, ~2 minutes at 1,000,000)")
    parser.add_argument("--measure-queries", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_queries:
        print(json.dumps(measure_queries(Path(args.measure_queries), args.runs)))
        return
    data, skip = Path(args.data), set(args.skip.split(","))
    data.mkdir(parents=True, exist_ok=True)
    os.environ["TRIAGE_CACHE"] = str(data / "quick-cache")  # (counting parses: never in the user's cache)
    print(f"shared machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start; "
          "wall times are pessimistic, CPU times less so")
    for size in args.sizes.split(","):
        for name, path in lists(size, args.kinds.split(","), data):
            total = opening.count(path, data)
            print(f"\n== {name}: {path.name}, {total:,} papers, {path.stat().st_size / 2**20:.0f} MB "
                  f"(load {os.getloadavg()[0]:.2f})", flush=True)
            with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
                folder = Path(tmp)
                (folder / "cache").mkdir()
                if "open" not in skip:
                    print(f"  {'open':<9} {'first frame s':>14} {'searchable s':>13} {'CPU s (session)':>16} "
                          f"{'peak RSS MB (tree)':>17} {'cache MB':>9}  load", flush=True)
                    open_rows(args.triage, path, total, folder)
                ident = None
                if "queries" not in skip:
                    rows, got = query_rows(path, Path(args.cache) if args.cache else folder / "cache", args.runs)
                    ident = got["ids"][0]
                    print("\n".join(rows), flush=True)
                if "cli" not in skip:
                    if ident is None:
                        from store.readers import read_path
                        ident = read_path(path).papers[0].id
                    cli_rows(args.triage, path, ident, folder)


if __name__ == "__main__":
    main()
