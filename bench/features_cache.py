"""The features cache (For you, more like this): building a list's features vs loading them from the cache.

    python bench/features_cache.py [--file LIST]... [--sizes 100000] [--repeat 3]

Synthetic lists come from ../shared/tools/make_corpus.py (beside the checkout); `--file` adds lists of your own
(the ICLR list: ../shared/corpora/iclr-2024-papers.jsonl). The cache is a temporary `$TRIAGE_CACHE`. Each list is
read first; then "build" is `store.interest.features_cache.features` with an empty cache (the papers' words
counted and the vectors made: what a command paid on every call before the cache), "load" the same call once the
entry is written (read, checked, assembled), each in wall and CPU seconds (all threads), best of `--repeat`;
"peak MB" the process's peak RSS after building (VmHWM, this list and those before it); "entry MB" the entry on
disk; "same" whether the loaded features give the same For-you order (one star; two stars, a dismissed and a read
paper) and the same similar papers as the built ones.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MAKE_CORPUS, timed  # noqa: E402  (bench/common.py, beside this file)


def shown(made) -> list:
    """The For-you orders of two sets of marks and the papers most like a few, of the features `made`."""
    from store.interest.ranking import InterestModel
    from store.papers.model import Triage

    ids = made.ids
    marks = [{ids[3]: Triage(starred=True)},
             {ids[1]: Triage(starred=True), ids[8]: Triage(starred=True), ids[2]: Triage(read=True), ids[5]: Triage(priority=4)}]
    return [InterestModel(made).rank(states).order for states in marks] + [made.similar(pid, 10) for pid in ids[::len(ids) // 5]]


def bench(name: str, path: Path, repeat: int) -> None:
    from store.interest.features_cache import FEATURES_FROM, features
    from store.readers import cache, read_path
    from store.readers.cache import FEATURES_SUFFIX

    collection = read_path(path)
    folder = Path(os.environ["TRIAGE_CACHE"])

    def build():
        for entry in folder.glob("*" + FEATURES_SUFFIX):
            entry.unlink()
        made = features(collection)[0]
        cache.settle()  # (written by a thread: counted, as a command's exit waits for it)
        return made

    build_wall, build_cpu, built = timed(build, repeat)
    peak = int(Path("/proc/self/status").read_text().split("VmHWM:")[1].split()[0]) // 1024
    load_wall, load_cpu, (loaded, made_now) = timed(lambda: features(collection), repeat)
    size = sum(entry.stat().st_size for entry in folder.glob("*" + FEATURES_SUFFIX)) / 2**20
    same = "-" if len(collection.papers) < FEATURES_FROM else "NO" if made_now or shown(loaded) != shown(built) else "yes"
    print(f"{name:<24} {len(collection.papers):>8,} {build_wall:>8.2f} {build_cpu:>8.2f} {load_wall:>8.2f} {load_cpu:>8.2f}"
          f" {peak:>8} {size:>9.0f} {same:>5}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000")
    parser.add_argument("--file", action="append", default=[], type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("load average %.2f %.2f %.2f on %d cores (other work makes wall times noisy; CPU times less so)"
          % (*os.getloadavg(), os.cpu_count() or 0))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        lists = [(path.name, path) for path in args.file]
        for size in (int(s) for s in args.sizes.split(",") if s):
            path = folder / f"{size}.jsonl"
            with path.open("wb") as out:
                subprocess.run([sys.executable, str(MAKE_CORPUS), str(size), "--format", "jsonl"], stdout=out, check=True)
            lists.append((f"synthetic {size}", path))
        print(f"{'list':<24} {'papers':>8} {'build s':>8} {'CPU s':>8} {'load s':>8} {'CPU s':>8} {'peak MB':>8}"
              f" {'entry MB':>9} {'same':>5}")
        for name, path in lists:
            os.environ["TRIAGE_CACHE"] = str(folder / f"cache-{len(os.listdir(folder))}")
            bench(name, path, args.repeat)


if __name__ == "__main__":
    main()
