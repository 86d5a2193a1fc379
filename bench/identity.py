"""One paper across sources (issue 32, item 4): what finding the marked paper a paper of a list is costs
`TriageStore.attach`, at 100,000 papers with few marks (and with many).

    python bench/identity.py --base DIR [--base DIR2 ...] [--runs 7]

DIR is a checkout of the code before papers were known across sources (3d96d52: `git worktree add --detach DIR
3d96d52`), DIR2... other checkouts to set beside it (main before a change); all codes are timed in the same run,
interleaved, each in its own process on its own database. The papers are
the real ICLR and ICML 2024 records of ../shared/corpora and copies of them with a changed abstract and title,
100,000 in all. Each database has some papers marked (their records kept), as `CASES` says. The time is that of a fresh store's
first `attach` of the 100,000 papers (the identity index is made then), in CPU (the process's: what a busy machine
takes from each alike) and wall time; the marks found: the papers given a state (the code before finds none of
those marked in another wording; this one shares their marks).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from library import revised  # (bench/library.py: this script's folder is on the path)

ROOT = Path(__file__).resolve().parent.parent
TOTAL = 100_000

ATTACH = """
import functools, json, statistics, sys, time
from store.marks.db import TriageStore
from store.papers.model import Triage
from store.readers import read_paths
marked = read_paths([sys.argv[2]]).papers
collection = read_paths([sys.argv[3]])
papers = collection.papers
try:  # (as the app and the CLI attach a list since its columns are kept: the list's, from the cache)
    from store.readers.match_cache import columns
    kept = {"kept": functools.partial(columns, collection.origin)}
except ImportError:
    kept = {}
store = TriageStore(sys.argv[1])
store.attach(marked)
store.put({paper.id: Triage(starred=True, updated=time.time()) for paper in marked})
store.close()
times, cpu = [], []
for _ in range(int(sys.argv[4])):
    store = TriageStore(sys.argv[1])
    started, used = time.perf_counter(), time.process_time()
    states = store.attach(papers, **kept)
    cpu.append(time.process_time() - used)
    times.append(time.perf_counter() - started)
    store.close()
print(json.dumps([statistics.median(cpu) * 1e3, statistics.median(times) * 1e3, len(states)]))
"""


def lists(folder: Path, marks: int, case: str) -> tuple[Path, Path]:
    """The list of 100,000 papers (an arXiv list: each has an arXiv id), and a list of `marks` papers to mark (`CASES`)."""
    # The copies keep no OpenReview link (it would make them the same paper as the record they copy).
    records = [{**({**record, "url": "", "pdf_url": ""} if record["abstract"].startswith("Revised version ") else record),
                "arxiv": f"24{k // 99_999:02d}.{k % 99_999:05d}"} for k, record in enumerate(revised(TOTAL))]
    big = folder / "papers.jsonl"
    if not big.exists():
        big.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    chosen = [records[k] for k in range(0, TOTAL, TOTAL // marks)][:marks]
    reworded = [{**record, "abstract": " ".join(reversed(record["abstract"].split())), "url": "", "pdf_url": ""} for record in chosen]
    if case == "other":
        chosen = [{**record, "title": f"Another study, number {k}", "authors": ["Someone Else"], "arxiv": f"2301.{k:05d}"}
                  for k, record in enumerate(reworded)]
    elif case == "arxiv":
        chosen = reworded
    elif case == "title":
        chosen = [{key: value for key, value in record.items() if key != "arxiv"} for record in reworded]
    small = folder / f"marked-{marks}-{case}.jsonl"
    small.write_text("".join(json.dumps(record) + "\n" for record in chosen), encoding="utf-8")
    return big, small


CASES = {"reopened": "marked in this list", "other": "marked elsewhere, other papers", "arxiv": "of these, elsewhere (their arXiv ids)",
         "title": "of these, elsewhere (title, authors)"}
"""What is marked: papers of the list itself; other arXiv papers (not in the list: both codes also try to re-find
their states by fingerprint); some of the list's papers in another wording (another abstract) with their arXiv ids,
or with their title and authors alone (a conference's list: every title of the list is looked at)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, action="append", required=True,
                        help="a checkout of the code before papers were known across sources; again for more codes beside it")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3, help="processes of each code, turn about (the lower median is said)")
    parser.add_argument("--marks", default="20,1000", help="how many marked papers, comma-separated (default 20,1000)")
    args = parser.parse_args()
    codes = {"before" if k == 0 else _named(base): base.resolve() for k, base in enumerate(args.base)} | {"after": ROOT}
    heads = "".join(f" {name[:17]:>17}" for name in codes)
    print(f"{'first attach of 100,000 papers, CPU (wall) ms':<48}{heads}  marks found ({', '.join(codes)})")
    print(f"{'(median of ' + str(args.runs) + f', best of {args.rounds} processes)':<48}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for marks, case in ((int(count), case) for count in args.marks.split(",") for case in CASES):
            big, small = lists(folder, marks, case)
            out: dict[str, list] = {}
            for turn, name in ((turn, name) for turn in range(args.rounds) for name in codes):  # (interleaved: a machine busy meanwhile weighs on both)
                db = folder / f"{name}-{marks}-{case}-{turn}" / "triage.json"
                db.parent.mkdir()
                env = {**os.environ, "PYTHONPATH": str(codes[name]), "TRIAGE_CACHE": str(folder / f"cache-{name}")}
                done = subprocess.run([sys.executable, "-c", ATTACH, str(db), str(small), str(big), str(args.runs)], cwd=codes[name],
                                      env=env, capture_output=True, text=True, check=True)
                found = json.loads(done.stdout)
                out[name] = min(out.get(name, found), found)
            cells = "".join(f" {f'{cpu:.0f} ({wall:.0f})':>17}" for cpu, wall, _ in out.values())
            print(f"{f'{marks:,} {CASES[case]}':<48}{cells}  {', '.join(f'{found:,}' for *_, found in out.values())}", flush=True)


def _named(checkout: Path) -> str:
    """A checkout's column: its commit, short."""
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or checkout.name


if __name__ == "__main__":
    main()
