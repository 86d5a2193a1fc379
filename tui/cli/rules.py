"""`triage rules`: the standing rules (store.marks.rules) without the app — list them, add one, remove one, and
preview which papers of FILES one matches; and `mark_arrived`, the rules applied where the command line sees
papers first (`triage list`, `triage fetch`)."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Collection as Ids, Sequence
from dataclasses import replace
from pathlib import Path

from store.marks import rules
from store.marks.changes import Change
from store.marks.clock import now
from store.marks.rules import Rule, Rules
from store.papers.inert import inert
from store.papers.model import Collection, Triage
from tui.cli.common import (add_db, database, default_files, engine_of, in_store, load, matching, parse_args, parse_query, Refused,
                            stored_states, write_lines)
from tui.cli.table import paper_rows, print_table


def rules_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage rules",
        description="Standing rules: a query whose matches are marked not for me (or starred, or tagged) as they "
        "arrive, that is when the database first sees them (a list opened, F, R). A rule never touches a paper "
        "that has any mark. triage rules [list]; triage rules add QUERY [--dismiss | --star | --tag T]; "
        "triage rules remove N; triage rules preview N [FILES].",
    )
    parser.add_argument("command", nargs="?", default="list", choices=("list", "add", "remove", "preview"),
                        help="list (the default), add, remove, preview")
    parser.add_argument("args", nargs="*", metavar="ARG", help="add: the query; remove: the rule's number; "
                        "preview: the rule's number, then the lists to look in (default: the bundled list)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--dismiss", dest="action", action="store_const", const="dismiss",
                        help="add: mark the matches not for me (the default)")
    action.add_argument("--star", dest="action", action="store_const", const="star", help="add: star the matches")
    action.add_argument("--tag", metavar="T", help="add: tag the matches T")
    add_db(parser)
    return parser


def listed(found: Rules) -> list[str]:
    """`  1  dismiss      kw:federated`, a line a rule."""
    return [f"{number:>3}  {rule.does:<12} {rule.query}" for number, rule in enumerate(found, 1)]


def _number(args: list[str], found: Rules, usage: str) -> Rule:
    if not args:
        raise Refused(f"give the rule's number: triage rules {usage} N (triage rules lists them)")
    text = args[0]
    rule = found.numbered(int(text)) if text.isascii() and text.isdigit() else None
    if rule is None:
        have = f"1 to {len(found)}" if len(found) > 1 else "1" if found else "none: triage rules add QUERY adds one"
        raise Refused(f"no rule {inert(repr(text))} (the rules are {have})")
    return rule


def run_rules(argv: Sequence[str]) -> int:
    args = parse_args(rules_parser(), argv)
    db = database(args.db)
    found = in_store(db, rules.load)
    for notice in found.notices:
        print(f"triage: {notice}", file=sys.stderr)
    if args.command != "add" and (args.action or args.tag is not None):
        raise Refused("--dismiss, --star and --tag are for triage rules add")
    if args.command == "list":
        if args.args:
            raise Refused("triage rules list takes no arguments")
        write_lines(listed(found))
        return 0 if found else 1
    if args.command == "add":
        return _add(db, args)
    rule = _number(args.args, found, args.command)
    if args.command == "remove":
        if args.args[1:]:
            raise Refused("triage rules remove takes one number")
        in_store(db, lambda store: rules.apply(store, rules.removing(rule)))
        print(f"triage: removed rule {args.args[0]}: {rule.does} {rule.query}", file=sys.stderr)
        return 0
    return _preview(db, rule, args.args[1:])


def _add(db: Path, args: argparse.Namespace) -> int:
    if len(args.args) != 1:
        raise Refused("give one query (quoted): triage rules add 'kw:federated' [--dismiss | --star | --tag T]")
    query = args.args[0]
    parse_query(query)  # (a query with a part not understood is refused, naming it)
    rule = Rule(query.strip(), "tag" if args.tag is not None else args.action or "dismiss", args.tag or "")
    wrong = rules.problem(rule.query, rule.action, rule.tag)
    if wrong:
        raise Refused(f"rule {inert(repr(query[:60]))}: {wrong}")
    try:
        now = in_store(db, lambda store: rules.apply(store, rules.adding(rule)))
    except ValueError as exc:
        raise Refused(f"rule {inert(repr(query[:60]))}: {exc}") from None
    number = now.rules.index(rule) + 1 if rule in now.rules else len(now)
    print(f"triage: rule {number}: {rule.does} {rule.query} (papers that arrive from now on)", file=sys.stderr)
    return 0


def _preview(db: Path, rule: Rule, files: list[str]) -> int:
    """The papers of `files` the rule matches, as `triage list` prints them; how many it would mark (those without
    a mark) on stderr. Nothing is marked, and the lists are not opened (what is new in them stays new)."""
    collection = load(files or default_files())
    states = stored_states(db, collection)
    found = [paper for paper, _ in matching(collection, parse_query(rule.query), states)]
    print_table(paper_rows(found), states)
    free = sum(rules.untouched(states.get(paper.id)) for paper in found)
    print(f"triage: {len(found):,} papers match {rule.query}; {free:,} have no mark (the rule would {rule.does} such "
          "papers as they arrive)", file=sys.stderr)
    return 0 if found else 1


def mark_arrived(db: Path, collection: Collection, arrived: Ids[str], states: dict[str, Triage],
                 new: Ids[str] = ()) -> None:
    """The rules applied to the papers of `collection` that `arrived` (first seen by the database), whose marks are
    `states` (updated with the rules' marks, which are stored); what they did said on stderr. A paper with a
    mark is left alone (and one marked in between by another process keeps its marks: the change is guarded)."""
    found = in_store(db, rules.load) if arrived else Rules()
    if not found:
        return
    index = engine_of(collection)
    done = rules.applied(found, arrived, states, lambda query: index.search(query, states, new).ids)
    if not done:
        return
    stamp = now()
    changes = {pid: replace(Change.between(Triage(), state, stamp), guarded=True) for pid, state in done.states.items()}
    states.update(in_store(db, lambda store: store.apply(changes)))
    print(f"triage: {done.summary()} (triage rules lists the rules)", file=sys.stderr)


def mark_fetched(db: Path, path: Path) -> None:
    """The rules applied to the papers of a list `triage fetch` just saved that the database never saw."""
    if not in_store(db, rules.load):
        return
    collection = load([str(path)], report_skipped=False)
    arrived = in_store(db, lambda store: store.unseen(collection.papers))
    mark_arrived(db, collection, arrived, stored_states(db, collection) if arrived else {})
