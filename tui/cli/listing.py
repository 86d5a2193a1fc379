"""`triage list`: the papers of FILES (those matching a query, in a sort) as a table or JSON Lines."""
from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence

from store.common.json_out import dumps
from store.papers.model import Triage, texts
from store.readers.title_cache import ROWS_FROM, kept_titles, shown_title
from store.search.views import LEARNT_SORTS, SCORE_SORT, SORTS
from tui.cli.common import (add_common, add_library, add_query, attached, database, engine_ahead, load, matched, opened_now, paper_row,
                            parse_args, parse_query, write_lines)
from tui.cli.table import paper_rows, print_list, print_table


def list_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage list",
        description="Print the papers of FILES, in file order, or those matching --query, best first; --sort puts them in another order.",
    )
    add_common(parser)
    add_library(parser)
    add_query(parser)
    parser.add_argument("--saved", metavar="NAME", help="the query of the search saved in the app (M) under NAME; not with --query")
    parser.add_argument("--format", choices=("table", "jsonl"), default="table", help="output format (default: table)")
    parser.add_argument(
        "--sort", choices=[name for name in SORTS if name != SCORE_SORT], metavar="ORDER",
        help="file, priority (1 first), starred (first), recent (recently changed first), interest: For you,"
        " the unmarked papers you are most likely to star first, learned from your marks, or suggested: those"
        " whose mark would teach that most first, title (A to Z), author (the first author's surname, A to Z),"
        " year (newest first), new (the papers first seen since the list was last opened first), track (oral, spotlight, poster) or session (a conference's session time, then board)"
        " (default: best first with --query, else file order)",
    )
    return parser


def run_list(argv: Sequence[str]) -> int:
    args = parse_args(list_parser(), argv)
    db = database(args.db)
    if args.saved is not None:
        from tui.cli.saved import saved_query

        args.query = saved_query(db, args.saved, args.query)
    query = parse_query(args.query)
    ahead = engine_ahead(args.files) if query is not None and not args.library else None
    collection = load(args.files, db=db if args.library else None)
    states, updated = attached(db, collection)  # (the table shows the marks too)
    new, arrived = opened_now(db, collection)
    if arrived:  # (papers the database sees first: the standing rules mark them, and say so on stderr)
        from tui.cli.rules import mark_arrived

        mark_arrived(db, collection, arrived, states, new)
    hits = matched(collection, query, states, new, updated, ahead)
    if args.format != "jsonl" and (not args.sort or (args.sort in LEARNT_SORTS and hits is None)):
        # (a table of rows in file, hit or learnt order: from the list's columns)
        if args.sort:
            from tui.cli.rank import learnt_rows

            rows: Sequence[int] = learnt_rows(collection, states, args.sort, db)
        else:
            rows = range(len(collection.papers)) if hits is None else hits.positions.tolist()
        print_list(collection, rows, states, updated)
        return 0 if rows else 1
    found = [(paper, None) for paper in collection.papers] if hits is None else hits.scored
    gains: Mapping[str, dict[str, object]] = {}
    if args.sort:
        from tui.cli.rank import arranged

        found, gains = arranged(collection, found, states, args.sort, ranked=query is not None, db=db, new=new,
                                buckets=args.format == "jsonl")
    if args.format == "jsonl":
        blank = Triage()
        write_lines(
            dumps({**row, "score": round(score, 4)} if score is not None else row)
            for (paper, score), text in zip(found, texts(paper for paper, _ in found))
            for row in ({**paper_row(paper, states.get(paper.id, blank), text), **gains.get(paper.id, {}),
                         **({"updated": True} if paper.id in updated else {})},)
        )
    else:
        title = kept_titles(collection) if len(found) >= ROWS_FROM else None
        print_table(paper_rows((paper for paper, _ in found), shown_title if title is None else lambda paper: title(paper.position)),
                    states, updated)
    return 0 if found else 1
