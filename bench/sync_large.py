"""A large peer file in the sync folder: marks on many papers no list has (issue 30, item 7). For each
size, `triage sync` (a real process): its time and peak memory, the database's size after, then the
time of `triage set` on that database (median of runs).

    python bench/sync_large.py [--papers 0,100000,300000] [--runs 3] [--code DIR]

The peer file holds, per paper, a read mark and a priority with their times (~130 bytes a paper: 300,000
papers are ~40 MB, as in the issue). `--code DIR` runs the `triage` of another checkout (its `python -m
tui`, e.g. an older commit unpacked with `git archive`), for a before and after.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEVICE = "feedface"
PAPER = "7d72a49aaf"
"""A paper of the bundled list, named by its whole id (as a script would)."""


def peer_file(path: Path, papers: int) -> None:
    stamp = time.time() - 3600
    with open(path, "w") as out:
        out.write(f'{{"paper-triage": "marks", "version": 1, "device": "{DEVICE}", "papers": {papers}}}\n')
        out.writelines(f'{{"id": "orphan{i:09d}", "fields": {{"priority": [{i % 5 + 1}, {stamp - i}, "{DEVICE}"],'
                       f' "read": [true, {stamp - i}, "{DEVICE}"]}}}}\n' for i in range(papers))
        out.write(f'{{"end": {papers}}}\n')


def run(args: list[str], code: str | None) -> tuple[float, float, int, str]:
    """Seconds, peak memory (MB), exit status and first line on stderr of `triage ARGS` as a process of its own."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if code:
        env["PYTHONPATH"] = code
    started = time.perf_counter()
    with tempfile.TemporaryFile() as said:
        process = subprocess.Popen([sys.executable, "-m", "tui", *args], env=env, stdout=subprocess.DEVNULL, stderr=said,
                                   cwd=code)  # (`python -m` looks in the folder it runs in first)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        said.seek(0)
        first = said.readline().decode(errors="replace").strip()
    return seconds, usage.ru_maxrss / 1024, process.returncode, first


def size_mb(db: Path) -> float:
    return sum(f.stat().st_size for f in db.parent.glob(db.name + "*") if not f.name.endswith(".previous")) / 1e6


def one_size(papers: int, runs: int, code: str | None) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        db, folder = Path(tmp) / "t.json", Path(tmp) / "shared"
        folder.mkdir()
        run(["set", PAPER, "--star", "--db", str(db)], code)  # a database with one mark (the bundled list's)
        if papers:
            peer_file(folder / f"{DEVICE}.triage-marks.jsonl", papers)
        peer = sum(f.stat().st_size for f in folder.iterdir()) / 1e6
        seconds, peak, status, said = run(["sync", str(folder), "--db", str(db)], code)
        after = size_mb(db)
        sets = [run(["set", PAPER, "--priority", str(k % 5 + 1), "--db", str(db)], code)[0] for k in range(runs)]
        return {"papers": papers, "peer MB": peer, "sync s": seconds, "peak MB": peak, "exit": status,
                "db MB after": after, "set s": statistics.median(sets),
                "said": said.replace(str(folder) + "/", "")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", default="0,100000,300000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--code", help="the checkout whose `python -m tui` to run (default: this one)")
    args = parser.parse_args()
    rows = [one_size(int(n), args.runs, args.code) for n in args.papers.split(",")]
    print(f"a large peer file in the sync folder ({args.code or 'this checkout'}; load {os.getloadavg()[0]:.2f}"
          f" on {os.cpu_count()} cores, a shared machine)")
    print(f"{'papers':>8}{'peer MB':>9}{'sync s':>8}{'peak MB':>9}{'exit':>6}{'db MB after':>13}{'set s':>7}  sync said")
    for row in rows:
        print(f"{row['papers']:>8,}{row['peer MB']:>9.1f}{row['sync s']:>8.2f}{row['peak MB']:>9.0f}{row['exit']:>6}"
              f"{row['db MB after']:>13.2f}{row['set s']:>7.2f}  {str(row['said'])[:70]}")


if __name__ == "__main__":
    main()
