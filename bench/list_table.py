"""`triage list LIST --sort interest` and `triage similar ID LIST` on a long list once its cache exists (issue 34:
within a second at 100,000 papers): each command's later calls, in wall and CPU seconds (the process's, user +
system), the least of `--repeat` runs each, for this checkout's `triage` and for another install's (`--before`: main's,
say), and whether the two print the same bytes; then the two commands called in turn, list, similar, list, … (what a
reader going between For you and more like this does: "alternating", the least of `--repeat` calls of each); with
`--other`, each command called after a star made in the other list (the next of its papers: "after a star elsewhere",
the least of `--repeat` calls; For you learns from it, in the kept features' space, which it does not change); then a
table's titles, rendered (what every `triage list` did before the titles entry, `store.readers.title_cache`) or read
from the kept entry, each in a process of its own (its imports counted).

    python bench/list_table.py --file LIST [--other LIST] [--before PATH/TO/triage] [--repeat 5] [--cache FOLDER]

Each `triage` has a temporary database of its own (the list's first paper starred: For you ranks; with `--other`, the
first 3 papers of that list starred too, as a reader with a library has: For you learns from them, and so does more
like this) and a cache folder of its own (their code differs, so do their entries: temporary, or FOLDER/before and
FOLDER/after, kept for the next run); the first call of each command builds what it keeps (the parse, the features,
the titles) and is not counted.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TITLES = """
import os, sys, time
from store.readers import read_paths
from tui.cli.table import list_rows, paper_rows, print_table
collection = read_paths([sys.argv[1]])
sys.stdout = open(os.devnull, "w")
wall, cpu = time.perf_counter(), time.process_time()
if sys.argv[2] == "kept":
    print_table(list_rows(collection, range(len(collection.papers))), {})
else:
    print_table(paper_rows(collection.papers), {})
print(time.perf_counter() - wall, time.process_time() - cpu, file=sys.stderr)
"""


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float, bytes]:
    """(wall s, CPU s, stdout) of the command `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    out = subprocess.run(argv, env=env, capture_output=True, check=True).stdout
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, out


def best(argv: list[str], env: dict[str, str], repeat: int) -> tuple[float, float, bytes]:
    """The least wall and the least CPU time of `repeat` runs of `argv` after a first (not counted), and what it
    printed."""
    run(argv, env)  # (builds what the command keeps)
    runs = [run(argv, env) for _ in range(repeat)]
    return min(wall for wall, _, _ in runs), min(cpu for _, cpu, _ in runs), runs[-1][2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", required=True, type=Path)
    parser.add_argument("--other", type=Path, help="another list, its first 3 papers starred (the library's)")
    parser.add_argument("--before", help="another install's triage command, timed beside this checkout's")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cache", type=Path, help="where each triage's cache folder is kept (default: a temporary one)")
    args = parser.parse_args()
    print("load average %.2f %.2f %.2f on %d cores (other work makes wall times noisy; CPU times less so)"
          % (*os.getloadavg(), os.cpu_count() or 0))
    ours = str(Path(sys.executable).with_name("triage"))
    triages = [("before", args.before), ("after", ours)] if args.before else [("after", ours)]
    listed = str(args.file.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'command':<38} {'triage':<14} {'wall s':>7} {'CPU s':>7} {'same':>5}")
        outputs: dict[str, bytes] = {}
        for name, triage in triages:
            env = {**os.environ, "TRIAGE_CACHE": str(args.cache / name if args.cache else f"{tmp}/cache-{name}"),
                   "TRIAGE_DB": f"{tmp}/db-{name}.json"}
            first = run([triage, "list", listed], env)[2].split(None, 1)[0].decode()
            subprocess.run([triage, "set", first, "--star", listed], env=env, capture_output=True, check=True)
            other = str(args.other.resolve()) if args.other else ""
            listing = run([triage, "list", other, "--format", "jsonl"], env)[2] if other else b""
            others = [json.loads(line)["id"] for line in listing.splitlines()]
            for pid in others[:3]:
                subprocess.run([triage, "set", pid, "--star", other], env=env, capture_output=True, check=True)
            commands = [["list", listed, "--sort", "interest"], ["similar", first, listed]]
            labels = [" ".join(command).replace(listed, "LIST").replace(first, "ID") for command in commands]
            for command, label in zip(commands, labels):
                wall, cpu, out = best([triage, *command], env, args.repeat)
                same = "-" if label not in outputs else "yes" if outputs[label] == out else "NO"
                outputs.setdefault(label, out)
                print(f"{label:<38} {name:<14} {wall:>7.2f} {cpu:>7.2f} {same:>5}", flush=True)
            turns = [[run([triage, *command], env)[:2] for command in commands] for _ in range(args.repeat)]
            for k, label in enumerate(labels):
                wall, cpu = min(turn[k][0] for turn in turns), min(turn[k][1] for turn in turns)
                print(f"{label + ', alternating':<38} {name:<14} {wall:>7.2f} {cpu:>7.2f} {'':>5}", flush=True)
            starred = iter(others[3:])
            for command, label in zip(commands, labels if other else []):
                times = []
                for _ in range(args.repeat):
                    subprocess.run([triage, "set", next(starred), "--star", other], env=env, capture_output=True, check=True)
                    times.append(run([triage, *command], env)[:2])
                wall, cpu = min(wall for wall, _ in times), min(cpu for _, cpu in times)
                print(f"{label + ', after a star elsewhere':<38} {name:<14} {wall:>7.2f} {cpu:>7.2f} {'':>5}", flush=True)
        env = {**os.environ, "TRIAGE_CACHE": str(args.cache / "after" if args.cache else f"{tmp}/cache-after")}
        for how in ("rendered", "kept"):
            times = []
            for _ in range(args.repeat):
                done = subprocess.run([sys.executable, "-c", TITLES, listed, how], env=env, capture_output=True, text=True,
                                      check=True)
                times.append(tuple(map(float, done.stderr.split())))
            wall, cpu = min(times)
            print(f"{'table, titles ' + how:<38} {'after':<14} {wall:>7.2f} {cpu:>7.2f} {'':>5}", flush=True)


if __name__ == "__main__":
    main()
