"""The `triage` command: opens the app, or runs a subcommand without a terminal UI.

Subcommands import only `store`; Textual is imported when the app opens.
"""
from __future__ import annotations

import argparse
import difflib
import gc
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from importlib.metadata import version
from itertools import islice
from pathlib import Path

from store.papers.model import Collection, Paper, Triage
from store.common.errors import ReadError
from store.readers import describe_skipped, read_paths
from store.readers.index_cache import search_index
from store.common.errors import Locked, NotSaved
from store.common.json_out import dumps
from store.search.query import Query, clipped, parse
from store.readers.records import reporting
from store.search.views import SCORE_SORT, SORTS
from tui.boundary import inert_output, write_control

DESCRIPTION = """\
Triage research-paper abstracts from the keyboard: filter, read, mark, star, prioritise.

  triage [FILES...] [--sync DIR]    open the app (the bundled ICLR 2024 list when no file is given);
                                    --sync DIR (or $TRIAGE_SYNC): sync marks through DIR on open and close
  triage list [FILES...] [--query Q | --saved NAME] [--sort ORDER] [--format table|jsonl]
                                    print the papers (those matching Q, best first) without the app;
                                    --saved NAME: the query saved in the app under NAME (M);
                                    --sort interest: For you, the papers you are likely to star first
  triage cite ID [FILES...] [--format bibtex|plain|markdown|abstract|id] [--copy]
                                    print (and copy) the citation of one paper, by id or key
  triage similar ID [FILES...] [-n K] [--format table|jsonl]
                                    the K papers most like paper ID (by id or key), best first
  triage export [FILES...] [--query Q] [--format bibtex|markdown|csv|jsonl] [-o FILE] [--force]
                                    write the papers with their marks: a .bib, a reading list…
  triage set ID|- [FILES...] [--read|--unread] [--star|--unstar] [--dismiss|--undismiss] [--priority N]
                                    [--note TEXT] [--tag T]... [--untag T]...
                                    mark one paper (ID or a unique prefix of it) without the app, or
                                    each paper whose id is piped in (-): triage list -q Q | triage set - --star
  triage keys                       every key binding: its id, its keys (yours from the keys file), what it does
  triage sync DIR                   exchange marks with your other devices through a folder you already sync
  triage merge OTHER_DB [--dry-run] fold another database's marks into this one (per field the later change)
  triage backup FILE [--force]      every mark with its times in one portable file (JSON Lines)
  triage restore FILE [--merge|--replace]
                                    put a backup back: into an empty database, merged, or replacing the marks

Options and FILES may come in any order. A query that starts with "-" is fine: -q -is:read.
Exit codes: 0 ok; 1 nothing matched, or marks not saved (a full disk, a read-only database);
2 bad input (the message names the file and line), or a database locked by another process
for longer than $TRIAGE_LOCK_TIMEOUT seconds (default 10).
"""


class Refused(Exception):
    """Bad input the command refuses before doing anything: `str()` is the line after "triage: " (exit 2)."""


def default_files() -> list[str]:
    from seeds import DEFAULT

    return [str(DEFAULT)]


ERASE_LINE = "\r\x1b[K"


def show_progress(name: str, done: int) -> None:
    """One line on stderr, rewritten in place: "reading big.txt… 40,000 abstracts"."""
    write_control(sys.stderr, ERASE_LINE)
    sys.stderr.write(f"reading {name}…" + (f" {done:,} abstracts" if done else ""))
    sys.stderr.flush()


def load(files: Sequence[str], report_skipped: bool = True) -> Collection:
    """The papers of FILES (files and directories; the bundled list when none is given).

    Records that were skipped (a broken BibTeX entry, a JSONL line that is not JSON) are
    reported in one line on stderr unless the caller reports them itself (the app does).
    While the files are read, a terminal's stderr shows how far (`show_progress`)."""
    terminal = sys.stderr.isatty()
    try:
        with reporting(show_progress) if terminal else nullcontext():
            collection = read_paths(files or default_files())
    finally:
        if terminal:  # the progress line is erased: what follows starts on a clean line
            write_control(sys.stderr, ERASE_LINE)
            sys.stderr.flush()
    if report_skipped:
        tell_skipped(collection.warnings)
    # The papers live as long as the command: the cycle collector need not walk them again and
    # again while it makes rows (a third of `triage list --format jsonl` at 100,000 papers).
    gc.freeze()
    return collection


def tell_skipped(warnings: Sequence[str]) -> None:
    """The records skipped in reading the lists, in one line on stderr (nothing when none was)."""
    if warnings:
        print(f"triage: {describe_skipped(list(warnings))}", file=sys.stderr)


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="*", metavar="FILES",
        help="abstract lists or directories of them to read (default: the bundled ICLR 2024 list)",
    )
    parser.add_argument(
        "--db", metavar="PATH",
        help="triage database (default: $TRIAGE_DB, else the platform data folder); its folder must exist",
    )


