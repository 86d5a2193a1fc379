"""`triage library`: what the database keeps of the papers you marked (`store.library`), and `--refresh FILES`,
which keeps at once the records of every marked paper of FILES (a database from before records were kept
fills them in so, rather than as its papers are seen)."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.common import add_db, database, in_store, load, parse_args

if TYPE_CHECKING:
    from store.marks.db import TriageStore
    from store.papers.model import Triage


def library_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage library",
        description="Say how many marked papers the database keeps the records of (what `triage --library` and"
        " `triage list --library` show); --refresh FILES keeps the record of each marked paper of FILES now (one"
        " that says more than the record kept replaces it).",
    )
    parser.add_argument("files", nargs="*", metavar="FILES", help="with --refresh: the lists whose marked papers to keep")
    parser.add_argument("--refresh", action="store_true", help="keep the records of the marked papers of FILES")
    add_db(parser)
    return parser


def run_library(argv: Sequence[str]) -> int:
    args = parse_args(library_parser(), argv)
    if args.refresh and not args.files:
        print("triage: library --refresh: name the FILES whose marked papers to keep", file=sys.stderr)
        return 2
    db = database(args.db)
    papers = load(args.files).papers if args.refresh else []

    def refreshed(store: TriageStore) -> tuple[dict[str, int], dict[str, Triage], dict[str, int], int, int, Path]:
        before = store.kept()
        marked = store.attach(papers, refresh=True) if papers else {}
        return before, marked, store.kept(), len(store.ids()), len(store.records()), store.papers_file

    before, marked, after, count, kept, papers_file = in_store(db, refreshed)
    if args.refresh:
        changed = sum(1 for pid in marked if after.get(pid) != before.get(pid))
        print(f"{len(marked)} marked papers in {', '.join(args.files)}: {changed} records kept or made richer", file=sys.stderr)
    print(f"{kept} of {count} marked papers have their records kept ({papers_file})", file=sys.stderr)
    return 0
