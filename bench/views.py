"""Views, sorts and counts at scale: what the app does on the UI thread when the view, the sort or
the query's matches change (arrange the rows, count them per view), and per triage key press (a count
update).

    python bench/views.py [--sizes 1000,10000,100000] [--marked 0.1]

Papers are synthetic (`Paper` values, no parsing); a fraction `--marked` of them carry marks.
Each figure is the median of several runs, in milliseconds.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from store.papers.model import Paper, Triage
from store.search.views import SORTS, Tally, arrange


def median_ms(run, repeat: int = 7) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def corpus(n: int, marked: float) -> tuple[list[Paper], dict[str, Triage]]:
    rng = random.Random(7)
    papers = [Paper(id=f"{i:010x}", text=f"abstract {i}", title=f"Paper {i}", position=i) for i in range(n)]
    states = {
        paper.id: Triage(read=rng.random() < 0.5, starred=rng.random() < 0.2, priority=rng.randrange(6), updated=rng.random())
        for paper in rng.sample(papers, int(n * marked))
    }
    return papers, states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--marked", type=float, default=0.1)
    args = parser.parse_args()
    sorts = [sort for sort in SORTS if sort != "score"]
    print(f"{'papers':>8} {'tally':>8} {'change':>8} " + " ".join(f"{'all/' + s:>14}" for s in sorts) + f" {'unread/file':>12} {'ranked/file':>12}")
    for n in (int(size) for size in args.sizes.split(",")):
        papers, states = corpus(n, args.marked)
        tally = Tally(papers, states)
        old, new = Triage(), Triage(starred=True)
        row = [
            median_ms(lambda: Tally(papers, states)),
            median_ms(lambda: tally.change({papers[0].id: (old, new)}), repeat=1001),
            *(median_ms(lambda sort=sort: arrange(papers, states, "all", sort)) for sort in sorts),
            median_ms(lambda: arrange(papers, states, "unread", "file")),
            median_ms(lambda: arrange(papers[::-1], states, "all", "file", ranked=True)),
        ]
        print(f"{n:>8} " + " ".join(f"{value:>{14 if 2 <= i < 2 + len(sorts) else (12 if i >= 2 + len(sorts) else 8)}.3f}" for i, value in enumerate(row)))


if __name__ == "__main__":
    main()
