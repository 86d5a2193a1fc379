"""The command line of "what to read next": `triage similar ID` and the orders of `triage list --sort`.

Owns how these commands use store.search.views' sorts and store.interest.ranking's interest model. store.interest.ranking
(and through it numpy, scikit-learn and scipy) is imported inside the functions that rank, so
`triage list` in any other order pays nothing for it.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence, Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING

from store.papers.model import Collection, Paper, Triage, texts
from store.papers.rows import ById
from store.common.json_out import dumps
from tui.cli.common import (add_common, add_library, database, in_store, keys_naming, load, named, paper_row, parse_args, stored_states)
from tui.cli.table import paper_rows, print_table

if TYPE_CHECKING:
    from store.interest.ranking import Ranking
    from tui.for_you import Interest

Found = list[tuple[Paper, float | None]]
"""Papers with their match scores (None without a query), in the order they are printed."""


def similar_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage similar",
        description="Print the papers of FILES most like paper ID, best first (more like this): those sharing"
        " the most telling words with it.",
    )
    parser.add_argument("id", metavar="ID", help="the paper's id (as `triage list` shows it), a unique prefix of it, or its citation key")
    add_common(parser)
    add_library(parser)
    parser.add_argument("-n", type=at_least_one, default=10, metavar="K", help="how many papers (default: 10)")
    parser.add_argument("--format", choices=("table", "jsonl"), default="table",
                        help="output format (default: table); jsonl rows are those of `triage list` and `similarity`")
    return parser


def at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a number of papers: {text!r}")
    return int(text)


def run_similar(argv: Sequence[str]) -> int:
    """Print the papers most like one paper, best first, never the paper itself: by the features For you and the app's
    more like this use (one cache entry serves the three; the library's papers of other lists, projected into the
    list's space for For you, have no say in which of the list's papers are alike, so they are not read here)."""
    args = parse_args(similar_parser(), argv)
    db = database(args.db)
    collection = load(args.files, db=db if args.library else None)
    paper = named(collection, args.id, keys_naming(collection.papers, args.id))
    from store.interest.features_cache import features as features_of

    features = features_of(collection)[0]  # (a long list's from the cache)
    ids = features.similar(paper.id, args.n)
    if not ids:
        print(f"triage: {', '.join(collection.sources)} has no other paper", file=sys.stderr)
        return 1
    by_id, first = ById.of(collection), {}
    for row in by_id.rows(set(ids)):  # (one look through its ids column: no look-up of them all made for the few shown)
        first.setdefault(by_id.ids[row], row)
    shown = [collection.papers[first[pid]] for pid in ids]
    states = stored_states(db, collection)
    if args.format == "table":
        print_table(paper_rows(shown), states)
        return 0
    rows = features.rows_of([paper.id, *ids])  # (a look through the ids: no dict of them all for the few shown)
    closeness = features.closeness(rows[paper.id], [rows[pid] for pid in ids])
    for paper, text, similarity in zip(shown, texts(shown), closeness):
        row = paper_row(paper, states.get(paper.id, Triage()), text)
        print(dumps({**row, "similarity": round(float(similarity), 4)}))
    return 0


def arranged(collection: Collection, found: Found, states: Mapping[str, Triage], sort: str, ranked: bool, db: Path,
             new: AbstractSet[str] = frozenset(), buckets: bool = False) -> tuple[Found, dict[str, dict[str, object]]]:
    """`found` in `sort` order (store.search.views' sorts; `ranked`: `found` is a query's hits, best first, else
    every paper of `collection` in file order: `matching`), and with `buckets`, the fields each printed row gains: the
    For-you `bucket` with a sort learnt from the marks (interest, suggested); `new`: the papers the new sort puts first."""
    from store.search.views import INTEREST_SORT, LEARNT_SORTS, arrange

    interest: Mapping[str, int] | None = None
    gains: dict[str, dict[str, object]] = {}
    if sort in LEARNT_SORTS:
        ranking = for_you(collection, states, db)
        if buckets:  # A bucket is a guess about a paper not marked yet: a marked one has none (as in the app).
            unmarked = [paper.id for paper, _ in found if paper.id not in states]
            labels = [bucket.label for bucket in ranking.buckets(unmarked)] if ranking is not None else ["unsure"] * len(unmarked)
            gains = {paper.id: {"bucket": None} for paper, _ in found if paper.id in states}
            gains.update((pid, {"bucket": label}) for pid, label in zip(unmarked, labels))
        if ranking is not None and not ranked:  # the whole list, in the learnt order at hand
            return [found[row] for row in ranking.rows(suggested=sort != INTEREST_SORT)], gains
        if ranking is not None:
            interest = ranking.places if sort == INTEREST_SORT else ranking.suggested_places
    score = {paper.id: value for paper, value in found}
    papers = arrange([paper for paper, _ in found], states, "all", sort, ranked, interest, new)
    return [(paper, score[paper.id]) for paper in papers], gains


def learnt_rows(collection: Collection, states: Mapping[str, Triage], sort: str, db: Path) -> Sequence[int]:
    """The rows of every paper of `collection` in the learnt order `sort` (interest, suggested: `arranged`'s order of the
    whole list), no paper made for them (at 1,000,000 papers, making them all took ~1.4 s and printing their rows from
    them ~2 s more); in file order, having said so on stderr (`for_you`), while there are too few marks to learn from."""
    from store.search.views import INTEREST_SORT

    ranking = for_you(collection, states, db)
    return range(len(collection.papers)) if ranking is None else ranking.rows(suggested=sort != INTEREST_SORT)


def for_you(collection: Collection, states: Mapping[str, Triage], db: Path) -> Ranking | None:
    """The For-you ranking of the marks in `states` and of the library's papers of other lists (`db`'s); None,
    having said on stderr how many stars it takes, while there are too few to rank (then no features are
    built: that is the slow part)."""
    from store.interest.ranking import TOO_FEW, labels

    ranking = interest(collection, db).rank(states)
    if ranking is None:
        print(f"triage: {TOO_FEW} ({len(labels(states)[0])} starred)", file=sys.stderr)
    return ranking


def interest(collection: Collection, db: Path) -> Interest:
    """The interest model of `collection` learnt with the library's papers of other lists (`db`'s), as the app's."""
    from tui.for_you import Interest, outside

    return Interest(collection, lambda: in_store(db, lambda store: outside(store, collection.papers)))
