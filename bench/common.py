"""What several benches share: where ../shared's corpora and make_corpus.py are, the best of a few timed runs, a
base revision's `store` unpacked (to be measured beside this checkout's, each in a process of its own), and what
answers a list's queries as the `store` a process imports has it (`searcher`).

A bench imports this module with its own folder on `sys.path` (a script's folder is, when it is run)."""
from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """(wall s, CPU s of all threads, result) of the fastest of `repeat` runs of `work`."""
    best = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        run = (time.perf_counter() - wall, time.process_time() - cpu, result)
        best = run if best is None or run[0] < best[0] else best
    return best


def base_tree(revision: str, folder: Path) -> Path:
    """The `store` package of `revision`, unpacked under `folder`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision, "store"], check=True,
                             capture_output=True).stdout
    tree = folder / "base"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def searcher(collection, fresh: bool = False) -> tuple[object, bool]:
    """(what answers queries on `collection` as the `store` this process imports has it, whether it was built now):
    its engine (store.readers.engine_cache.engine_for: the folder in the cache, `$TRIAGE_CACHE`, opened, or built
    there first; `fresh`: built in an empty cache folder of its own, made inside `$TRIAGE_CACHE`, which this process
    uses from then on). A base revision from before the engine (issue 34) answers with its SearchIndex, built and
    readied (phrase texts, qualifiers) as its app readied it before the first query, never from its index cache."""
    try:
        from store.readers.engine_cache import engine_for
    except ImportError:  # a revision from before the engine
        try:
            from store.search.index import SearchIndex
        except ImportError:  # (before 2026-12-02's fc2b883, store.search was a module)
            from store.search import SearchIndex

        index = SearchIndex(collection.papers)
        index.literal_ready()
        index.qualifiers_ready()
        return index, True
    if fresh:
        os.makedirs(os.environ["TRIAGE_CACHE"], exist_ok=True)
        os.environ["TRIAGE_CACHE"] = tempfile.mkdtemp(prefix="fresh-", dir=os.environ["TRIAGE_CACHE"])
    engine, built = engine_for(collection)[:2]
    return engine, built
