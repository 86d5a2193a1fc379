"""`triage fetch SOURCE …`: papers from arXiv (its API or its daily feed), OpenReview, a conference's
virtual site or a URL saved as a dated list (store.fetch),
a progress line on a terminal's stderr, the saved file's path on stdout, `--open` to open it."""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from store.common.errors import ReadError
from store.fetch import announced, arxiv, conference, openreview, saved
from store.fetch.client import Client
from store.fetch.source import Progress, Source, fetch
from store.fetch.url import Url
from tui.boundary import write_control
from tui.cli.common import database, ERASE_LINE, OpenApp, parse_args, Refused

TOKEN_LIMIT = 64 << 10


def fetch_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage fetch",
        description="Fetch papers and save them as a dated list in the lists folder beside the database "
        "(only what is new since the last fetch of the same feed): "
        "triage fetch arxiv CAT... [--days N | --since DATE | --new]; triage fetch openreview VENUE_ID; "
        "triage fetch conference iclr|icml|neurips YEAR; triage fetch URL.",
    )
    parser.add_argument("source", metavar="SOURCE", help="arxiv, openreview, conference, or the http(s) address of a list")
    parser.add_argument("args", nargs="*", metavar="ARG", help="arxiv: categories (cs.LG ...); openreview: a venue id; "
                        "conference: a name and a year")
    when = parser.add_mutually_exclusive_group()
    when.add_argument("--days", type=float, metavar="N", help="arxiv: papers submitted in the last N days (default: "
                      "since the last fetch, else 2)")
    when.add_argument("--since", metavar="DATE", help="arxiv: papers submitted since DATE (YYYY-MM-DD)")
    when.add_argument("--new", action="store_true", help="arxiv: the day's announcements (new, cross-listed, "
                      "replaced), from arXiv's RSS feed; else $TRIAGE_ARXIV_FEED")
    parser.add_argument("--token-file", metavar="FILE", help="openreview: a file holding your token (else $OPENREVIEW_TOKEN)")
    parser.add_argument("--endpoint", metavar="URL", help="the source's base address (a mirror); else $TRIAGE_ARXIV_API, "
                        "$TRIAGE_ARXIV_FEED, $TRIAGE_OPENREVIEW_API, $TRIAGE_CONFERENCE_SITE, else the public one")
    parser.add_argument("--into", metavar="DIR", help="the folder to save in (default: lists/ beside the database)")
    parser.add_argument("--db", metavar="PATH", help="triage database (default: $TRIAGE_DB, else the platform data folder)")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds a request may take (default: 60)")
    parser.add_argument("--delay", type=float, metavar="S", help="seconds between requests, for a mirror only "
                        "(--endpoint or the variables): the public sources get what they ask (arXiv 3 s)")
    parser.add_argument("--open", action="store_true", help="open the app on the fetched list")
    return parser


def _token(option: str | None) -> str | None:
    if option is None:
        return os.environ.get("OPENREVIEW_TOKEN") or None
    try:
        text = saved.read(Path(option))[:TOKEN_LIMIT].decode("utf-8", "replace").strip()
    except ReadError as exc:
        raise Refused(f"{exc} (--token-file)") from None
    if not text or len(text.split()) != 1:
        raise Refused(f"{option}: not a token (one word expected) (--token-file)")
    return text


def _since(args: argparse.Namespace) -> str | None:
    if args.days is not None:
        if args.days <= 0:
            raise Refused(f"--days {args.days:g}: give a number of days above 0")
        return arxiv.since_days(args.days)
    if args.since is not None:
        try:
            day = time.strptime(args.since, "%Y-%m-%d")
        except ValueError:
            raise Refused(f"--since {args.since!r}: give a date as YYYY-MM-DD") from None
        return time.strftime("%Y-%m-%dT00:00:00Z", day)
    return None


def source_of(args: argparse.Namespace) -> tuple[Source, float, str]:
    """The source the arguments name, its own delay between requests, and its default endpoint."""
    if args.source != "arxiv" and args.new:
        raise Refused("--new is for arxiv: triage fetch arxiv cs.LG --new")
    if args.source == "arxiv":
        if not args.args:
            raise Refused("give one or more arXiv categories: triage fetch arxiv cs.LG cs.CL")
        if args.new:
            return announced.Announced(args.args, api=announced.endpoint(args.endpoint)), announced.DELAY, announced.FEED
        return arxiv.Arxiv(args.args, api=arxiv.endpoint(args.endpoint)), arxiv.DELAY, arxiv.API
    if args.source == "conference":
        return _conference(args)
    if args.source == "openreview":
        if len(args.args) != 1:
            raise Refused("give one venue id: triage fetch openreview ICLR.cc/2025/Conference")
        venue = openreview.OpenReview(args.args[0], api=openreview.endpoint(args.endpoint), token=_token(args.token_file))
        return venue, openreview.DELAY, openreview.API
    if args.source.startswith(("http://", "https://")):
        if args.args:
            raise Refused("give one address: triage fetch URL")
        return Url(args.source), 1.0, args.source
    raise Refused(f"no source {args.source!r}: arxiv, openreview, conference, or an http(s) address of a list")


