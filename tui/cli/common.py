"""What the subcommands share: reading FILES, the database, the query option, rows and tables, and how
they tell what went wrong (`Refused`, exit 2)."""
from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence, Set as AbstractSet
from contextlib import nullcontext
from itertools import islice
from pathlib import Path
from unicodedata import east_asian_width
from typing import TYPE_CHECKING, TypeVar

from store.papers.model import Collection, Paper, Triage
from store.readers import describe_skipped, match_cache, read_paths
from store.readers.records import reporting
from store.search.query import Query, clipped, parse
from tui.boundary import write_control

if TYPE_CHECKING:
    from store.library.seen import Opened
    from store.marks.db import TriageStore
    from store.search.engine import Ahead, Engine
    from store.search.highlight import Hits

T = TypeVar("T")


class Refused(Exception):
    """Bad input the command refuses before doing anything: `str()` is the line after "triage: " (exit 2)."""


class OpenApp(Exception):
    """What a subcommand raises, once done, to have the app opened on `argv` (`triage fetch … --open`): the
    command line opens it (tui.cli), so that no subcommand imports the app's launch."""

    def __init__(self, argv: Sequence[str]) -> None:
        super().__init__(argv)
        self.argv = list(argv)


def default_files() -> list[str]:
    from seeds import DEFAULT

    return [str(DEFAULT)]


ERASE_LINE = "\r\x1b[K"


def show_progress(name: str, done: int) -> None:
    """One line on stderr, rewritten in place: "reading big.txt… 40,000 abstracts"; never wider than the
    terminal (a line it wrapped would leave its first rows there once erased): the file's name for a path
    too long, cut."""
    try:
        room = (os.get_terminal_size(sys.stderr.fileno()).columns or 80) - 1  # (0: a terminal that does not say)
    except OSError:
        room = 79
    count = f" {done:,} abstracts" if done else ""
    line = f"reading {name}…{count}"
    if _cells(line) > room:
        line = f"reading {Path(name).name}…{count}"
    while line and _cells(line) > room:
        line = line[:-1]
    write_control(sys.stderr, ERASE_LINE)
    sys.stderr.write(line)
    sys.stderr.flush()


def _cells(text: str) -> int:
    """The terminal cells `text` takes at most (a wide character two)."""
    return len(text) + sum(east_asian_width(char) in "WF" for char in text)


def add_library(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--library", action="store_true",
                        help="every paper you ever marked, from the database alone, instead of FILES")


def library(db: Path) -> Collection:
    """Every marked paper of the database `db`, made from the records it keeps (`store.readers.library`)."""
    from store.readers.library import library_collection

    records, source = in_store(db, lambda store: (store.library(), str(store.papers_file)))  # (one record a paper)
    collection = library_collection(records, source)
    gc.freeze()
    return collection


def load(files: Sequence[str], report_skipped: bool = True, db: Path | None = None) -> Collection:
    """The papers of FILES (files and directories; the bundled list when none is given), or with `db` (the
    `--library` option's database) every marked paper of that database; FILES are then refused.

    Records that were skipped (a broken BibTeX entry, a JSONL line that is not JSON) are
    reported in one line on stderr unless the caller reports them itself (the app does).
    While the files are read, a terminal's stderr shows how far (`show_progress`)."""
    if db is not None:
        if files:
            raise Refused("--library reads the database alone: give no FILES with it")
        return kept(library(db))
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
    return kept(collection)


KEPT: list[Collection] | None = None
"""The collections a run of the `triage` command loaded, kept until its process ends, which then tears none of
their papers down (`tui.cli.command`); None where `main` is called by a process that goes on (a test)."""


def kept(collection: Collection) -> Collection:
    if KEPT is not None:
        KEPT.append(collection)
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
    add_db(parser)


def add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", metavar="PATH",
        help="triage database (default: $TRIAGE_DB, else the platform data folder); its folder must exist",
    )


def database(option: str | None) -> Path:
    """The database file to open. The platform data folder is created when missing, but the folder
    of a `--db` or `$TRIAGE_DB` must exist: a typo there must not start a new, empty database."""
    from store.marks.place import db_path

    path = db_path(option)
    given = "--db" if option else "$TRIAGE_DB" if os.environ.get("TRIAGE_DB") else None
    try:
        if given and not path.parent.is_dir():
            raise Refused(f"no folder {path.parent} for the database ({given})")
    except OSError as exc:  # a folder on the way the user may not enter
        raise Refused(f"cannot reach the folder {path.parent} for the database ({given}): {exc.strerror or exc}") from None
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


def engine_ahead(files: Sequence[str]) -> Callable[[], Ahead | None]:
    """The engine folder of FILES opened while they are read (store.readers.engine_cache's `opening`: its CRCs summed on
    the other core), for `engine_of`: what `triage list -q` of a reopened list waited for after the read."""
    from store.readers.engine_cache import opening  # (here: the subcommands that search no list need no tantivy)

    return opening(files or default_files())


def engine_of(collection: Collection, ahead: Callable[[], Ahead | None] | None = None) -> Engine:
    """The search engine of `collection` (kept in the cache: store.readers.engine_cache; `ahead`: its folder as
    `engine_ahead` opened it), what it could not do said in one line on stderr (a cache the index could not be kept
    in, a damaged one built again)."""
    from store.readers.engine_cache import engine_for  # (here: the subcommands that search no list need no tantivy)

    opened = engine_for(collection, ahead=ahead() if ahead is not None else None)
    if opened.note:
        print(f"triage: {opened.note}", file=sys.stderr)
    return opened.engine


