"""`triage import`: every paper of files you have (a Zotero or Mendeley export, your own papers, a reading-group
list) marked at once, so that For you knows your interests in the first list you open."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tui.cli.common import Refused, add_db, database, load, parse_args
from tui.cli.mark import changing, mark, utf8_text


def import_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage import",
        description="Mark every paper of FILES: starred (the default), tagged or read. FILES are any lists triage"
        " reads: .bib, .ris, CSL-JSON .json, .jsonl... Every file is read before any paper is marked: one that"
        " cannot be read is named, and nothing is marked.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="lists to import (or directories of them)")
    add_db(parser)
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--star", action="store_true", help="star them (the default)")
    how.add_argument("--tag", metavar="T", help="tag them T")
    how.add_argument("--read", action="store_true", help="mark them read")
    return parser


def run_import(argv: Sequence[str]) -> int:
    """Read every file, then mark all their papers as one write; one line per file: "refs.ris: 37 papers starred"."""
    args = parse_args(import_parser(), argv)
    if args.tag is not None:
        utf8_text("--tag", args.tag)
        if not args.tag.strip():
            raise Refused("--tag needs a tag: nothing was marked")
    db = database(args.db)
    lists = [(name, load([name])) for name in args.files]  # all read first: a file that cannot be read marks nothing
    papers = list({paper.id: paper for _, collection in lists for paper in collection.papers}.values())
    marks = {"read": True} if args.read else {} if args.tag is not None else {"starred": True}
    mark(db, papers, lambda store: [paper.id for paper in papers], changing(marks, [args.tag] if args.tag else []),
         refind=False)  # (no mark of another list's paper moves to an imported paper that looks like it)
    done = "marked read" if args.read else f"tagged {args.tag}" if args.tag is not None else "starred"
    for name, collection in lists:
        count = len(collection.papers)
        print(f"{name}: {count} paper{'s' if count != 1 else ''} {done}")
    sys.stdout.flush()
    return 0
