"""How often a derived title carries the paper's short name, on corpora whose true titles are known.

For each paper of ../shared/corpora/*-papers.jsonl whose true title starts with a short name
before a colon ("HDGNN: Hybrid Directional ..."; one word of at most 30 characters, LaTeX
decoded), check whether the title `store.names.derive_title` makes from the abstract alone
contains that name (case-insensitive). Prints one row per corpus.

    python bench/names.py [--misses N] [CORPORA_DIR]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from store.names import derive_title  # noqa: E402
from store.text import display, latex_text  # noqa: E402

SHORT_NAME = re.compile(r"^(\S{1,30}):\s")


def measure(path: Path, misses: int) -> tuple[int, int, int, float]:
    papers = [json.loads(line) for line in path.open(encoding="utf-8")]
    named = hits = 0
    elapsed = 0.0
    shown = 0
    for paper in papers:
        match = SHORT_NAME.match(latex_text(paper["title"]))
        if not match:
            continue
        named += 1
        start = time.perf_counter()
        title, _ = derive_title(display(paper["abstract"]).plain)
        elapsed += time.perf_counter() - start
        if match.group(1).casefold() in title.casefold():
            hits += 1
        elif shown < misses:
            shown += 1
            print(f"  miss: {match.group(1)!r:24} derived {title!r}")
    return len(papers), named, hits, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="?", default=str(ROOT.parent / "shared" / "corpora"))
    parser.add_argument("--misses", type=int, default=0, help="print up to N papers whose name was missed")
    args = parser.parse_args()
    rows = []
    for path in sorted(Path(args.corpora).glob("*-papers.jsonl")):
        total, named, hits, elapsed = measure(path, args.misses)
        rows.append((path.name, total, named, hits, elapsed))
    if not rows:
        sys.exit(f"no *-papers.jsonl in {args.corpora}")
    print(f"{'corpus':28} {'papers':>7} {'NAME: titles':>13} {'name in derived':>16} {'share':>7} {'µs/abstract':>12}")
    for name, total, named, hits, elapsed in rows:
        share = hits / named if named else 0.0
        print(f"{name:28} {total:7d} {named:13d} {hits:16d} {share:7.1%} {elapsed / max(named, 1) * 1e6:12.0f}")


if __name__ == "__main__":
    main()