def _conference(args: argparse.Namespace) -> tuple[Source, float, str]:
    names = ", ".join(conference.SITES)
    if len(args.args) != 2:
        raise Refused(f"give a conference ({names}) and a year: triage fetch conference iclr 2024")
    name, year = args.args[0].casefold(), args.args[1]
    if name not in conference.SITES:
        raise Refused(f"no conference {args.args[0]!r}: {names}")
    if not (year.isascii() and year.isdigit() and len(year) == 4):
        raise Refused(f"{year!r}: give the year as four digits (2024)")
    site = conference.endpoint(name, args.endpoint)
    return conference.Conference(name, int(year), api=site), conference.DELAY, conference.SITES[name]


def progress_text(state: Progress) -> str:
    """`page 3, 4,000 of 9,100 papers, 310 a second, about 17 s left`."""
    elapsed = max(time.monotonic() - state.started, 1e-6)
    rate = state.records / elapsed
    of = f" of {state.total:,}" if state.total is not None else ""
    left = (f", about {(state.total - state.records) / rate:,.0f} s left"
            if state.total is not None and rate > 0 and state.total > state.records else "")
    return f"page {state.pages}, {state.records:,}{of} papers, {rate:,.0f} a second{left}"


class ProgressLine:
    """`fetching arxiv-cs.LG: page 3, 4,000 of 9,100 papers, 310 a second, about 17 s left` on a terminal's stderr."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.shown = sys.stderr.isatty()

    def __call__(self, state: Progress) -> None:
        if not self.shown:
            return
        write_control(sys.stderr, ERASE_LINE)
        sys.stderr.write(f"fetching {self.name}: {progress_text(state)}"[: self.width() - 1])  # a wrapped line would leave its first part behind
        sys.stderr.flush()

    @staticmethod
    def width() -> int:
        try:
            return os.get_terminal_size(sys.stderr.fileno()).columns
        except (OSError, ValueError):
            return 80

    def close(self) -> None:
        if self.shown:
            write_control(sys.stderr, ERASE_LINE)
            sys.stderr.flush()


def prepared(args: argparse.Namespace, folder: Path | None = None) -> tuple[Source, Client, Path]:
    """The source the arguments name, the client that fetches it (paced as it asks), and the folder to save in
    (`folder`, else --into, else lists/ beside the database)."""
    source, delay, public = source_of(args)
    if args.delay is not None and (args.delay < 0 or getattr(source, "api", public) == public):
        raise Refused("--delay is for a mirror (--endpoint, $TRIAGE_ARXIV_API, $TRIAGE_ARXIV_FEED, $TRIAGE_OPENREVIEW_API, "
                      "$TRIAGE_CONFERENCE_SITE): "
                      "the public sources are paced as they ask")
    if folder is None:
        folder = Path(args.into) if args.into else saved.folder_for(database(args.db))
    return source, Client(delay=delay if args.delay is None else args.delay, timeout=args.timeout), folder


def again(args: argparse.Namespace) -> list[str]:
    """The words of `triage fetch` that fetch the same feed again (its source, endpoint, pacing, token file),
    without what was for this run only (--days, --since, --open): what the app's fetch key runs."""
    words = [args.source, *args.args]
    for option, value in (("--endpoint", args.endpoint), ("--delay", args.delay), ("--timeout", args.timeout),
                          ("--token-file", args.token_file and os.path.abspath(args.token_file))):
        if value is not None:
            words += [option, str(value)]
    return words


def run_fetch(argv: Sequence[str]) -> int:
    args = parse_args(fetch_parser(), argv)
    code, path = fetch_told(args)
    if code == 0 and not args.open:  # (opened, the app marks what arrived: one undo step)
        from tui.cli.rules import mark_fetched

        mark_fetched(database(args.db), path)  # type: ignore[arg-type]
    if args.open and path is not None and code != 2:
        sys.stdout.flush()
        raise OpenApp([str(path), *(["--db", args.db] if args.db else [])])
    return code


def fetch_first(spec: str, db: str | None) -> tuple[int, Path | None]:
    """`triage --fetch SPEC`: the fetch `triage fetch SPEC` runs; its exit code and the list to open (None: none)."""
    try:
        words = shlex.split(spec)
    except ValueError as exc:
        raise Refused(f"--fetch {spec!r}: {exc}") from None
    code, path = fetch_told(parse_args(fetch_parser(), [*words, *(["--db", db] if db else [])]))
    return code, None if code == 2 else path


def fetch_told(args: argparse.Namespace) -> tuple[int, Path | None]:
    """Run the fetch `args` ask for, a progress line on a terminal, what came told on stderr and the list's path
    on stdout: the exit code and the feed's latest list (None when it has none)."""
    source, client, folder = prepared(args)
    line = ProgressLine(source.name)
    try:
        outcome = fetch(source, client, folder, _since(args) if args.source == "arxiv" and not args.new else None, line)
    finally:
        line.close()
    path = outcome.path or saved.latest(folder, source.name, source.suffix)
    if path is not None:
        try:
            saved.remember(folder, source.name, again(args))
        except ReadError:  # (the list is saved: only the app's fetch key will not know this feed)
            pass
    if outcome.fault is not None:
        print(f"triage: {outcome.fault} — {outcome.summary()}", file=sys.stderr)
        return 2, path
    print(f"triage: {outcome.summary()}", file=sys.stderr)
    if path is not None:
        print(path)
    return (0 if outcome.path else 1), path
