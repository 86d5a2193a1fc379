"""The search index cache: building an index vs loading it from the cache, per list size.

    python bench/index_cache.py [--sizes 10000,20000,50000,100000] [--file LIST]... [--repeat 3]
                                [--memory-sizes 100000] [--base main]

Synthetic lists come from ../shared/tools/make_corpus.py (beside the checkout); `--file` adds
lists of your own. The cache is a temporary `$TRIAGE_CACHE`, so the user's is untouched.
Columns: "build" is `SearchIndex(papers)`; "load" is `store.search_index` finding the entry
(read, checked, assembled), of which "digest" is `store.search.index_made.fingerprint`; "texts" is making the
lower-cased texts phrases are looked for in (`literal_ready`: a loaded index makes them anew, on the
app's index thread after the load); "entry MB" the entry's size on disk. Wall and CPU
seconds (CPU counts all threads), best of `--repeat`. "same" says the loaded index gives the
same ids, scores and spans as the built one for a few queries.

Then memory, for each of `--memory-sizes`, with this checkout and the `--base` revision (its `store`
from `git archive`), each in fresh processes with its own cache (warmed by a first run): the RSS,
anonymous and file-backed, after reading the list (parse cache), after `search_index` (index cache)
and after `literal_ready` (what the app's index thread does next), and the peak (VmHWM); and the
index entry's size.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"
QUERIES = ["graph neural", "difusion recovry", '"neural network"', "language !graph", "year:2024 contrastiv"]


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """(wall s, CPU s, result) of the fastest of `repeat` runs of `work`."""
    best = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        run = (time.perf_counter() - wall, time.process_time() - cpu, result)
        best = run if best is None or run[0] < best[0] else best
    return best


def shown(index) -> list:
    return [[(h.paper_id, h.score, h.title_spans, h.text_spans) for h in index.search(q)[:200]] for q in QUERIES]


def bench(name: str, path: Path, repeat: int) -> None:
    from store.search.index import SearchIndex
    from store.readers import read_path
    from store.readers.index_cache import search_index
    from store.readers import cache, index_cache
    from store.search.index_build import Postings
    from store.search.phrases import Lowered
    from store.search.index_made import fingerprint

    index_cache.INDEX_FROM = 0  # every list, to see from which length loading beats building
    collection = read_path(path)
    papers = collection.papers
    build_wall, build_cpu, built = timed(lambda: SearchIndex(papers), repeat)
    search_index(collection)  # builds and writes the entry
    cache.settle()
    [entry] = Path(os.environ["TRIAGE_CACHE"]).glob("*" + cache.INDEX_SUFFIX)
    load_wall, load_cpu, loaded = timed(lambda: search_index(collection), repeat)
    digest_wall, _, _ = timed(lambda: fingerprint(papers), repeat)
    parts = loaded.parts()
    lower_wall, _, _ = timed(lambda: Lowered(papers, parts["letters"], parts["chars"],
                                             Postings(parts["char_bounds"], parts["char_papers"])).chunks(), repeat)
    same = "yes" if shown(loaded) == shown(built) else "NO"
    print(f"{name:<22} {len(papers):>8,} {build_wall:>8.2f} {build_cpu:>8.2f} {load_wall:>8.2f} {load_cpu:>8.2f}"
          f" {digest_wall:>8.2f} {lower_wall:>8.2f} {entry.stat().st_size / 2**20:>9.0f} {same:>5}")


def status() -> dict[str, int]:
    """This process's RSS (all, anonymous, file-backed) and peak RSS, in MB."""
    text = Path("/proc/self/status").read_text()
    return {key: int(text.split(key + ":")[1].split()[0]) // 1024 for key in ("VmRSS", "RssAnon", "RssFile", "VmHWM")}


def memory_stages(path: Path) -> dict[str, dict[str, int]]:
    """`status()` after each stage of opening `path` with the `store` this process imports."""
    from store.readers import read_path
    from store.readers.index_cache import search_index
    from store.readers import cache

    stages = {}
    collection = read_path(path)
    stages["read"] = status()
    index = search_index(collection)
    cache.settle()
    stages["+ index"] = status()
    index.literal_ready()
    stages["+ literal_ready"] = status()
    return stages


def memory(path: Path, trees: dict[str, Path | None], folder: Path) -> None:
    from store.readers import cache

    print(f"\nmemory at {path.stem} papers, cached (load average {os.getloadavg()[0]:.2f}): RSS MB (anon + file)")
    for name, tree in trees.items():
        cache_folder = folder / f"memory-{name}-{path.stem}"
        env = {**os.environ, "TRIAGE_CACHE": str(cache_folder)}
        if tree is not None:
            env["PYTHONPATH"] = str(tree)
        for _ in range(2):  # the first run fills the caches
            done = subprocess.run([sys.executable, __file__, "--memory-stages", str(path)], env=env, check=True,
                                  capture_output=True, text=True)
        stages = json.loads(done.stdout)
        entry = sum(p.stat().st_size for p in cache_folder.glob("*" + cache.INDEX_SUFFIX)) / 2**20
        cells = "  ".join(f"{stage} {s['VmRSS']:>4} ({s['RssAnon']} + {s['RssFile']})" for stage, s in stages.items())
        print(f"  {name:<8} {cells}  peak {stages['+ literal_ready']['VmHWM']}  index entry {entry:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,20000,50000,100000")
    parser.add_argument("--file", action="append", default=[], type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory-sizes", default="100000")
    parser.add_argument("--base", default="main", help="the revision to compare memory with (default main)")
    parser.add_argument("--memory-stages", type=Path, help=argparse.SUPPRESS)  # (one process's stages, as JSON)
    args = parser.parse_args()
    if args.memory_stages:
        print(json.dumps(memory_stages(args.memory_stages)))
        return
    print("load average %.2f %.2f %.2f on %d cores (other work makes wall times noisy; CPU times less so)"
          % (*os.getloadavg(), os.cpu_count() or 0))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        lists = [(str(path), path) for path in args.file]
        for size in (int(s) for s in args.sizes.split(",") if s):
            path = folder / f"{size}.txt"
            subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "-o", str(path)], check=True)
            lists.append((f"synthetic {size}", path))
        print(f"{'list':<22} {'papers':>8} {'build s':>8} {'CPU s':>8} {'load s':>8} {'CPU s':>8}"
              f" {'digest s':>8} {'texts s':>8} {'entry MB':>9} {'same':>5}")
        for name, path in lists:
            os.environ["TRIAGE_CACHE"] = str(folder / f"cache-{len(os.listdir(folder))}")
            bench(name, path, args.repeat)
        from search import base_tree  # (bench/search.py, beside this file)

        trees = {args.base: base_tree(args.base, folder), "this": None}
        for size in (int(s) for s in args.memory_sizes.split(",") if s):
            path = folder / f"{size}.txt"
            if not path.exists():
                subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "-o", str(path)], check=True)
            memory(path, trees, folder)


if __name__ == "__main__":
    main()
