"""How often a derived title carries the paper's short name, on corpora whose true titles are known.

For each paper of ../shared/corpora/*-papers.jsonl whose true title starts with a short name
before a colon ("HDGNN: Hybrid Directional ..."; one word of at most 30 characters, LaTeX
decoded; "Position:", a kind of paper rather than a name, is left out), check whether the
title `store.papers.names.derive_title` makes from the abstract alone contains that name
(case-insensitive). Prints one row per corpus: the share over all such papers, and over those
whose abstract mentions the name at all (no title can be derived from a name that is absent).

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

from store.papers.latex import latex_text  # noqa: E402
from store.papers.names import derive_title  # noqa: E402
from store.papers.text import display  # noqa: E402

SHORT_NAME = re.compile(r"^(\S{1,30}):\s")
NOT_NAMES = {"Position"}


def measure(path: Path, misses: int) -> tuple[int, int, int, int, float]:
    papers = [json.loads(line) for line in path.open(encoding="utf-8")]
    named = hits = mentioned = 0
    elapsed = 0.0
    shown = 0
    for paper in papers:
        match = SHORT_NAME.match(latex_text(paper["title"]))
        if not match or match.group(1) in NOT_NAMES:
            continue
        named += 1
        start = time.perf_counter()
        plain = display(paper["abstract"]).plain
        title, _ = derive_title(plain)
        elapsed += time.perf_counter() - start
        mentioned += match.group(1).casefold() in plain.casefold()
        if match.group(1).casefold() in title.casefold():
            hits += 1
        elif shown < misses:
            shown += 1
            print(f"  miss: {match.group(1)!r:24} derived {title!r}")
    return len(papers), named, mentioned, hits, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="?", default=str(ROOT.parent / "shared" / "corpora"))
    parser.add_argument("--misses", type=int, default=0, help="print up to N papers whose name was missed")
    args = parser.parse_args()
    rows = []
    for path in sorted(Path(args.corpora).glob("*-papers.jsonl")):
        rows.append((path.name, *measure(path, args.misses)))
    if not rows:
        sys.exit(f"no *-papers.jsonl in {args.corpora}")
    print(f"{'corpus':24} {'papers':>7} {'NAME: titles':>13} {'name in text':>13} {'name in derived':>16}"
          f" {'share':>7} {'of in text':>11} {'µs/abstract':>12}")
    for name, total, named, mentioned, hits, elapsed in rows:
        print(f"{name:24} {total:7d} {named:13d} {mentioned:13d} {hits:16d} {hits / max(named, 1):7.1%}"
              f" {hits / max(mentioned, 1):11.1%} {elapsed / max(named, 1) * 1e6:12.0f}")


if __name__ == "__main__":
    main()
