"""`triage sync`, `triage merge`, `triage backup`, `triage restore`: marks shared between databases
(store.sync.folder, store.sync.backup), without the app."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from store.marks.db import TriageStore
from store.papers.model import Triage
from tui.cli.common import database, parse_args, tell

DB_HELP = "triage database (default: $TRIAGE_DB, else the platform data folder)"


def _parser(prog: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--db", metavar="PATH", help=DB_HELP)
    return parser


@contextmanager
def opened(option: str | None) -> Iterator[TriageStore]:
    """The database of --db (or its default), its notices said on stderr, closed after."""
    store = TriageStore(database(option))
    told = tell(store.notices)
    try:
        yield store
    finally:
        store.close()
        tell(store.notices[told:])


def _yes(value: Any) -> str:
    return "yes" if value is True else "no" if value is False else str(value)


def described(before: Triage, after: Triage) -> str:
    """What changed on one paper: `starred: no → yes; priority: 0 → 2; tags: +x -y; note: changed`."""
    parts = [f"{name}: {_yes(getattr(before, name))} → {_yes(getattr(after, name))}"
             for name in ("read", "starred", "priority", "dismissed") if getattr(before, name) != getattr(after, name)]
    tags = [f"+{tag}" for tag in after.tags if tag not in before.tags] + [f"-{tag}" for tag in before.tags if tag not in after.tags]
    if tags:
        parts.append("tags: " + " ".join(tags))
    if before.note != after.note:
        parts.append("note: " + ("both kept" if "──── also kept" in after.note else "changed" if after.note else "cleared"))
    return "; ".join(parts)


def papers(count: int) -> str:
    return f"{count} paper's" if count == 1 else f"{count} papers'"


def print_changes(changed: Mapping[str, tuple[Triage, Triage]], verb: str) -> int:
    """One line per paper whose marks changed (to stdout), then how many (to stderr): how many."""
    shown = 0
    for pid in sorted(changed):
        text = described(*changed[pid])
        if text:
            print(f"{pid}  {text}")
            shown += 1
    print(f"{papers(shown)} marks {verb}", file=sys.stderr)
    return shown


def run_sync(argv: Sequence[str]) -> int:
    from store.sync.folder import SUFFIX, sync

    parser = _parser("triage sync", "Exchange marks with other devices through DIR, a folder you already sync"
                     f" (Syncthing, Dropbox, a git repo, a USB stick): this database writes only its own <device>{SUFFIX}"
                     " there and merges every other one (per field, the later change wins). Exit 2 when a device file"
                     " was skipped (cut short, not a marks file, from a newer version): the others are merged. A device whose clock is far ahead is named; its marks are merged.")
    parser.add_argument("folder", metavar="DIR", help="the shared folder (must exist)")
    args = parse_args(parser, argv)
    with opened(args.db) as store:
        report = sync(store, args.folder)
    for line in report.skipped + report.told:
        print(f"triage: {line}", file=sys.stderr)
    print_changes(report.changed, "changed here")
    files = len(report.read)
    print(f"synced with {args.folder}: {files} device file{'s' if files != 1 else ''} read,"
          f" {'this device file written' if report.wrote else 'this device file unchanged'}", file=sys.stderr)
    return 2 if report.skipped else 0


def run_merge(argv: Sequence[str]) -> int:
    from store.sync.folder import merge_preview, other_database, other_papers

    parser = _parser("triage merge", "Fold the marks of another database file into this one: per field the"
                     " later change wins, tags merge by when each was added or removed, and two notes changed"
                     " apart are both kept. OTHER_DB is only read: a file that is no database (a paper list,"
                     " a backup), or a damaged one, is refused (exit 2) and left as it is.")
    parser.add_argument("other", metavar="OTHER_DB", help="the other database file (a triage.json)")
    parser.add_argument("--dry-run", action="store_true", help="print what would change, paper by paper; write nothing anywhere")
    args = parse_args(parser, argv)
    if args.dry_run:
        changed = merge_preview(database(args.db), args.other)
    else:
        records = other_database(database(args.db), args.other)  # (refused before this database is opened)
        papers = other_papers(args.other)
        with opened(args.db) as store:
            changed = store.fold(records)
            store.keep_records(papers)
    print_changes(changed, "would change" if args.dry_run else "changed")
    return 0


def run_backup(argv: Sequence[str]) -> int:
    from store.sync.backup import backup

    parser = _parser("triage backup", "Write every mark, with when it was made, to FILE (JSON Lines: one paper"
                     " a line with its id, fingerprint and marks), to restore on another machine or version.")
    parser.add_argument("file", metavar="FILE", help="the backup file to write")
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    args = parse_args(parser, argv)
    with opened(args.db) as store:
        count = backup(store, args.file, force=args.force)
    print(f"{papers(count)} marks written to {args.file}", file=sys.stderr)
    return 0


def run_restore(argv: Sequence[str]) -> int:
    from store.sync.backup import restore

    parser = _parser("triage restore", "Put back the marks of a backup FILE (triage backup). A database that"
                     " holds marks is only changed with --merge (the later change of each field wins) or --replace.")
    parser.add_argument("file", metavar="FILE", help="the backup file to read")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--merge", action="store_true", help="merge the backup into the marks held")
    how.add_argument("--replace", action="store_true", help="replace the marks held with the backup's")
    args = parse_args(parser, argv)
    with opened(args.db) as store:
        changed = restore(store, args.file, merge=args.merge, replace=args.replace)
    print_changes(changed, "changed")
    return 0

