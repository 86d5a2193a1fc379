"""The table the subcommands print (`triage list`, `similar`, `rules`...): a line a paper, its id, its marks, its title
as shown and where it appeared; and, for a long list printed whole or nearly (`print_list`), each paper's line kept
in the cache at the width last printed, so that a later table of that list is its lines looked up, not made again.

The lines entry (`LINES_SUFFIX`, one a list: the last width printed replaces another) holds, behind a CRC-32 (as
every cache entry: `store.readers.sealed`), the keys of the parse its papers are (`Collection.origin`), the code that
made it (`_code`: this module's, the search wing's that clips), the title column's width, the papers' number and
their lines as UTF-8, one a paper, as an unmarked paper's (marked and updated papers' lines are made when printed).
It is read only for the papers of that very parse, as a regular file (never a FIFO nor a link) no larger than such
lines can be, and believed only when its keys, code, width and count are what they must be: any doubt means the
lines are made again, and kept again. Printed, a block of lines at a time passes the output boundary as any text
(`tui.boundary.InertStream`)."""
from __future__ import annotations

import hashlib
import marshal
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set as AbstractSet
from itertools import compress, islice
from pathlib import Path
from typing import BinaryIO

from store.common.files import read_regular
from store.papers.chunked import ids_at, ids_of, values_of
from store.papers.matching import KEPT_FROM
from store.papers.model import Collection, Paper, Triage
from store.readers import cache, sealed
from store.readers.title_cache import ROWS_FROM, kept_titles, shown_title
from store.search.query import clipped
from tui.cli.common import write_lines

LINES_SUFFIX = ".table"
"""The suffix of a list's lines entry (beside its parse entry in the cache)."""
LINES_FROM = 50_000
"""A table of this many rows and more is printed from the list's kept lines (made and kept when there are none for
the width, ~1 s more than looked up at 1,000,000 papers): 1,000,000 rows in the learnt order, ~2.3 s of CPU made
row by row from the columns, ~0.6 s looked up (the entry ~0.1 GB); a shorter table makes its own."""
_BLOCK = 16_384
"""Lines looked up and written at a time (a block's lines stay in the processor's cache while they are joined)."""


def marks_column(state: Triage) -> str:
    """A paper's marks in three characters, as the app's list shows them: `•` unread (`✗` not for me), `★`, the priority."""
    return ("✗" if state.dismissed else " " if state.read else "•") + ("★" if state.starred else " ") + (str(state.priority or " "))


Row = tuple[str, str, "int | None", str]
"""A paper as a table row takes it: its id, venue, year and title as shown."""


def paper_rows(papers: Iterable[Paper], titles: Callable[[Paper], str] = shown_title) -> Iterator[Row]:
    """`papers` as table rows (`titles`: each one's title as shown, rendered now unless told)."""
    return ((paper.id, paper.venue, paper.year, titles(paper)) for paper in papers)


def list_rows(collection: Collection, rows: Sequence[int]) -> Iterable[Row]:
    """The papers of `collection` at `rows` as table rows: of many, from its columns and its titles as shown, kept
    (store.readers.title_cache), no paper made for them (a reopened list's are made a chunk at a time:
    store.papers.chunked); of a few, or when the titles are not kept, from the papers."""
    papers = collection.papers
    title = kept_titles(collection) if len(rows) >= ROWS_FROM else None
    if title is None:
        return paper_rows(map(papers.__getitem__, rows))
    venues, years = list(values_of(papers, "venue")), list(values_of(papers, "year"))
    return ((pid, venues[row], years[row], title(row)) for pid, row in zip(ids_at(papers, rows), rows))


def print_table(rows: Iterable[Row], states: Mapping[str, Triage], updated: AbstractSet[str] = frozenset()) -> None:
    """A line a paper (`Row`: `paper_rows`, `list_rows`): its id, its marks (`marks_column`), its title as shown and
    where it appeared, and `(updated)` for a paper of `updated` (a later version of a marked paper)."""
    write_lines(map(_liner(states, updated, _title_width()), rows))


