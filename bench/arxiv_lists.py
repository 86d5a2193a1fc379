"""The large lists bench/scale.py and bench/engines.py measure, made once into a folder and reused.

    python bench/arxiv_lists.py 100000 1000000 [--into /work/wt/engine34-data]

`arxiv-N.jsonl`: N records in the arXiv metadata snapshot's own JSON Lines form (`id`, `submitter`,
`authors`, `title`, `comments`, `journal-ref`, `doi`, `report-no`, `categories`, `license`,
`abstract`, `versions`, `update_date`, `authors_parsed`), made from the real ICLR/ICML 2024 records
in ../shared/corpora and varied: each record takes the authors of one real paper, a title that is
a real one (a third of them) or the opening words of its abstract, an abstract of 5–12 sentences
drawn from all real abstracts (as make_corpus.py draws them: no two alike), wrapped at 80 columns
and indented as the snapshot's are, a primary arXiv category from the paper's area and up to two
more, a month-ordered id, one to three versions and sometimes a DOI or journal reference.
Deterministic for a size; each list's paper count is kept beside it (`LIST.papers`). `abstracts-N.txt`: make_corpus.py's bare-abstract list of N (open.py's).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from open import corpus, count  # noqa: E402 (bench/open.py beside this file: make_corpus.py's lists, counted)

SHARED = Path(__file__).resolve().parents[2] / "shared"
REAL = [SHARED / "corpora" / f"{name}-2024-papers.jsonl" for name in ("iclr", "icml")]
DATA = Path(__file__).resolve().parents[2] / "engine34-data"
"""Where the lists are kept between runs (outside the repository): /work/wt/engine34-data."""
CATEGORIES = ("cs.LG", "cs.CV", "cs.CL", "cs.AI", "stat.ML", "cs.RO", "cs.CR", "cs.NE", "math.OC", "cs.IR",
              "q-bio.QM", "physics.comp-ph", "eess.SP", "cs.DS", "cs.GT", "cs.SI")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri")


def _real() -> list[dict]:
    return [json.loads(line) for path in REAL for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def _names(record: dict) -> list[str]:
    authors = record.get("authors") or "[]"
    try:
        names = ast.literal_eval(authors) if isinstance(authors, str) else authors
    except (ValueError, SyntaxError):
        names = [authors]
    return [str(n) for n in names if str(n).strip()] or ["Anonymous"]


def _parsed(name: str) -> list[str]:
    parts = name.split()
    return [parts[-1], " ".join(parts[:-1]), ""]


def _wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` characters, broken at spaces (textwrap's work at 1/40 of its cost: the
    1M list is made in minutes)."""
    return re.findall(rf"(\S.{{0,{width - 1}}}|\S+)(?:\s+|$)", text)  # (a longer word: a line of its own)


def _date(rng: random.Random, year: int, month: int) -> str:
    return (f"{rng.choice(DAYS)}, {rng.randint(1, 28)} {MONTHS[month - 1]} {year} "
            f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} GMT")


def record(number: int, size: int, real: list[dict], pool: list[str], rng: random.Random) -> dict:
    """The `number`th of `size` snapshot records (ids in month order over 2007–2025)."""
    paper = rng.choice(real)
    names = _names(paper)
    text = " ".join(rng.choice(pool) for _ in range(rng.randint(5, 12)))
    title = paper["title"] if rng.random() < 1 / 3 else " ".join(text.split()[:rng.randint(5, 12)]).rstrip(".,;:")
    months = (number * 19 * 12) // size
    year, month = 2007 + months // 12, months % 12 + 1
    area = sum(map(ord, paper.get("primary_area") or paper["title"])) % len(CATEGORIES)
    categories = [CATEGORIES[area], *rng.sample(CATEGORIES, rng.randint(0, 2))]
    versions = [{"version": f"v{v + 1}", "created": _date(rng, year, month)} for v in range(rng.choice((1, 1, 1, 2, 3)))]
    return {
        "id": f"{year % 100:02d}{month:02d}.{number % 100_000:05d}",
        "submitter": names[0],
        "authors": ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1],
        "title": "\n  ".join(_wrapped(title, 70)),
        "comments": f"{rng.randint(6, 40)} pages, {rng.randint(1, 12)} figures" if rng.random() < 0.6 else None,
        "journal-ref": f"{paper['venue'].split(' ')[0]} {year}" if rng.random() < 0.15 and paper.get("venue") else None,
        "doi": f"10.{rng.randint(1000, 9999)}/{rng.randint(10**6, 10**7)}" if rng.random() < 0.2 else None,
        "report-no": None,
        "categories": " ".join(dict.fromkeys(categories)),
        "license": "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
        "abstract": "  " + "\n".join(_wrapped(text, 80)) + "\n",
        "versions": versions,
        "update_date": f"{year}-{month:02d}-{rng.randint(1, 28):02d}",
        "authors_parsed": [_parsed(n) for n in names],
    }


def arxiv_list(size: int, folder: Path) -> Path:
    """`folder`/arxiv-`size`.jsonl, made if it is not there yet."""
    path = folder / f"arxiv-{size}.jsonl"
    if path.exists():
        return path
    real = _real()
    pool = [s for paper in real for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", paper.get("abstract", "")) if len(s) > 30]
    rng = random.Random(size)
    partial = path.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as out:
        for number in range(size):
            out.write(json.dumps(record(number, size, real, pool, rng), ensure_ascii=False) + "\n")
    partial.rename(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="+", type=int)
    parser.add_argument("--into", default=str(DATA))
    args = parser.parse_args()
    folder = Path(args.into)
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["TRIAGE_CACHE"] = str(folder / "quick-cache")  # (counting parses: never in the user's cache)
    for size in args.sizes:
        path = arxiv_list(size, folder)
        print(path, count(path, folder), flush=True)
        print(*corpus(str(size), folder), flush=True)


if __name__ == "__main__":
    main()
