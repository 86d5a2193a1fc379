"""Random byte changes in the database and the parse cache: how many load silently wrong.

    python bench/damage.py [--flips 600] [--cache-flips 1100] [--seed 16]

The database is the scenario of tests/test_db_damage.py: 12 marked papers in the snapshot,
then 8 changes as journal lines (one changes a snapshot paper, one removes one). Each trial
copies it, changes one byte of the journal (or of the snapshot) to another random value, opens
it, and sorts the outcome:

- exact: exactly the marks written (told of the damage or not);
- reported: the user is told (a notice or an error), and the marks are those written less the
  damaged part (the damaged line, or the line and the next when a line end was hit; the
  snapshot's marks when the snapshot was hit: they are kept in the copy set aside);
- reported, more lost: told, but more marks differ than the damaged part explains;
- silent: different marks and nothing said.
The exact loads that were told are counted again in `told`.

The cache trials change one byte of a parse-cache entry of a 40-abstract list and read the
list again: the papers are those of a fresh parse (rebuilt, or the change hit nothing that
matters) or not (silent). `PYTHONPATH=OTHER_CHECKOUT` measures that checkout's `store`.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
import sys
import tempfile
from pathlib import Path

from store.common.errors import ReadError

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("damage_scenario", ROOT / "tests" / "test_db_damage.py")
scenario = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scenario)
ABSTRACT = "We study method number {i}: it improves accuracy by {i} points on benchmark B{i} and costs little."


def database_trials(flips: int, rng: random.Random, target: str) -> dict[str, int]:
    counts = dict.fromkeys(("exact", "reported", "reported, more lost", "silent", "told"), 0)
    name = "triage.json.journal" if target == "journal" else "triage.json"
    with tempfile.TemporaryDirectory() as tmp:
        pristine = scenario.build(Path(tmp) / "pristine")
        good = (pristine / name).read_bytes()
        for trial in range(flips):
            path, at = scenario.flipped(pristine, Path(tmp), name, rng, trial)
            try:
                store = scenario.TriageStore(path)
            except (ReadError, OSError):
                marks, told = None, True
            else:
                marks, told = scenario.plain(store), bool(store.notices)
            if target == "journal":
                line = scenario.line_of(good, at)
                allowed = [scenario.written(frozenset({line})), scenario.written(frozenset({line, line + 1}))]
            else:
                allowed = [scenario.written(snapshot=False)]
            if marks == scenario.written():
                counts["exact"] += 1
                counts["told"] += told
            elif not told:
                counts["silent"] += 1
            else:
                counts["reported" if marks in allowed else "reported, more lost"] += 1
    return counts


def cache_trials(flips: int, rng: random.Random) -> dict[str, int]:
    from store.readers import read_path
    from store.readers import cache

    counts = {"same papers": 0, "silent": 0, "error": 0}
    # A changed length in an unchecked entry can make unmarshalling ask for many gigabytes: cap the
    # address space so that is a MemoryError (counted by what the reader then does) and not a kill.
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TRIAGE_CACHE"] = str(Path(tmp) / "cache")
        listing = Path(tmp) / "list.txt"
        listing.write_text("SYNTH 2024\n\n" + "\n\n".join(ABSTRACT.format(i=i) for i in range(40)) + "\n")
        fresh = read_path(listing)
        cache.settle()
        (entry,) = (Path(tmp) / "cache").glob("*.parse")
        good = entry.read_bytes()
        for _ in range(flips):
            position = rng.randrange(len(good))
            damaged = bytearray(good)
            damaged[position] = rng.choice([b for b in range(256) if b != good[position]])
            entry.write_bytes(bytes(damaged))
            try:
                again = read_path(listing)
            except Exception:  # noqa: BLE001 - counted
                counts["error"] += 1
            else:
                counts["same papers" if again == fresh else "silent"] += 1
            cache.settle()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flips", type=int, default=600)
    parser.add_argument("--cache-flips", type=int, default=1100)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    print(f"store from {Path(sys.modules['store'].__file__).parent}")
    for target in ("journal", "snapshot"):
        counts = database_trials(args.flips, random.Random(f"{args.seed} {target}"), target)
        print(f"{target:9} {args.flips} flips: " + ", ".join(f"{what} {n}" for what, n in counts.items()))
    counts = cache_trials(args.cache_flips, random.Random(f"{args.seed} cache"))
    print(f"cache     {args.cache_flips} flips: " + ", ".join(f"{what} {n}" for what, n in counts.items()))


if __name__ == "__main__":
    main()
