"""`triage set`: marks on one paper, or on every paper whose id is piped in, without the app; `mark` is the path
`triage import` marks through too."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from store.papers.boundary import inert_state
from store.common.errors import ReadError
from store.papers.inert import inert
from store.common.json_out import dumps
from store.papers.model import Paper, Triage
from store.marks.clock import now
from store.readers import read_path
from store.readers.ids import Known, ids, papers_named
from store.readers.title_cache import shown_title
from store.search.query import clipped
from tui.cli.common import (add_common, database, default_files, in_store, load, parse_args, Refused,
                            tell_skipped)
from tui.cli.table import marks_column

if TYPE_CHECKING:
    from store.marks.db import TriageStore


def set_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage set",
        description="Mark papers without the app. Priority: 0 none, 1 highest … 5 lowest. A paper must be"
        " in FILES (the bundled list when none is given) or already have marks: pass the file it is in.",
    )
    parser.add_argument(
        "id", metavar="ID", help="the paper's id (as `triage list` shows it) or a unique prefix of it; - reads ids"
        " from standard input, one a line, as `triage list` prints them (table or jsonl): triage list -q Q | triage set - --star",
    )
    add_common(parser)
    for name, on, off, on_help, off_help in (
        ("read", "--read", "--unread", "mark read", "mark unread"),
        ("starred", "--star", "--unstar", "star", "remove the star"),
        ("dismissed", "--dismiss", "--undismiss", "mark not for me (the Unread view leaves it out)", "take off not for me"),
    ):
        pair = parser.add_mutually_exclusive_group()
        pair.add_argument(on, dest=name, action="store_const", const=True, help=on_help)
        pair.add_argument(off, dest=name, action="store_const", const=False, help=off_help)
    parser.add_argument("--priority", type=int, choices=range(6), metavar="N", help="0 none, 1 highest … 5 lowest")
    parser.add_argument("--note", metavar="TEXT", help="replace the note ('' clears it)")
    parser.add_argument("--tag", action="append", default=[], metavar="T", help="add a tag (repeatable)")
    parser.add_argument("--untag", action="append", default=[], metavar="T", help="remove a tag (repeatable)")
    parser.add_argument("--format", choices=("line", "jsonl"), default="line",
                        help="what is printed for each paper marked: a line with its marks and title (default), or its marks as JSON")
    return parser


def confirmation(paper: Paper | Known | None, pid: str, state: Triage) -> str:
    """What `triage set` says of a paper it marked: its id, its marks as `triage list` shows them, its title (when a
    list holds it) and its marks in words: `7d72a49aaf  •★2  Nearly d-Linear…  (unread, starred, priority 2, tags: nlp)`."""
    words = ["not for me" if state.dismissed else "read" if state.read else "unread"]
    words += ["starred"] * state.starred + [f"priority {state.priority}"] * bool(state.priority)
    words += [f"tags: {', '.join(state.tags)}"] * bool(state.tags) + [f"note: {state.note}"] * bool(state.note)
    told = f"  ({' '.join('; '.join(words).split())})"  # (one line: a note's line breaks, U+2028 too, as spaces)
    room = shutil.get_terminal_size((100, 24)).columns - len(pid) - 7 - len(told)
    shown = f"  {clipped(shown_title(paper), max(20, room))}" if paper is not None and paper.title else ""
    return f"{pid}  {marks_column(state)}{shown}{told}"


STDIN = "standard input"


def stdin_ids() -> list[str]:
    """The ids piped to `triage set -`, one a line as `triage list` prints them: a table row's first
    column, a jsonl row's `id`. Blank lines are skipped; a repeated id counts once."""
    ids = []
    for number, line in enumerate(sys.stdin.buffer.read().decode("utf-8", "replace").splitlines(), 1):
        text = line.strip()
        if not text.startswith("{"):
            ids += text.split()[:1]
            continue
        try:
            value = json.loads(text).get("id")
        except (ValueError, AttributeError, RecursionError):
            raise ReadError(STDIN, "not a JSON row of `triage list --format jsonl`", number) from None
        if not isinstance(value, str) or not value:
            raise ReadError(STDIN, "a JSON row without an id", number)
        ids.append(value)
    return list(dict.fromkeys(ids))


