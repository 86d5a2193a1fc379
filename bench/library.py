"""Marks keep their paper (issue 32): what keeping each marked paper's record costs at 10,000 marked papers.

    python bench/library.py --base DIR [--runs 7]

DIR is a checkout of the code before records were kept (main at 1a09bc8: `git worktree add --detach DIR 1a09bc8`);
both codes are timed in the same run, interleaved. The papers are the real ICLR and ICML 2024 records of
../shared/corpora and copies of them with a changed abstract, 11,000 in all, 10,000 of them marked.

- disk: the records file (`<db>.papers`) after the 10,000 papers were marked 100 at a time, and as one frame;
- `triage set ID --priority N LIST` (a new process, the list's ids cached): on a paper already marked, and a
  paper's first mark (this code reads the cached list then, to keep its record);
- a mark in the app: `TriageStore.apply` of one paper's change with the 11,000 papers attached (what the
  app's writer thread calls: a durable write), re-marks and first marks.

Wall time and CPU time (user and system, of the `triage set` process; of the process for a mark in the app): the
machine may be shared, and a busy one stretches the wall times of both codes, not their CPU times. Both codes run
with their bytecode cached (in the bench's temporary folder), as an installed program does; with `--no-bytecode` as
the environment says (with PYTHONDONTWRITEBYTECODE set, a `triage set` compiles every module of this package it
imports: ~40 ms of CPU).
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

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
MARKED, TOTAL = 10_000, 11_000

APP_MARKS = """
import json, statistics, sys, time
from store.marks.changes import Change
from store.marks.db import TriageStore
from store.readers import read_paths
papers = read_paths([sys.argv[2]]).papers
store = TriageStore(sys.argv[1])
store.attach(papers)
def timed(ids, n):
    wall, cpu = [], []
    for k, pid in enumerate(ids):
        t, c = time.perf_counter(), time.process_time()
        store.apply({pid: Change(new={"priority": 1 + (n + k) % 5}, stamp=time.time())})
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(wall) * 1e3, statistics.median(cpu) * 1e3
again = timed([p.id for p in papers[: int(sys.argv[3])]][:40], 0)
first = timed([p.id for p in papers[int(sys.argv[3]):]][int(sys.argv[4]):int(sys.argv[4]) + 40], 1)
store.close()
print(json.dumps([again, first]))
"""


def children_cpu() -> float:
    """The CPU seconds (user and system) of the child processes waited for so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def revised(total: int) -> list[dict]:
    """`total` real records: the two lists', then copies of them whose abstracts differ by a first sentence."""
    base = [json.loads(line) for name in ("iclr-2024-papers.jsonl", "icml-2024-papers.jsonl")
            for line in (CORPORA / name).read_text(encoding="utf-8").split("\n") if line]
    records = []
    for k in range(total):
        record = dict(base[k % len(base)])
        if k >= len(base):
            record["abstract"] = f"Revised version {k // len(base)} of this work. " + record["abstract"]
            record["title"] = f"{record['title']} (v{k // len(base) + 1})"
        records.append(record)
    return records


def corpus(folder: Path) -> Path:
    """11,000 real records (`revised`)."""
    records = revised(TOTAL)
    path = folder / "papers.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def run(code: Path, *args: str, env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=code, env={**env, "PYTHONPATH": str(code)}, input=stdin,
                          capture_output=True, text=True, check=True)


def marked_db(code: Path, folder: Path, listing: Path, env: dict[str, str]) -> Path:
    """A database of `code` with the first 10,000 papers marked, 100 at a time (`triage set -`)."""
    db = folder / "triage.json"
    rows = [json.loads(line) for line in run(code, "-m", "tui", "list", str(listing), "--format", "jsonl", "--db", str(db), env=env).stdout.splitlines()]
    ids = [row["id"] for row in rows]
    for start in range(0, MARKED, 100):
        run(code, "-m", "tui", "set", "-", "--read", str(listing), "--db", str(db), env=env, stdin="\n".join(ids[start : start + 100]) + "\n")
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the code before records were kept")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--bytecode", action=argparse.BooleanOptionalAction, default=True,
                        help="run both codes with their bytecode cached (default), or as the environment says (where"
                             " PYTHONDONTWRITEBYTECODE is set, every module is compiled at every run)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        listing = corpus(folder)
        codes = {"before": args.base.resolve(), "after": ROOT}
        dbs, envs = {}, {}
        for name, code in codes.items():
            (folder / name).mkdir()
            envs[name] = {**os.environ, "TRIAGE_CACHE": str(folder / name / "cache"), "TRIAGE_CONFIG": str(folder / "none.toml")}
            if args.bytecode:  # (as an installed program runs: its modules compiled once, here by the marking of the 10,000)
                envs[name].pop("PYTHONDONTWRITEBYTECODE", None)
                envs[name]["PYTHONPYCACHEPREFIX"] = str(folder / name / "bytecode")
            dbs[name] = marked_db(code, folder / name, listing, envs[name])
        papers = folder / "after" / "triage.json.papers"
        from store.library.shelf import MAGIC, encode_frame, read_file

        one = len(MAGIC) + len(encode_frame(read_file(papers)))
        print(f"records file, {MARKED:,} marked papers: {papers.stat().st_size / 1e6:.1f} MB as written"
              f" (100 marks a write), {one / 1e6:.1f} MB as one frame; the marks database: "
              f"{sum(f.stat().st_size for f in (folder / 'after').glob('triage.json*') if f != papers) / 1e6:.1f} MB")
        ids = [json.loads(line)["id"] for line in run(ROOT, "-m", "tui", "list", str(listing), "--format", "jsonl",
                                                        "--db", str(dbs["after"]), env=envs["after"]).stdout.splitlines()]
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for k in range(args.runs):
            for case, pid in (("re-mark", ids[k * 31]), ("first mark", ids[MARKED + k])):
                for name, code in (codes.items() if k % 2 else reversed(codes.items())):  # (each first in turn)
                    started, cpu = time.perf_counter(), children_cpu()
                    run(code, "-m", "tui", "set", pid, "--priority", str(1 + k % 5), str(listing), "--db", str(dbs[name]), env=envs[name])
                    times.setdefault((case, name), []).append((time.perf_counter() - started, children_cpu() - cpu))
        print(f"\n{'triage set at 10,000 marked papers (median of ' + str(args.runs) + ')':<34} {'wall before':>12} {'after':>8}"
              f" {'CPU before':>11} {'after':>8}")
        for case in ("re-mark", "first mark"):
            wall, cpu = ([statistics.median(t[j] for t in times[(case, name)]) * 1e3 for name in codes] for j in (0, 1))
            print(f"{case:<34} {wall[0]:>10.0f}ms {wall[1]:>6.0f}ms {cpu[0]:>9.0f}ms {cpu[1]:>6.0f}ms")
        print(f"\n{'a mark in the app, TriageStore.apply (median of 40)':<52} {'wall before':>12} {'after':>8}"
              f" {'CPU before':>11} {'after':>8}")
        app = {name: json.loads(run(code, "-c", APP_MARKS, str(dbs[name]), str(listing), str(MARKED), str(args.runs),
                                    env=envs[name]).stdout) for name, code in codes.items()}
        for k, case in enumerate(("re-mark", "first mark")):
            (wb, cb), (wa, ca) = app["before"][k], app["after"][k]
            print(f"{case:<52} {wb:>10.1f}ms {wa:>6.1f}ms {cb:>9.1f}ms {ca:>6.1f}ms")
        shutil.rmtree(folder / "before", ignore_errors=True)


if __name__ == "__main__":
    main()