def database(option: str | None) -> Path:
    """The database file to open. The platform data folder is created when missing, but the folder
    of a `--db` or `$TRIAGE_DB` must exist: a typo there must not start a new, empty database."""
    from store.marks.db import db_path

    path = db_path(option)
    given = "--db" if option else "$TRIAGE_DB" if os.environ.get("TRIAGE_DB") else None
    if given and not path.parent.is_dir():
        raise Refused(f"no folder {path.parent} for the database ({given})")
    return path


QUERY_OPTIONS = ("-q", "--query")


def add_query(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        *QUERY_OPTIONS, dest="query", metavar="Q",
        help="only the papers matching Q, best first (the app's filter syntax, see README); "
        "Q may start with '-': -q -is:read",
    )


def attach_query(argv: Sequence[str]) -> list[str]:
    """`-q X` and `--query X` as `--query=X`, so that a query starting with "-" (`-is:read`, a
    negated word) reaches the query parser: argparse would take it for an option and refuse."""
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            out += [arg, *args]
        elif arg in QUERY_OPTIONS:
            value = next(args, None)
            out.append(arg if value is None else f"--query={value}")
        else:
            out.append(arg)
    return out


def parse_query(text: str | None) -> Query | None:
    """The parsed --query (None without one). A query with a part that is not understood is
    refused: dropping that part would widen the result (`is:stared` would match every paper)."""
    if text is None:
        return None
    query = parse(text)
    if query.problems:
        raise Refused(f"query {clipped(text)!r}: {query.hint}")
    return query


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """`argv` parsed with options and FILES in any order (`triage set ID --star FILE`)."""
    return parser.parse_intermixed_args(attach_query(argv))


def matching(collection: Collection, query: Query | None, states: Mapping[str, Triage]) -> list[tuple[Paper, float | None]]:
    """The papers of `collection` with their scores: all in file order without a query, else
    those matching it, ranked as the app ranks them (a long list's index from the cache)."""
    if query is None:
        return [(paper, None) for paper in collection.papers]
    return [(hit.paper, hit.score) for hit in search_index(collection).search(query, states)]


def app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triage", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('paper-triage')}")
    add_common(parser)
    parser.add_argument(
        "--sync", metavar="DIR",
        help="sync marks through DIR (see triage sync) when the app opens and when it closes (default: $TRIAGE_SYNC)",
    )
    return parser


def list_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="triage list",
        description="Print the papers of FILES, in file order, or those matching --query, best first; --sort puts them in another order.",
    )
    add_common(parser)
    add_query(parser)
    parser.add_argument("--saved", metavar="NAME", help="the query of the search saved in the app (M) under NAME; not with --query")
    parser.add_argument("--format", choices=("table", "jsonl"), default="table", help="output format (default: table)")
    parser.add_argument(
        "--sort", choices=[name for name in SORTS if name != SCORE_SORT], metavar="ORDER",
        help="file, priority (1 first), starred (first), recent (recently changed first), interest: For you,"
        " the unmarked papers you are most likely to star first, learned from your marks, or suggested: those"
        " whose mark would teach that most first, title (A to Z), author (the first author's surname, A to Z),"
        " year (newest first) or track (oral, spotlight, poster) (default: best first with --query, else file order)",
    )
    return parser


def paper_row(paper: Paper, state: Triage) -> dict[str, object]:
    return {"id": paper.id, **paper.record(), "source": paper.source, "line": paper.line, "text": paper.text,
            **state.marks()}


def print_table(papers: Sequence[Paper]) -> None:
    width = shutil.get_terminal_size((100, 24)).columns
    title_width = max(20, width - 12 - 12)

    def line(paper: Paper) -> str:
        title = paper.title if len(paper.title) <= title_width else paper.title[: title_width - 1] + "…"
        year = str(paper.year or "")
        where = paper.venue if year in paper.venue else " ".join(part for part in (paper.venue, year) if part)
        return f"{paper.id}  {title:<{title_width}}  {where}".rstrip()

    write_lines(map(line, papers))


def run_list(argv: Sequence[str]) -> int:
    args = parse_args(list_parser(), argv)
    db = database(args.db)
    if args.saved is not None:
        from tui.cli.saved import saved_query

        args.query = saved_query(db, args.saved, args.query)
    query = parse_query(args.query)
    collection = load(args.files)
    needs_states = args.format == "jsonl" or args.sort is not None or (query is not None and query.needs_states)
    states = stored_states(db, collection.papers) if needs_states else {}
    found = matching(collection, query, states)
    gains: Mapping[str, dict[str, object]] = {}
    if args.sort:
        from tui.cli.rank import arranged

        found, gains = arranged(collection, found, states, args.sort, ranked=query is not None)
    if args.format == "jsonl":
        blank = Triage()
        write_lines(
            dumps({**row, "score": round(score, 4)} if score is not None else row)
            for paper, score in found
            for row in ({**paper_row(paper, states.get(paper.id, blank)), **gains.get(paper.id, {})},)
        )
    else:
        print_table([paper for paper, _ in found])
    return 0 if found else 1


