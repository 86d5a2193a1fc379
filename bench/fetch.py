"""Fetching (store.fetch): the CPU a fetch spends per 10,000 records received, read page by page and
saved as one dated file, and the memory its process reaches at 30,000 records; then the CPU the
readers spend reading the saved file.

    python bench/fetch.py [--records 10000 30000] [--corpus ../shared/corpora/iclr-2024-papers.jsonl]

The sources are served on loopback (tests/loopback.py: the arXiv API's Atom pages of 2,000 entries,
OpenReview API v2's pages of 1,000 notes, a conference virtual site's program with its abstracts
sidecar, arXiv's announcement feed as one RSS answer), built from the corpus' records repeated with new titles.
Each fetch runs in a fresh process (`triage fetch` through store.fetch, no pacing: a mirror), whose
user+system CPU and peak RSS are read from the kernel (getrusage of the children). The wall time of
a real fetch is the sources' pacing (arXiv: 3 s a page), not measured here.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.loopback import (arxiv_api, arxiv_rss, conference_events, conference_site, corpus_records,  # noqa: E402
                            openreview_api, openreview_notes, serving, stamped)

FETCH = """
import sys
from pathlib import Path
from store.fetch.announced import Announced
from store.fetch.arxiv import Arxiv
from store.fetch.client import Client
from store.fetch.conference import Conference
from store.fetch.openreview import OpenReview
from store.fetch.source import fetch
kind, url, folder = sys.argv[1:]
source = {"arxiv": lambda: Arxiv(["cs.LG"], api=url), "openreview": lambda: OpenReview("V/2024/Conference", api=url),
          "conference": lambda: Conference("iclr", 2024, api=url), "arxiv-new": lambda: Announced(["cs.LG"], api=url + "/rss/"),
          }[kind]()
outcome = fetch(source, Client(delay=0, timeout=120), Path(folder))
assert outcome.fault is None, outcome.fault
print(outcome.path)
"""
READ = "import sys; from store.readers import read_path; print(len(read_path(sys.argv[1]).papers))"


USAGE = """
import resource
used = resource.getrusage(resource.RUSAGE_SELF)
print(used.ru_utime + used.ru_stime, used.ru_maxrss / 1024)
"""


def child(code: str, *args: str) -> tuple[str, float, float]:
    """What a fresh Python printed running `code`, the CPU seconds it spent after its imports and its peak RSS in MB."""
    done = subprocess.run([sys.executable, "-c", code + USAGE, *args], capture_output=True, text=True, check=True, cwd=ROOT)
    *out, usage = done.stdout.strip().split("\n")
    cpu, rss = map(float, usage.split())
    return "\n".join(out), cpu, rss


def records(corpus: Path, n: int) -> list[dict]:
    base = corpus_records(corpus)
    return [{**r, "title": f"{r['title']} ({i})", "abstract": f"{r['abstract']} (Variant {i}.)"}
            for i, r in ((i, base[i % len(base)]) for i in range(n))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, nargs="+", default=[10_000, 30_000])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpora" / "iclr-2024-papers.jsonl")
    args = parser.parse_args()
    print(f"{'source':<11} {'records':>8} {'MB saved':>9} {'fetch CPU s':>12} {'CPU s/10k':>10} {'peak RSS MB':>12}"
          f" {'read CPU s':>11}")
    for n in args.records:
        made = records(args.corpus.parent, n) if args.corpus.name == "iclr-2024-papers.jsonl" else []
        made = made or [json.loads(line) for line in args.corpus.read_text().split("\n") if line]
        routes = {"/api/query": arxiv_api(stamped(made)), "/notes": openreview_api(openreview_notes(made, "V/2024/Conference")),
                  "/rss/cs.LG": arxiv_rss(stamped(made)), **conference_site(*conference_events(made))}
        with serving(routes) as server, tempfile.TemporaryDirectory() as folder:
            for kind, url in (("arxiv", server.url + "/api/query"), ("openreview", server.url), ("conference", server.url),
                              ("arxiv-new", server.url)):
                path, cpu, rss = child(FETCH, kind, url, folder)
                count, read_cpu, _ = child(READ, path)
                assert int(count) == n, (count, n)
                size = Path(path).stat().st_size / 1e6
                print(f"{kind:<11} {n:>8,} {size:>9.1f} {cpu:>12.2f} {cpu / n * 10_000:>10.2f} {rss:>12.0f} {read_cpu:>11.2f}")


if __name__ == "__main__":
    main()