def print_list(collection: Collection, rows: Sequence[int], states: Mapping[str, Triage],
               updated: AbstractSet[str] = frozenset()) -> None:
    """`print_table` of the papers of `collection` at `rows`, in that order: of `LINES_FROM` rows and more, from the
    list's kept lines (`kept_lines`), the marked and updated papers' lines made now."""
    width = _title_width()
    lines = kept_lines(collection, width) if len(rows) >= LINES_FROM else None
    if lines is None:
        print_table(list_rows(collection, rows), states, updated)
        return
    ids = ids_of(collection.papers)
    changed = list(compress(range(len(ids)), map((states.keys() | updated).__contains__, ids)))
    line = _liner(states, updated, width)
    for row, made in zip(changed, map(line, list_rows(collection, changed))):
        lines[row] = made.encode()
    for start in range(0, len(rows), _BLOCK):
        sys.stdout.write(b"\n".join(lines.block(rows[start : start + _BLOCK])).decode() + "\n")


class Lines:
    """Each paper's table line (`kept_lines`), in UTF-8: slices of one blob of them, one a paper from `start`, found by
    their ends (a number a paper, 8 bytes: the lines of 2,700,000 papers as a list of bytes were ~1.4 GB), the lines
    of some papers set anew (`__setitem__`: a marked paper's)."""

    def __init__(self, blob: bytes, start: int = 0) -> None:
        import numpy as np  # (here: a short table needs none)

        self._blob = blob
        ends = [np.flatnonzero(np.frombuffer(blob, np.uint8, min(_PIECE, len(blob) - at), at) == 10) + at
                for at in range(start, len(blob), _PIECE)]  # (a piece at a time: no array of the blob's size)
        self._bounds = np.concatenate([[start], *ends, [len(blob)]]).astype(np.int64)
        self._bounds[1:-1] += 1  # (each line begins after the end of the one before)
        self._set: dict[int, bytes] = {}

    def __len__(self) -> int:
        return len(self._bounds) - 1

    def __getitem__(self, row: int) -> bytes:
        return self.block([row])[0]

    def __setitem__(self, row: int, line: bytes) -> None:
        self._set[row] = line

    def __iter__(self) -> Iterator[bytes]:
        for start in range(0, len(self), _BLOCK):
            yield from self.block(range(start, min(len(self), start + _BLOCK)))

    def block(self, rows: Sequence[int]) -> list[bytes]:
        """The lines of `rows`, in that order."""
        import numpy as np

        at = np.asarray(rows, dtype=np.int64)
        if len(at) and not (0 <= at.min() and at.max() < len(self)):
            raise IndexError("line index out of range")
        starts, stops = self._bounds[at].tolist(), self._bounds[at + 1]
        stops[at + 1 < len(self._bounds) - 1] -= 1  # (each line but the last without its line end)
        blob = self._blob
        found = [blob[start:stop] for start, stop in zip(starts, stops.tolist())]
        if self._set:
            for k, row in enumerate(at.tolist()):
                if row in self._set:
                    found[k] = self._set[row]
        return found


_PIECE = 1 << 25
"""Bytes of a lines entry searched for line ends at a time (`Lines`)."""


