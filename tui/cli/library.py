"""`triage library`: what the database keeps of the papers you marked (`store.library`), and `--refresh FILES`,
which keeps at once the records of every marked paper of FILES (a database from before records were kept
fills them in so, rather than as its papers are seen)."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tui.cli.common import database, load, parse_args, tell


def library_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage library",
        description="Say how many marked papers the database keeps the records of (what `triage --library` and"
        " `triage list --library` show); --refresh FILES keeps the record of each marked paper of FILES now (one"
        " that says more than the record kept replaces it).",
    )
    parser.add_argument("files", nargs="*", metavar="FILES", help="with --refresh: the lists whose marked papers to keep")
    parser.add_argument("--refresh", action="store_true", help="keep the records of the marked papers of FILES")
    parser.add_argument("--db", metavar="PATH", help="triage database (default: $TRIAGE_DB, else the platform data folder)")
    return parser


def run_library(argv: Sequence[str]) -> int:
    from store.marks.db import TriageStore

    args = parse_args(library_parser(), argv)
    if args.refresh and not args.files:
        print("triage: library --refresh: name the FILES whose marked papers to keep", file=sys.stderr)
        return 2
    db = database(args.db)
    papers = load(args.files).papers if args.refresh else []
    store = TriageStore(db)
    told = tell(store.notices)
    try:
        before = store.kept()
        marked = store.attach(papers, refresh=True) if papers else {}
        after = store.kept()
        count, kept = len(store.ids()), len(store.records())
    finally:
        store.close()
        tell(store.notices[told:])
    if args.refresh:
        changed = sum(1 for pid in marked if after.get(pid) != before.get(pid))
        print(f"{len(marked)} marked papers in {', '.join(args.files)}: {changed} records kept or made richer", file=sys.stderr)
    print(f"{kept} of {count} marked papers have their records kept ({store.papers_file})", file=sys.stderr)
    return 0
