"""The `triage` command: opens the app, or runs a subcommand without a terminal UI.

Subcommands import only `store`; Textual is imported when the app opens.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from importlib.metadata import version

from store import Collection, Paper, ReadError, read_path

DESCRIPTION = """\
Triage research-paper abstracts from the keyboard: filter, read, mark, star, prioritise.

  triage [FILES...]                 open the app (the bundled ICLR 2024 list when no file is given)
  triage list [FILES...] [--format table|jsonl]
                                    print the papers without opening the app

Exit codes: 0 ok, 1 nothing matched, 2 bad input (the message names the file and line).
"""

SUBCOMMANDS = ("list",)


def default_files() -> list[str]:
    from seeds import DEFAULT

    return [str(DEFAULT)]


def load(files: Sequence[str]) -> Collection:
    return read_path(files[0] if files else default_files()[0])


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILES", help="abstract lists to read (default: the bundled ICLR 2024 list)")
    parser.add_argument("--db", metavar="PATH", help="triage database (default: $TRIAGE_DB, else the platform data folder)")


def app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triage", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('paper-triage')}")
    add_common(parser)
    return parser


def list_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triage list", description="Print the papers of FILES, in file order.")
    add_common(parser)
    parser.add_argument("--format", choices=("table", "jsonl"), default="table", help="output format (default: table)")
    return parser


def paper_row(paper: Paper) -> dict[str, object]:
    return {
        "id": paper.id,
        "title": paper.title,
        "name": paper.name,
        "venue": paper.venue,
        "year": paper.year,
        "links": list(paper.links),
        "source": paper.source,
        "line": paper.line,
        "text": paper.text,
    }


def print_table(papers: Sequence[Paper]) -> None:
    width = shutil.get_terminal_size((100, 24)).columns
    title_width = max(20, width - 12 - 12)
    for paper in papers:
        title = paper.title if len(paper.title) <= title_width else paper.title[: title_width - 1] + "…"
        where = " ".join(str(part) for part in (paper.venue, paper.year) if part)
        print(f"{paper.id}  {title:<{title_width}}  {where}".rstrip())


def run_list(argv: Sequence[str]) -> int:
    args = list_parser().parse_args(argv)
    papers = load(args.files).papers
    if args.format == "jsonl":
        for paper in papers:
            print(json.dumps(paper_row(paper), ensure_ascii=False))
    else:
        print_table(papers)
    return 0 if papers else 1


def run_app(argv: Sequence[str]) -> int:
    args = app_parser().parse_args(argv)
    collection = load(args.files)
    from tui.app import TriageApp

    TriageApp(collection, db_path=args.db).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in SUBCOMMANDS:
            return run_list(argv[1:])
        return run_app(argv)
    except ReadError as exc:
        print(f"triage: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