def kept_lines(collection: Collection, width: int) -> Lines | None:
    """Each paper's table line at the title width `width`, as an unmarked paper's, in UTF-8 (`Lines`), when
    `collection` holds the very papers of a parse of `KEPT_FROM` papers or more (else None): from its lines entry when
    that holds them at this width, else made now (in file order) and kept (written in the background, at most one
    entry a list). None too when a line made holds a line end (the table is then made row by row)."""
    papers, origin = collection.papers, collection.origin
    if origin is None or len(papers) < KEPT_FROM or not origin.of(papers):
        return None
    entry = cache.entry_file([Path(key[1]) for key in origin.keys], LINES_SUFFIX)
    cache.settle(entry)
    try:
        found = _read(entry, origin.keys, width, len(papers))
    except Exception:  # missing, unreadable, truncated, damaged, overlong: made again
        found = None
    if found is not None:
        cache.mark_used(entry)
        return found
    line = _liner({}, frozenset(), width)
    made = iter(list_rows(collection, range(len(papers))))
    blocks = [b"\n".join(line(row).encode() for row in islice(made, _BLOCK)) for _ in range(0, len(papers), _BLOCK)]
    blob = b"\n".join(blocks)
    del blocks
    if blob.count(b"\n") != len(papers) - 1:  # (a line holding a line end: the entry would be refused each time)
        return None
    cache.save(entry, lambda out: _write(out, origin.keys, width, len(papers), blob), behind=True)
    return Lines(blob)


def _liner(states: Mapping[str, Triage], updated: AbstractSet[str], title_width: int) -> Callable[[Row], str]:
    """A table row's line: what is the same for many papers, unmarked ones' marks and a venue with its year, made
    once; a row one f-string with no format to parse (a title padded by a `:<{width}` of its own took a third longer)."""
    unmarked = marks_column(Triage())
    places: dict[tuple[str, int | None], str] = {}

    def line(row: Row) -> str:
        pid, venue, year, title = row
        state = states.get(pid)
        where = places.get((venue, year))
        if where is None:
            where = places[venue, year] = venue_year(venue, year)
        if updated and pid in updated:
            where += "  (updated)"
        marks = unmarked if state is None else marks_column(state)
        return f"{pid}  {marks}  {clipped(title, title_width).ljust(title_width)}  {where}".rstrip()

    return line


def _title_width() -> int:
    """The title column's width in the terminal printed to (100 columns when it is not one)."""
    return max(20, shutil.get_terminal_size((100, 24)).columns - 12 - 5 - 12)


def venue_year(venue: str, year: int | None) -> str:
    """Where a paper appeared, as a table row shows it: its venue and year ('ICLR 2024', the year once)."""
    shown = str(year or "")
    return venue if shown in venue else " ".join(part for part in (venue, shown) if part)


def _code() -> str:
    """What the kept lines were made by: this module and the clipping of their titles (the search wing's)."""
    return cache.code_key("search") + hashlib.blake2b(Path(__file__).read_bytes(), digest_size=12).hexdigest()


def _write(out: BinaryIO, keys: tuple[tuple, ...], width: int, count: int, blob: bytes) -> None:
    """The lines entry of `count` lines (`blob`, joined by line ends) at `width` under `keys` (`kept_lines`)."""
    head = marshal.dumps((keys, _code(), width, count))
    size = len(head).to_bytes(4, "big")
    out.write(sealed.header_of(size, head, blob))
    out.write(size)
    out.write(head)
    out.write(blob)


def _read(entry: Path, keys: tuple[tuple, ...], width: int, count: int) -> Lines | None:
    """The `count` lines at `width` of the papers read from list files at `keys` the entry file holds; None when it
    holds those of another parse, code or width; an error when it is damaged or not what `_write` writes."""
    most = 4096 + count * (4 * width + 128) + sum(key[2] for key in keys)  # (ids, marks, a title, where: its venue)
    data = read_regular(entry, most, "a kept entry")  # (never a FIFO nor a link; larger: not read)
    payload = sealed.unsealed(data)
    size = int.from_bytes(payload[:4], "big")
    stored_keys, code, stored_width, stored_count = marshal.loads(payload[4 : 4 + size])
    if stored_keys != keys or code != _code() or stored_width != width:
        return None
    lines = Lines(data, len(data) - len(payload) + 4 + size)  # (the lines where they were read: no copy of them)
    if stored_count != count or len(lines) != count:
        raise ValueError("another count")
    return lines