def write_lines(lines: Iterable[str], batch: int = 1000) -> None:
    """Each of `lines` and a line end to stdout, a batch at a time: one write (and one look at the
    output boundary) for a thousand lines rather than two for each."""
    lines = iter(lines)
    while chunk := list(islice(lines, batch)):
        sys.stdout.write("\n".join(chunk) + "\n")


def run_similar(argv: Sequence[str]) -> int:
    from tui.cli.rank import run_similar

    return run_similar(argv)


def run_keys(argv: Sequence[str]) -> int:
    from tui.cli.keys import run_keys

    return run_keys(argv)


def named(collection: Collection, text: str, keys: Mapping[str, str]) -> Paper:
    """The paper of `collection` that `text` names: its id, its citation key (`keys`: id → key) or a
    unique prefix of its id; Refused (exit 2, one line) when it names none or several."""
    wanted = {key: pid for pid, key in keys.items()}.get(text, text)
    found = [p for p in collection.papers if p.id == wanted] or [p for p in collection.papers if p.id.startswith(text)]
    if len(found) != 1:
        what = f"matches {len(found)} papers" if found else "is no paper's id, id prefix or key"
        raise Refused(f"{text!r} {what} in {', '.join(collection.sources)}")
    return found[0]


def stored_states(db: Path, papers: Sequence[Paper]) -> dict[str, Triage]:
    """The marks stored for `papers` (notices such as a database moved aside go to stderr)."""
    from store.marks.db import TriageStore

    store = TriageStore(db)
    told = tell(store.notices)
    try:
        return store.attach(papers)
    finally:
        store.close()
        tell(store.notices[told:])


def tell(notices: Sequence[str]) -> int:
    """Each of a store's notices as a line on stderr; how many."""
    for notice in notices:
        print(f"triage: {notice}", file=sys.stderr)
    return len(notices)


def run_cite(argv: Sequence[str]) -> int:
    from tui.cli.cite import run_cite

    return run_cite(argv)


def run_export(argv: Sequence[str]) -> int:
    from tui.cli.cite import run_export

    return run_export(argv)


def run_set(argv: Sequence[str]) -> int:
    from tui.cli.mark import run_set

    return run_set(argv)


def sharing(name: str) -> Callable[[Sequence[str]], int]:
    """`triage sync|merge|backup|restore` (tui.cli.sync), imported when run."""
    def run(argv: Sequence[str]) -> int:
        from tui.cli.sync import COMMANDS

        return COMMANDS[name](argv)

    return run


SUBCOMMANDS = {
    "list": run_list, "cite": run_cite, "export": run_export, "set": run_set, "similar": run_similar, "keys": run_keys,
    **{name: sharing(name) for name in ("sync", "merge", "backup", "restore")},
}


def sync_folder(option: str | None) -> str | None:
    """The app's sync folder: --sync DIR (refused when it is no folder), else $TRIAGE_SYNC (a folder
    not there now, a USB stick not plugged in, is told in the app), else none."""
    if option is not None and not os.path.isdir(option):
        raise Refused(f"no folder {option} to sync through (--sync)")
    return option or os.environ.get("TRIAGE_SYNC") or None


def run_app(argv: Sequence[str]) -> int:
    args = parse_args(app_parser(), argv)
    database(args.db)  # refused before anything is drawn
    folder = sync_folder(args.sync)
    from store.common import heap
    from tui.loading import head_of

    heap.one_arena()  # (before the app starts any thread)
    files = args.files or default_files()
    head = head_of(files)  # a long list: its first papers now, the rest read behind them (tui.loading)
    collection = head or load(files, report_skipped=False)
    from tui.app import TriageApp

    app = TriageApp(collection, db_path=args.db, sync_folder=folder, files=files if head else None)
    # What exists now (the modules, the papers shown) lives as long as the app: out of the cycle collector's
    # sight, whose full collections while the first frame is drawn would walk it all again and again.
    gc.freeze()
    app.run()
    for line in app.farewell:  # what could not be saved, now that the terminal is ours again
        print(line, file=sys.stderr)
    code = 1 if app.unsaved_marks else 0
    if app.working_behind:  # q while the list is read or indexed: that work ends with the process, now
        from store.readers import cache

        cache.settle()  # (a cache entry being written is finished)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    with inert_output():  # nothing a file or the database holds reaches the terminal as a control
        return _main(argv)


def _main(argv: list[str]) -> int:
    try:
        if argv and argv[0] in SUBCOMMANDS:
            return SUBCOMMANDS[argv[0]](argv[1:])
        if argv and not argv[0].startswith("-") and not os.path.exists(argv[0]):
            close = difflib.get_close_matches(argv[0], SUBCOMMANDS, n=1)
            if close:
                raise Refused(f"no such file or command {argv[0]!r} (did you mean {close[0]}?)")
        return run_app(argv)
    except (ReadError, Refused, Locked) as exc:
        print(f"triage: {exc}", file=sys.stderr)
        return 2
    except NotSaved as exc:
        print(f"triage: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
