"""Where the memory of an open list goes: a cold open and a cached one, in fresh processes, this
checkout beside a base revision.

    python bench/memory.py [--size 100000] [--file LIST] [--base main] [--phrases]

The list is a synthetic one from ../shared/tools/make_corpus.py (or `--file`). Each open runs in a
process of its own with a cache of its own (`$TRIAGE_CACHE`): "cold" with an empty one (the list
parsed, its engine's folder built), "cached" again with what that left (the folder opened). Printed
for each: the RSS (anonymous + file-backed: the engine's files are mapped, not loaded) after reading
the list, after the search is at hand (bench/common.py's `searcher`: the engine opened, or built
first) and after a few phrase queries (PHRASES, once each: the pages of the index they read), the
peak (VmHWM), and then what the papers hold, in MB (`sys.getsizeof` walks): texts (and how many are
wider than Latin-1, how many packed, how many kept otherwise: before the engine, as their lowered lines),
display texts kept beside them (patches, strings), titles, names, ids, the Paper objects; and the
engine's folder on disk. A base revision from before the engine (issue 34) builds and readies its SearchIndex
in both opens (its index cache is not used), which is its "+ search". `--phrases` adds the median
ms of the phrase queries in the cached process (7 runs each). The load average is printed:
numbers on a loaded machine are pessimistic (memory less so than times).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MAKE_CORPUS, ROOT, base_tree, searcher  # noqa: E402 (bench/common.py, beside this file)

STAGES = ("read", "+ search", "+ phrases")
PHRASES = ['"neural network"', '"graph neural network"', '"state of the art"', '"e.g', '"n', '"ne', '"α']


def status() -> dict[str, int]:
    text = Path("/proc/self/status").read_text()
    return {key: int(text.split(key + ":")[1].split()[0]) // 1024 for key in ("VmRSS", "RssAnon", "RssFile", "VmHWM")}


def held(collection) -> dict[str, float]:
    """MB each part of the papers holds (a text kept as another object than its string or a `Packed`, as a
    revision from before the engine keeps some, counts with the values of its slots, each object once)."""
    from store.papers.model import _KEPT_PLAIN, kept_text
    from store.papers.packed import Packed

    size = sys.getsizeof
    papers = collection.papers
    kept = [_KEPT_PLAIN.__get__(p) for p in papers]
    texts = [kept_text(p) for p in papers]
    other = [t for t in texts if type(t) not in (str, Packed)]
    parts_of_other = {id(value): value for t in other for value in (t, *(getattr(t, slot) for slot in type(t).__slots__))}
    parts = {
        "texts": sum(size(t) for t in texts if type(t) is str)
                 + sum(size(chunk.packed) + size(chunk.ends) for chunk in {id(t.chunk): t.chunk for t in texts if type(t) is Packed}.values())
                 + sum(map(size, parts_of_other.values())),
        "display texts kept": sum(size(k) for k, t in zip(kept, texts) if k is not None and k is not t),
        "titles": sum(size(p.title) for p in papers),
        "names": sum(size(p.name) for p in papers),
        "ids": sum(size(p.id) for p in papers),
        "Paper objects": sum(size(p) for p in papers),
    }
    mb = {name: round(value / 2**20, 1) for name, value in parts.items()}
    mb["wide texts (count)"] = sum(type(t) is str and not t.isascii() and max(t) > "\xff" for t in texts)
    mb["texts packed (count)"] = sum(type(t) is Packed for t in texts)
    mb["texts kept otherwise (count)"] = len(other)
    return mb


def stages(path: Path, phrases: bool) -> dict:
    """One open of `path` with the `store` this process imports."""
    from store.readers import cache, read_path

    found: dict = {}
    started = time.perf_counter()
    collection = read_path(path)
    found["read"] = {**status(), "s": round(time.perf_counter() - started, 1)}
    index = searcher(collection)[0]
    cache.settle()
    found["+ search"] = {**status(), "s": round(time.perf_counter() - started, 1)}
    for query in PHRASES:
        index.search(query)
    found["+ phrases"] = {**status(), "s": round(time.perf_counter() - started, 1)}
    found["held"] = held(collection)
    folder = getattr(index, "folder", None)  # (a SearchIndex, before the engine, has none)
    files = [] if folder is None else [f for f in folder.rglob("*") if f.is_file()]
    found["held"]["engine folder on disk"] = "-" if folder is None else round(sum(f.stat().st_size for f in files) / 2**20, 1)
    if phrases:
        found["phrases"] = {}
        for query in PHRASES:
            times = []
            for _ in range(7):
                started = time.perf_counter()
                index.search(query)
                times.append(time.perf_counter() - started)
            found["phrases"][query] = round(statistics.median(times) * 1000, 1)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--file", type=Path)
    parser.add_argument("--base", default="main", help="the revision to compare with (default main)")
    parser.add_argument("--phrases", action="store_true")
    parser.add_argument("--stages", type=Path, help=argparse.SUPPRESS)  # (one process's open, as JSON)
    args = parser.parse_args()
    if args.stages:
        print(json.dumps(stages(args.stages, args.phrases)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = args.file
        if path is None:
            path = folder / f"{args.size}.txt"
            subprocess.run([sys.executable, str(MAKE_CORPUS), str(args.size), "-o", str(path)], check=True)
        rows = []
        for name, tree in ((args.base, base_tree(args.base, folder)), ("this", ROOT)):
            env = {**os.environ, "PYTHONPATH": str(tree), "TRIAGE_CACHE": str(folder / f"cache-{name}")}
            for open_ in ("cold", "cached"):
                load = os.getloadavg()[0]
                command = [sys.executable, __file__, "--stages", str(path)] + (["--phrases"] if args.phrases and open_ == "cached" else [])
                done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
                rows.append((name, open_, load, json.loads(done.stdout)))
        print(f"{path.name}: RSS MB (anonymous + file) after each stage (seconds since the start), peak; load average at the "
              "start of each")
        for name, open_, load, found in rows:
            cells = "  ".join(f"{stage} {s['VmRSS']} ({s['RssAnon']} + {s['RssFile']}, {s['s']} s)"
                              for stage, s in ((stage, found[stage]) for stage in STAGES))
            print(f"  {name:<6} {open_:<6} {cells}  peak {found[STAGES[-1]]['VmHWM']}  load {load:.1f}")
        print("held, MB (cached open)")
        cached = [(name, found) for name, open_, _, found in rows if open_ == "cached"]
        for part in cached[0][1]["held"]:
            print(f"  {part:<29} " + "  ".join(f"{name} {found['held'].get(part, '-'):>7}" for name, found in cached))
        if args.phrases:
            print("phrase median ms (cached open)")
            for query in PHRASES:
                print(f"  {query:<24} " + "  ".join(f"{name} {found['phrases'][query]:>7}" for name, found in cached))


if __name__ == "__main__":
    main()
