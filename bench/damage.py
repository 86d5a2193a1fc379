"""Random byte changes in the database and the parse cache: how many load silently wrong.

    python bench/damage.py [--flips 600] [--cache-flips 1100] [--seed 16]

A database of 40 marked papers is written: 30 in the snapshot, then 12 changes as journal lines
(some change a snapshot paper, one removes one). Each trial copies it, changes one byte of the
journal (or of the snapshot) to another random value, opens it, and sorts the outcome:

- exact: exactly the marks written;
- reported: the user is told (a notice or an error), and the marks are those written less the
  damaged part (the damaged line, or the line and its neighbour when a line end was hit; the
  snapshot's marks when the snapshot was hit: they are kept in the copy set aside);
- reported, more lost: told, but more marks differ than the damaged part explains;
- silent: different marks and nothing said.

The cache trials change one byte of a parse-cache entry of a 40-abstract list and read the
list again: the papers are those of a fresh parse (rebuilt, or the change hit nothing that
matters) or not (silent). Run it with `PYTHONPATH` at another checkout to measure that one.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from store.db import TriageStore
from store.errors import ReadError
from store.model import Triage

SNAPSHOT = {f"p{i:02d}": Triage(read=i % 2 == 0, starred=i % 3 == 0, priority=i % 6, note=f"n{i}") for i in range(30)}
LINES: list[dict[str, Triage]] = [
    *({f"q{i:02d}": Triage(read=True, priority=i % 5 + 1, tags=("t",))} for i in range(10)),
    {"p01": Triage(starred=True, note="changed")},
    {"p02": Triage()},  # removed
]
ABSTRACT = "We study method number {i}: it improves accuracy by {i} points on benchmark B{i} and costs little."


def expected(skip: set[int] = frozenset(), snapshot: bool = True) -> dict[str, Triage]:
    """The marks after the snapshot (if kept) and every journal line but those in `skip`."""
    state = dict(SNAPSHOT) if snapshot else {}
    for k, line in enumerate(LINES):
        if k not in skip:
            state.update(line)
    return {pid: t for pid, t in state.items() if not t.blank}


def build(folder: Path) -> Path:
    path = folder / "triage.json"
    store = TriageStore(path, compact_bytes=1 << 30)
    store.put(SNAPSHOT)
    store.close()
    store = TriageStore(path, compact_bytes=1 << 30)
    for line in LINES:
        store.put(line)
    del store  # not closed: the journal keeps its lines
    return path


def loaded(path: Path) -> tuple[dict[str, Triage] | None, bool]:
    """The marks a fresh open gives (with `updated` cleared) and whether the user was told anything."""
    try:
        store = TriageStore(path)
    except (ReadError, OSError):
        return None, True
    try:
        return {pid: replace(store.get(pid), updated=0.0) for pid in store.ids()}, bool(store.notices)
    finally:
        store.close()


def allowed(target: str, line_starts: list[int], position: int) -> list[dict[str, Triage]]:
    """The mark sets a reported load may give for a change at `position` of `target`."""
    if target == "snapshot":
        return [expected(snapshot=False)]
    k = max(i for i, start in enumerate(line_starts) if start <= position)
    return [expected({k}), expected({k, k + 1})]


def database_trials(flips: int, rng: random.Random, target: str) -> dict[str, int]:
    counts = dict.fromkeys(("exact", "reported", "reported, more lost", "silent"), 0)
    with tempfile.TemporaryDirectory() as tmp:
        pristine = Path(tmp) / "pristine"
        pristine.mkdir()
        build(pristine)
        name = "triage.json.journal" if target == "journal" else "triage.json"
        good = (pristine / name).read_bytes()
        starts = [0] + [i + 1 for i, byte in enumerate(good) if byte == 10][:-1]
        want = expected()
        for trial in range(flips):
            folder = Path(tmp) / f"t{trial}"
            shutil.copytree(pristine, folder)
            position = rng.randrange(len(good))
            damaged = bytearray(good)
            damaged[position] = rng.choice([b for b in range(256) if b != good[position]])
            (folder / name).write_bytes(bytes(damaged))
            marks, told = loaded(folder / "triage.json")
            if marks == want:
                counts["exact"] += 1
            elif not told:
                counts["silent"] += 1
            elif marks in allowed(target, starts, position):
                counts["reported"] += 1
            else:
                counts["reported, more lost"] += 1
            shutil.rmtree(folder)
    return counts


def cache_trials(flips: int, rng: random.Random) -> dict[str, int]:
    from store import read_path
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
