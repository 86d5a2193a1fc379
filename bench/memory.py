"""Where the memory of an open list goes: a cold open and a cached one, in fresh processes, this
checkout beside a base revision.

    python bench/memory.py [--size 100000] [--file LIST] [--base main] [--phrases]

The list is a synthetic one from ../shared/tools/make_corpus.py (or `--file`). Each open runs in a
process of its own with a cache of its own (`$TRIAGE_CACHE`): "cold" with an empty one (the list
parsed, its index built), "cached" again with what that left. Printed for each: the RSS after reading
the list, after `search_index` and after `literal_ready` (what the app's index thread does next),
the peak (VmHWM), and then what the papers and the index hold, in MB (`sys.getsizeof` walks and
the arrays' sizes): texts (and how many are wider than Latin-1, how many are kept as their lowered
lines, `store.papers.cased.Cased`), display texts kept beside them
(patches, strings), titles, names, ids, the Paper objects, the vocabulary (dicts, the lookup
vocabularies), postings, the lowered phrase texts, the letter counts. `--phrases` adds the median
ms of a few phrase queries in the cached process (7 runs each). The load average is printed:
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

ROOT = Path(__file__).resolve().parents[1]
MAKE_CORPUS = ROOT.parent / "shared" / "tools" / "make_corpus.py"
PHRASES = ['"neural network"', '"graph neural network"', '"state of the art"', '"e.g', '"n', '"ne', '"α']


def status() -> dict[str, int]:
    text = Path("/proc/self/status").read_text()
    return {key: int(text.split(key + ":")[1].split()[0]) // 1024 for key in ("VmRSS", "VmHWM")}


def held(collection, index) -> dict[str, float]:
    """MB each part of the papers and of the index holds."""
    from store.papers.cased import Cased
    from store.papers.model import _KEPT_PLAIN, kept_text
    from store.papers.packed import Packed

    size = sys.getsizeof
    papers = collection.papers
    kept = [_KEPT_PLAIN.__get__(p) for p in papers]
    texts = [kept_text(p) for p in papers]
    phrases = index._phrases
    lowered = phrases.lowered
    chunks = lowered._chunks or []
    vocabularies = [*index._vocab.values(), index._names_vocab]
    parts = {
        "texts": sum(size(t) if type(t) is str else size(t) + size(t.places) if type(t) is Cased else size(t) for t in texts)
                 + sum(size(chunk.packed) + size(chunk.ends) for chunk in {id(t.chunk): t.chunk for t in texts if type(t) is Packed}.values()),
        "display texts kept": sum(size(k) for k, t in zip(kept, texts) if k is not None and k is not t),
        "titles": sum(size(p.title) for p in papers),
        "names": sum(size(p.name) for p in papers),
        "ids": sum(size(p.id) for p in papers),
        "Paper objects": sum(size(p) for p in papers),
        "word dicts": sum(size(d) + sum(map(size, d)) for d in (index._words, index._names, index._folded, index._position)),
        "vocabularies": sum(size(v.sorted) + size(v._set) + size(v._reversed) + sum(map(size, v._reversed))
                            + sum(size(words) for words in v.by_length.values()) for v in vocabularies),
        "postings": sum(p.values.nbytes + p.bounds.nbytes for p in (index._body, index._title, index._author, index._keyword)),
        "lowered texts": sum(size(c[0]) + c[1].nbytes if isinstance(c, tuple) else size(c) for c in chunks),
        "letter counts": lowered.letters.nbytes + lowered.wide.values.nbytes + lowered.wide.bounds.nbytes,
    }
    mb = {name: round(value / 2**20, 1) for name, value in parts.items()}
    mb["wide texts (count)"] = sum(type(t) is str and not t.isascii() and max(t) > "\xff" for t in texts)
    mb["texts packed (count)"] = sum(type(t) is Packed for t in texts)
    mb["texts kept as lines (count)"] = sum(type(t) is Cased for t in texts)
    return mb


def stages(path: Path, phrases: bool) -> dict:
    """One open of `path` with the `store` this process imports."""
    from store.readers import read_path
    from store.readers.index_cache import search_index
    from store.readers import cache

    found: dict = {}
    started = time.perf_counter()
    collection = read_path(path)
    found["read"] = {**status(), "s": round(time.perf_counter() - started, 1)}
    index = search_index(collection)
    cache.settle()
    found["+ index"] = {**status(), "s": round(time.perf_counter() - started, 1)}
    index.literal_ready()
    found["+ literal_ready"] = {**status(), "s": round(time.perf_counter() - started, 1)}
    found["held"] = held(collection, index)
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
    sys.path.insert(0, str(ROOT / "bench"))
    from search import base_tree  # (bench/search.py, beside this file)

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
        print(f"{path.name}: RSS MB after each stage (seconds since the start), peak; load average at the start of each")
        for name, open_, load, found in rows:
            cells = "  ".join(f"{stage} {found[stage]['VmRSS']} ({found[stage]['s']} s)" for stage in ("read", "+ index", "+ literal_ready"))
            print(f"  {name:<6} {open_:<6} {cells}  peak {found['+ literal_ready']['VmHWM']}  load {load:.1f}")
        print("held, MB (cached open)")
        cached = [(name, found) for name, open_, _, found in rows if open_ == "cached"]
        for part in cached[0][1]["held"]:
            print(f"  {part:<20} " + "  ".join(f"{name} {found['held'].get(part, '-'):>7}" for name, found in cached))
        if args.phrases:
            print("phrase median ms (cached open)")
            for query in PHRASES:
                print(f"  {query:<24} " + "  ".join(f"{name} {found['phrases'][query]:>7}" for name, found in cached))


if __name__ == "__main__":
    main()
