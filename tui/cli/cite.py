"""`triage cite` and `triage export`: one paper's citation, and the papers of a list with their marks, written out."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from store.common.errors import ReadError
from tui.citing import citing
from tui.cli.common import (add_common, add_library, add_query, attached, database, load, matching, named, new_in, parse_args,
                            parse_query)


def cite_parser() -> argparse.ArgumentParser:
    from store.cite.citations import FORMATS

    parser = argparse.ArgumentParser(prog="triage cite", description="Print the citation of one paper of FILES.")
    parser.add_argument("id", metavar="ID", help="the paper's id (as `triage list` shows it), a unique prefix of it, or its citation key")
    add_common(parser)
    add_library(parser)
    parser.add_argument("--format", choices=FORMATS, default="bibtex", help="citation format (default: bibtex)")
    parser.add_argument("--abstract", action="store_true", help="include the abstract in BibTeX")
    parser.add_argument("--copy", action="store_true", help="also put it on the clipboard (system clipboard, else OSC 52)")
    return parser


def send_osc52_to_terminal(text: str) -> None:
    from tui.clipboard import osc52

    with open("/dev/tty", "w", encoding="ascii") as tty:
        tty.write(osc52(text))


def run_cite(argv: Sequence[str]) -> int:
    from store.cite import citations as cite

    args = parse_args(cite_parser(), argv)
    collection = load(args.files, db=database(args.db) if args.library else None)
    keys, _ = citing(collection, make_missing=False)  # (one citation: the keys alone, when none are kept)
    paper = named(collection, args.id, keys)
    text = cite.render([paper], args.format, keys, args.abstract)
    sys.stdout.write(text)
    if args.copy:
        from tui.clipboard import ClipboardError, copy

        try:
            how = copy(text, send_osc52_to_terminal)
        except ClipboardError as exc:
            print(f"triage: not copied: {exc}", file=sys.stderr)
            return 2
        print(f"{cite.FORMATS[args.format]} copied ({how})", file=sys.stderr)
    return 0


def export_parser() -> argparse.ArgumentParser:
    from store.cite.export import FORMATS

    parser = argparse.ArgumentParser(
        prog="triage export",
        description="Write the papers of FILES with their marks. Markdown is a reading list grouped by priority, with notes;"
        " RIS and CSL-JSON (.json) are what Zotero, Mendeley, EndNote and Paperpile import.",
    )
    add_common(parser)
    add_library(parser)
    add_query(parser)
    parser.add_argument("--format", choices=FORMATS, help="output format (default: from -o's extension .bib/.ris/.json/.md/.csv/.jsonl, else bibtex)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    parser.add_argument("--abstract", action="store_true", help="include abstracts in BibTeX")
    return parser


def run_export(argv: Sequence[str]) -> int:
    from store.cite import export

    args = parse_args(export_parser(), argv)
    fmt = args.format or export_format(args.output)
    query = parse_query(args.query)
    db = database(args.db)
    collection = load(args.files, db=db if args.library else None)
    # The marks only when a query or the format asks for them (a BibTeX export of 100,000 papers need not read them).
    states, updated = attached(db, collection) if query is not None or fmt in export.MARKED else ({}, frozenset())
    new = new_in(db, collection) if query is not None and query.asks_new else frozenset()
    keys, titles = citing(collection)  # over the whole list, so a key does not depend on the query
    papers = [paper for paper, _ in matching(collection, query, states, new, updated)]
    if not papers:
        print(f"triage: no paper matches {args.query!r}: nothing exported", file=sys.stderr)
        return 1
    titles = titles if query is None else None  # (the titles kept are the whole list's, in its order; a query's are ranked)
    parts = export.parts(papers, fmt, states, keys, args.abstract, titles)  # (written as they are made: never held whole)
    if args.output:
        try:
            export.write(args.output, parts, force=args.force)
        except export.Exists as exc:
            raise ReadError(exc.path, f"{exc.message} (pass --force to overwrite)") from None
        print(f"{len(papers)} papers written to {args.output} ({fmt})", file=sys.stderr)
    else:
        for batch in export.joined(parts):
            sys.stdout.write(batch)
    return 0


def export_format(output: str | None) -> str:
    """The format -o's extension asks for (BibTeX to standard output); an unknown one is refused."""
    from store.cite import export

    if output is None:
        return "bibtex"
    try:
        return export.format_for(output)
    except ReadError as exc:
        raise ReadError(exc.path, f"{exc.message}, or pass --format") from None