def resolve_ids(wanted: Sequence[str], known: Sequence[str], where: str, usage: str) -> list[str]:
    """The paper id each of `wanted` (an id or a unique prefix of one) names, each once; Refused naming
    the first few that name no paper, or one that names several."""
    exact = set(known)
    found, unknown = [], []
    for text in wanted:
        matches = [text] if text in exact else [pid for pid in known if pid.startswith(text)] if text else []
        if len(matches) > 1:
            raise Refused(f"id prefix {inert(repr(text))} matches {len(matches)} papers: {', '.join(matches[:5])}")
        (found if matches else unknown).append(matches[0] if matches else text)
    if unknown:
        named = ", ".join(inert(repr(text)) for text in unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        raise Refused(
            f"no paper with id{'s' if len(unknown) > 1 else ''} {named} in {where} or the database;"
            f" pass the file{'s they are' if len(unknown) > 1 else ' it is'} in: triage set {usage} FILE...",
        )
    return list(dict.fromkeys(found))


def utf8_text(option: str, value: str) -> None:
    """Refused when `option`'s value came as bytes that are not UTF-8 (a terminal in another encoding):
    Python keeps those as lone surrogates, which the database cannot store, and a guess could garble it."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raw = os.fsencode(value)
        shown = repr(raw[:40]) + ("…" if len(raw) > 40 else "")
        raise Refused(f"{option} is not UTF-8 text ({shown}); nothing was changed (is the terminal set to UTF-8?)") from None


def listed(files: Sequence[str]) -> tuple[Sequence[Paper | Known], list[str]]:
    """The papers of FILES as the triage store needs them (id and text, or fingerprint), and the
    sources: of cached lists from their ids entries (a 100,000-paper list is not loaded to mark one
    paper), else read (`load`)."""
    found = ids(files or default_files())
    if found is None:
        collection = load(files)
        return collection.papers, collection.sources
    tell_skipped(found.warnings)
    return found.papers, found.sources


def attach_whole(store: TriageStore, pids: Sequence[str], papers: Sequence[Paper | Known], files: Sequence[str]) -> None:
    """Have the database know the papers about to be marked whose records it keeps none of, as papers: when the
    list's papers came as ids from its cache (`listed`), those papers are read now from the list's parse entry,
    only then (a paper's first mark; the list read whole when its parse is not cached), so that the paper's record
    is kept and a paper that is a marked one under another id shares its marks (`TriageStore.attach`)."""
    if all(isinstance(paper, Paper) for paper in papers):
        return  # (`store.update_many` kept them)
    kept = store.kept()
    missing = {pid for pid in pids if pid not in kept}
    if missing:
        found = papers_named(files or default_files(), missing, read_path)
        if found is None:  # (its warnings were told: `listed`)
            found = [paper for paper in load(files, report_skipped=False).papers if paper.id in missing]
        store.attach(found, refind=False)


def changing(marks: Mapping[str, object], tags: Sequence[str] = (), untag: Sequence[str] = ()) -> Callable[[Triage], Triage]:
    """The change `triage set` and `triage import` make to a paper's marks: `marks` (field → value) given, `tags`
    added and `untag` taken off, stamped now."""
    stamp = now()

    def change(state: Triage) -> Triage:
        kept = tuple(t for t in dict.fromkeys([*state.tags, *tags]) if t not in untag)
        # A note or tag given here enters as one from a file does: inert (see store.papers.boundary).
        return inert_state(replace(state, **marks, tags=kept, updated=stamp))

    return change


def mark(db: Path, papers: Sequence[Paper | Known], pick: Callable[[TriageStore], list[str]],
         change: Callable[[Triage], Triage], refind: bool = True, files: Sequence[str] = ()) -> dict[str, Triage]:
    """`change` made to the marks of the papers `pick` chooses (given the database, `papers` attached: see
    `TriageStore.attach` for `refind`), as one locked read-modify-write and one durable write; the new marks.
    What the database has to say (a database moved aside…) goes to stderr."""

    def marked(store: TriageStore) -> dict[str, Triage]:
        store.attach(papers, refind=refind)
        pids = pick(store)
        attach_whole(store, pids, papers, files)
        return store.update_many(pids, change)

    return in_store(db, marked)


def run_set(argv: Sequence[str]) -> int:
    """Change the marks of one paper, or of each paper whose id is piped in (`-`), as one locked
    read-modify-write and one durable write; print each paper's marks in a line (`confirmation`), or as JSON."""
    args = parse_args(set_parser(), argv)
    for option, values in (("--note", [args.note or ""]), ("--tag", args.tag), ("--untag", args.untag)):
        for value in values:
            utf8_text(option, value)
    db = database(args.db)
    wanted = stdin_ids() if args.id == "-" else [args.id]
    if not wanted:
        print(f"triage: no ids on {STDIN}", file=sys.stderr)
        return 1
    papers, sources = listed(args.files)

    def pick(store: TriageStore) -> list[str]:
        known = [paper.id for paper in papers]
        in_lists = set(known)
        if not all(text in in_lists for text in wanted):  # a prefix, or a paper these lists lack (marked elsewhere)
            known = list(dict.fromkeys([*known, *store.ids()]))  # (only then: a database may hold many marks)
        return resolve_ids(wanted, known, ", ".join(sources), "-" if args.id == "-" else "ID")

    given = {"read": args.read, "starred": args.starred, "dismissed": args.dismissed, "priority": args.priority, "note": args.note}
    marks = {name: value for name, value in given.items() if value is not None}
    states = mark(db, papers, pick, changing(marks, args.tag, args.untag), files=args.files)
    by_id = {paper.id: paper for paper in papers} if args.format == "line" else {}
    for pid, state in states.items():
        print(dumps({"id": pid, **state.marks()}) if args.format == "jsonl" else confirmation(by_id.get(pid), pid, state))
    return 0