def matched(collection: Collection, query: Query | None, states: Mapping[str, Triage],
            new: AbstractSet[str] = frozenset(), updated: AbstractSet[str] = frozenset(),
            ahead: Callable[[], Ahead | None] | None = None) -> Hits | None:
    """The papers of `collection` matching `query`, ranked as the app ranks them (`engine_of`, `ahead` its folder
    opened beside the read); `new` and `updated`: the papers `is:new` and `is:updated` find. None without a query
    (every paper, in file order)."""
    return None if query is None else engine_of(collection, ahead).search(query, states, new, updated)


def matching(collection: Collection, query: Query | None, states: Mapping[str, Triage],
             new: AbstractSet[str] = frozenset(), updated: AbstractSet[str] = frozenset(),
             ahead: Callable[[], Ahead | None] | None = None) -> list[tuple[Paper, float | None]]:
    """The papers `matched` finds with their scores (all in file order without a query, no score)."""
    hits = matched(collection, query, states, new, updated, ahead)
    return [(paper, None) for paper in collection.papers] if hits is None else hits.scored  # type: ignore[return-value]


def paper_row(paper: Paper, state: Triage, text: str) -> dict[str, object]:
    """A paper as a JSON Lines row: its record, where it was read, its text (`text`: of many papers, read out as
    `store.papers.model.texts` reads them) and its marks."""
    return {"id": paper.id, **paper.record(), "source": paper.source, "line": paper.line, "text": text,
            **state.marks()}


def write_lines(lines: Iterable[str], batch: int = 1000) -> None:
    """Each of `lines` and a line end to stdout, a batch at a time: one write (and one look at the
    output boundary) for a thousand lines rather than two for each."""
    lines = iter(lines)
    while chunk := list(islice(lines, batch)):
        sys.stdout.write("\n".join(chunk) + "\n")


def named(collection: Collection, text: str, keys: Mapping[str, str]) -> Paper:
    """The paper of `collection` that `text` names: its id, its citation key (`keys`: id → key) or a
    unique prefix of its id; Refused (exit 2, one line) when it names none or several."""
    wanted = {key: pid for pid, key in keys.items()}.get(text, text)
    found = [p for p in collection.papers if p.id == wanted] or [p for p in collection.papers if p.id.startswith(text)]
    if len(found) != 1:
        what = f"matches {len(found)} papers" if found else "is no paper's id, id prefix or key"
        raise Refused(f"{text!r} {what} in {', '.join(collection.sources)}")
    return found[0]


def keys_naming(papers: Sequence[Paper], text: str) -> Mapping[str, str]:
    """What `named` needs of the citation keys of `papers` (id → key: `store.cite.keys.citation_keys`) to tell
    which paper `text` names: all of them, or none when `text` is an id (or its prefix) and no paper's key can be it
    (working them all out is a third of `triage similar ID` at 100,000 papers). A key is its paper's base key with
    maybe a suffix, and a paper without a key of its own has a base key holding its year."""
    from store.cite.keys import base_key, citation_keys

    if any(paper.id.startswith(text) for paper in papers):
        if not any((paper.key or not paper.year or str(paper.year) in text) and text.startswith(base_key(paper))
                   for paper in papers):
            return {}
    return citation_keys(papers)


def in_store(db: Path, work: Callable[[TriageStore], T]) -> T:
    """What `work` does with the database `db` opened (notices such as a database moved aside go to stderr)."""
    from store.marks.db import TriageStore

    store = TriageStore(db)
    told = tell(store.notices)
    try:
        return work(store)
    finally:
        store.close()
        tell(store.notices[told:])


def stored_states(db: Path, collection: Collection) -> dict[str, Triage]:
    """The marks stored for `collection`'s papers."""
    return attached(db, collection)[0]


def attached(db: Path, collection: Collection) -> tuple[dict[str, Triage], frozenset[str]]:
    """The marks stored for `collection`'s papers (a paper's own, or those of the marked paper it is under another
    id: what a long list's papers are matched by is kept, `store.readers.match_cache`), and the ids of those that
    are a later version of their marked paper (`is:updated`: `TriageStore.attach`)."""
    return in_store(db, lambda store: (store.attach(collection.papers, **match_cache.attaching(collection)), store.updated))


def opened_now(db: Path, collection: Collection) -> Opened:
    """The ids of the papers of `collection` new since it was last opened, and of those the database sees first, now
    that it is opened (`store.library.seen`)."""
    from store.readers.list_key import read_key

    return in_store(db, lambda store: store.opened(collection.sources, collection.papers, read_key(collection)))


def new_in(db: Path, collection: Collection) -> frozenset[str]:
    """The ids of the papers of `collection` new since it was last opened, as `opened_now` would find them, without
    opening it (`triage export` reads a list, it does not open it)."""
    from store.readers.list_key import read_key

    return in_store(db, lambda store: store.new(collection.sources, collection.papers, read_key(collection)))


def tell(notices: Sequence[str]) -> int:
    """Each of a store's notices as a line on stderr; how many."""
    for notice in notices:
        print(f"triage: {notice}", file=sys.stderr)
    return len(notices)
