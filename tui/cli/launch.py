"""`triage [FILES...]`: the app opened on FILES (Textual is imported only here, when it opens)."""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path

from tui.cli.common import add_common, add_library, database, default_files, load, parse_args


DESCRIPTION = """\
Triage research-paper abstracts from the keyboard: filter, read, mark, star, prioritise.

  triage [FILES...] [--sync DIR]    open the app (the bundled ICLR 2024 list when no file is given);
                                    --sync DIR (or $TRIAGE_SYNC): sync marks through DIR on open and close
  triage --library                  open the app over every paper you ever marked (list, export, cite and
                                    similar take --library too: the database alone, no list file)
  triage --fetch 'arxiv cs.LG'      fetch (as triage fetch does), then open the app on the fetched list
  triage list [FILES...] [--query Q | --saved NAME] [--sort ORDER] [--format table|jsonl]
                                    print the papers (those matching Q, best first) without the app;
                                    --saved NAME: the query saved in the app under NAME (M);
                                    --sort interest: For you, the papers you are likely to star first
  triage cite ID [FILES...] [--format bibtex|plain|markdown|abstract|id] [--copy]
                                    print (and copy) the citation of one paper, by id or key
  triage similar ID [FILES...] [-n K] [--format table|jsonl]
                                    the K papers most like paper ID (by id or key), best first
  triage export [FILES...] [--query Q] [--format bibtex|ris|csl-json|markdown|csv|jsonl] [-o FILE] [--force]
                                    write the papers with their marks: a .bib, a .ris, a reading list…
  triage set ID|- [FILES...] [--read|--unread] [--star|--unstar] [--dismiss|--undismiss] [--priority N]
                                    [--note TEXT] [--tag T]... [--untag T]... [--format line|jsonl]
                                    mark one paper (ID or a unique prefix of it) without the app, or
                                    each paper whose id is piped in (-): triage list -q Q | triage set - --star
  triage import FILE... [--star | --tag T | --read]
                                    mark every paper of FILES (a Zotero export, your papers: .bib, .ris,
                                    CSL-JSON .json, .jsonl…), starred unless --tag or --read
  triage fetch arxiv CAT... [--days N | --since DATE] | openreview VENUE_ID | URL  [--open]
                                    save the newest papers of a source as a dated list beside the database
  triage keys                       every key binding: its id, its keys (yours from the keys file), what it does
  triage sync DIR                   exchange marks with your other devices through a folder you already sync
  triage merge OTHER_DB [--dry-run] fold another database's marks into this one (per field the later change)
  triage backup FILE [--force]      every mark with its times in one portable file (JSON Lines)
  triage restore FILE [--merge|--replace]
                                    put a backup back: into an empty database, merged, or replacing the marks
  triage library [--refresh FILES...]
                                    how many marked papers' records the database keeps; --refresh keeps those of FILES now
  triage rules [list | add QUERY [--dismiss|--star|--tag T] | remove N | preview N [FILES...]]
                                    standing rules: mark the papers matching QUERY as they arrive (K in the app)

Options and FILES may come in any order. A query that starts with "-" is fine: -q -is:read.
Exit codes: 0 ok; 1 nothing matched, or marks not saved (a full disk, a read-only database);
2 bad input (the message names the file and line), a network error, or a database locked by another
process for longer than $TRIAGE_LOCK_TIMEOUT seconds (default 10).
"""


QUIT_WITHIN = 0.6
"""Seconds after `q` a cache entry still being written has to be finished before it is given up (and the process
ends: ~0.1-0.3 s more on a loaded machine, a long list's memory handed back): `q` never waits more than a second."""

NO_HINTS = "TRIAGE_NO_HINTS"
"""Set (to anything but ''), the app shows no first-run hint (as HOMEBREW_NO_ENV_HINTS does for brew)."""


def app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triage", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('paper-triage')}")
    add_common(parser)
    add_library(parser)
    parser.add_argument(
        "--fetch", metavar="SPEC",
        help="fetch first, then open the app on the fetched list: SPEC is what follows `triage fetch` "
        "(--fetch 'arxiv cs.LG cs.CL'); a fetch that fails is told and nothing opens",
    )
    parser.add_argument(
        "--sync", metavar="DIR",
        help="sync marks through DIR (see triage sync) when the app opens and when it closes (default: $TRIAGE_SYNC)",
    )
    return parser


def sync_folder(option: str | None) -> str | None:
    """The app's sync folder: --sync DIR, else $TRIAGE_SYNC, else none. A folder not there now (a USB stick
    not plugged in) is told in the app, "not synced", whichever named it: the list opens all the same."""
    return option or os.environ.get("TRIAGE_SYNC") or None


def run_app(argv: Sequence[str], fetch_first: Callable[[str, str | None], tuple[int, Path | None]] | None = None) -> int:
    """The app on the lists `argv` names; with --fetch, on what `fetch_first(SPEC, --db)` fetched first (its exit
    code, and the list to open: None, nothing opens). Once the app has run, the process ends here (`os._exit`)."""
    args = parse_args(app_parser(), argv)
    db = database(args.db)  # refused before anything is drawn
    folder = sync_folder(args.sync)
    if args.fetch is not None and fetch_first is not None:
        code, fetched = fetch_first(args.fetch, args.db)
        if fetched is None:
            return code
        args.files = [str(fetched), *args.files]
    from store.common import heap
    from tui.loading import head_of

    heap.one_arena()  # (before the app starts any thread)
    files = args.files or default_files()
    head = None if args.library else head_of(files)  # a long list: its first papers now, the rest read behind them (tui.loading)
    collection = head or load(args.files if args.library else files, report_skipped=False, db=db if args.library else None)
    from tui.app import TriageApp

    app = TriageApp(collection, db_path=args.db, sync_folder=folder, files=files if head else None,
                     hint=not os.environ.get(NO_HINTS))
    # What exists now (the modules, the papers shown) lives as long as the app: out of the cycle collector's
    # sight, whose full collections while the first frame is drawn would walk it all again and again.
    gc.freeze()
    from tui import processes

    processes.ending_with()  # (a hangup or a termination ends the worker processes too)
    app.run()
    for line in app.farewell:  # what could not be saved, now that the terminal is ours again
        print(line, file=sys.stderr)
    code = 1 if app.unsaved_marks else 0
    from store.readers import cache

    # q while the list is read or indexed, or its cache entries written: that work ends with the process, now
    # (an entry not written in a moment is given up whole: 11 s of a blank terminal at 100,000 abstracts). The
    # process ends here in any case: the marks are saved and the store closed, and the interpreter's own ending
    # (the teardown of every paper) took 0.4 s more at 100,000 papers.
    asked = app.quit_at if app.quit_at is not None else time.monotonic()
    cache.abandon(max(0.0, asked + QUIT_WITHIN - time.monotonic()))
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
