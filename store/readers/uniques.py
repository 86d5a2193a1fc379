"""A list's papers without repeats (`Uniques`, `unique`), and a long list's handed on as they are made (`streaming`).

Every reader's papers go through `papers_of` (or `unique`): a record with neither text nor title is no paper, a repeat of
an id is no second paper (it lends the first its record details, or it is another record: `Uniques`), another text of
the same id (ids are 40 bits: two pairs in the 2.7 million papers of an arXiv snapshot) is a paper of another id
(`clash_id`), and the papers are numbered in order. Within `streaming` (the parse cache writing a list's entries as it is parsed:
`store.readers.cache`), the papers made so far are shown to a sink after each chunk, which may take the first of them
(`Uniques.take`): a parse of millions of papers then holds a chunk of them, not the list. A repeat whose first paper was
taken and would gain its details (`_richer`) cannot be, nor can a parse that makes papers twice (a file tried as one
format, then another): `Unstreamable` says so, and the caller parses the list again in memory."""
from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from contextvars import ContextVar
from itertools import repeat

from store.common.errors import ReadError
from store.papers.model import Paper, has_text, kept_plain, paper_id, replaced, text_check
from store.readers.records import within


class Unstreamable(Exception):
    """A parse's papers cannot be handed on as they are made (see the module's docstring)."""


def _lends(other: Paper, first_keyed: bool, first_authored: bool) -> bool:
    """Whether `other` lends its record details to the first paper of its id, which has a key or not and authors or
    not (`_richer`): only when it has some and the first has none."""
    return not (first_keyed or first_authored) and bool(other.key or other.authors)


def _richer(first: Paper, other: Paper) -> Paper:
    """`first` with the record details of `other` when only `other` has them (a bare abstract
    that a BibTeX or JSON file also lists gets that file's title, authors, key...)."""
    if not _lends(other, bool(first.key), bool(first.authors)):
        return first
    links = tuple(dict.fromkeys(other.links + first.links))  # the record's own links first
    return replaced(
        other, text=first.text, plain=kept_plain(first), links=links, source=first.source, line=first.line,
        position=first.position, venue=other.venue or first.venue, year=other.year or first.year,
    )


def keyed_id(paper: Paper) -> str:
    """The id of a paper whose text (or, without an abstract, title) is another keyed record's: the
    same hash over the text and the paper's own key, so each record keeps marks of its own."""
    return paper_id(f"{paper.text or paper.title}\n{paper.key}")


def clash_id(paper: Paper, tries: int) -> str:
    """The id of a paper whose id is another text's, at the `tries`-th try (1, 2, ... until one is free): the same hash
    over its text (as `_check_of`) and the number, so the same list gives it the same id each time it is read."""
    return paper_id(f"{paper.text or paper.title or paper.key}\n{tries}")


def _check_of(paper: Paper) -> int:
    """The `text_check` of a paper made without one (not by `store.readers.records.make_papers`): of its text, else of
    its title, else of its key (what its id was made of)."""
    return text_check(paper.text or paper.title or paper.key)


def _key_hash(key: str) -> int:
    """What `Uniques` keeps of a taken paper's key: 0 for none (a key's own hash is 0 once in 2^64)."""
    return hash(key) if key else 0


def _number(pid: str) -> int:
    """A paper id as a 64-bit number: a `paper_id` (10 hexadecimal digits) as itself, another by its hash."""
    try:
        if len(pid) == 10 and pid.isascii() and pid.isalnum():  # (`int` takes spaces, underscores, other digits)
            return int(pid, 16)
    except ValueError:
        pass
    return int.from_bytes(hashlib.blake2b(pid.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big") | 1 << 63


class _Taken:
    """The rows of the papers taken by their ids' numbers (`_number`): sorted runs of numbers and rows (numpy; 12
    bytes a paper, where a dict of the ids was ~130), two of a size merged, so that a chunk's ids are looked up in a
    few binary searches."""

    def __init__(self) -> None:
        self._runs: list = []

    def add(self, ids: Sequence[str], first: int) -> None:
        if not ids:
            return
        import numpy as np

        numbers = np.fromiter(map(_number, ids), dtype=np.uint64, count=len(ids))
        rows = np.arange(first, first + len(ids), dtype=np.uint32)
        runs = self._runs
        order = np.argsort(numbers)
        runs.append((numbers[order], rows[order]))
        while len(runs) > 1 and len(runs[-2][0]) <= 2 * len(runs[-1][0]):
            (before, before_rows), (after, after_rows) = runs[-2:]
            numbers, rows = np.concatenate([before, after]), np.concatenate([before_rows, after_rows])
            order = np.argsort(numbers)
            runs[-2:] = [(numbers[order], rows[order])]

    def rows(self, ids: Sequence[str]) -> dict[str, int]:
        """The rows of those of `ids` taken."""
        import numpy as np

        numbers = np.fromiter(map(_number, ids), dtype=np.uint64, count=len(ids))
        found: dict[str, int] = {}
        for kept, rows in self._runs:
            at = np.minimum(np.searchsorted(kept, numbers), len(kept) - 1)
            for k in np.flatnonzero(kept[at] == numbers).tolist():
                found[ids[k]] = int(rows[at[k]])
        return found


class Uniques:
    """Papers without repeats of an id, numbered by position from `start`, added a chunk at a time (`add`).

    A paper whose id is a paper's of another text (`text_check`) gets another id (`clash_id`). The first of an id stays
    where it is; a later repeat lends it its record details when it has some and the first has none (`_richer`). A repeat with a key of its own that differs from the first's (an arXiv and a proceedings entry
    of one abstract, two untitled entries with one title) is another record: it stays a paper of its own, its id
    qualified by its key (`keyed_id`). `papers` holds those not taken (`take`); of those taken, only their ids' numbers
    (`_Taken`), their texts' checks, their keys' hashes and whether they have authors are kept (what a later repeat is
    judged by)."""

    __slots__ = ("papers", "taken", "_start", "_at", "_taken", "_checks", "_pending", "_keys", "_authored")

    def __init__(self, start: int = 0) -> None:
        self.papers: list[Paper] = []
        self.taken = 0
        self._start = start
        self._at: dict[str, int] = {}
        """The rows of the papers not taken, by id."""
        self._taken = _Taken()
        self._checks = array("Q")
        """The text checks of the papers taken, by row."""
        self._pending: list[int | None] = []
        """The text checks of `papers` (None: not worked out yet, `_check`)."""
        self._keys = array("q")
        self._authored = bytearray()

    def __len__(self) -> int:
        return self.taken + len(self.papers)

    def _row(self, pid: str, taken: dict[str, int] | None = None) -> int | None:
        """The row of the paper of id `pid` (`taken`: the rows of those taken, looked up already), or None."""
        if pid in self._at:
            return self._at[pid]
        if not self.taken:
            return None
        return (taken if taken is not None else self._taken.rows([pid])).get(pid)

    def _check(self, row: int) -> int:
        """The text check of the paper at `row`."""
        if row < self.taken:
            return self._checks[row]
        index = row - self.taken
        check = self._pending[index]
        if check is None:
            check = self._pending[index] = _check_of(self.papers[index])
        return check

    def _of_text(self, paper: Paper, check: int | None, row: int | None) -> tuple[Paper, int | None, int | None]:
        """(`paper`, with another id when the paper at `row`, of its id, is of another text; the row of the paper of
        its id and text, or None; its text check when it was needed)."""
        tries, pid = 0, paper.id
        while row is not None:
            check = _check_of(paper) if check is None else check
            if self._check(row) == check:
                break
            tries += 1
            pid = clash_id(paper, tries)
            row = self._row(pid)
        return (replaced(paper, id=pid) if tries else paper), row, check

    def add(self, papers: Iterable[Paper]) -> None:
        """Add `papers` (with their text checks when they are `store.readers.records.Made`, else worked out as needed)."""
        at, out = self._at, self.papers
        checks = getattr(papers, "checks", None)
        # (a record of nothing but control or invisible characters has neither left: it is no paper)
        made = [(paper, check) for paper, check in zip(papers, checks or repeat(None)) if has_text(paper) or paper.title]
        taken = self._taken.rows([paper.id for paper, _ in made]) if self.taken else {}
        for paper, check in made:
            paper, row, check = self._of_text(paper, check, self._row(paper.id, taken))
            if row is not None:
                index = row - self.taken  # (in `papers`, when not taken)
                first_key, first_authored = (_key_hash(out[index].key), bool(out[index].authors)) if index >= 0 \
                    else (self._keys[row], self._authored[row])
                if not (paper.key and first_key and _key_hash(paper.key) != first_key):
                    if index >= 0:
                        out[index] = _richer(out[index], paper)
                    elif _lends(paper, bool(first_key), bool(first_authored)):
                        raise Unstreamable("a later record adds to a paper handed on")
                    continue
                paper = replaced(paper, id=keyed_id(paper))
                if self._row(paper.id) is not None:  # this very record again (the same file read twice)
                    continue
            at[paper.id] = len(self)
            self._pending.append(check)
            position = self._start + len(self)
            out.append(paper if paper.position == position else replaced(paper, position=position))

    def take(self, count: int) -> list[Paper]:
        """The first `count` papers not taken yet, taken: a repeat of one of them later is judged by what is kept."""
        checks = [_check_of(paper) if check is None else check for paper, check in zip(self.papers, self._pending[:count])]
        taken, self.papers[:count], self._pending[:count] = self.papers[:count], [], []
        for paper in taken:
            del self._at[paper.id]
        self._taken.add([paper.id for paper in taken], self.taken)
        self._checks.extend(checks)
        self._keys.extend(_key_hash(paper.key) for paper in taken)
        self._authored.extend(bool(paper.authors) for paper in taken)
        self.taken += len(taken)
        return taken


def unique(papers: Iterable[Paper], start: int = 0) -> list[Paper]:
    """`papers` without repeats of an id, numbered by position from `start` (`Uniques`)."""
    uniques = Uniques(start)
    uniques.add(papers)
    return uniques.papers


class Taken(Sequence[Paper]):
    """What `papers_of` gives when a sink took papers: as long as all of them; `rest` those not taken."""

    def __init__(self, uniques: Uniques) -> None:
        self.rest = uniques.papers
        self._count = len(uniques)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, at: object) -> Paper:  # type: ignore[override]
        raise TypeError("the papers were handed on as they were made")


Sink = Callable[[Uniques], None]
"""Shown the papers made so far after each chunk (it may take some); raises `Unstreamable` when it cannot go on."""
_SINK: ContextVar[Sink | None] = ContextVar("sink", default=None)


def streaming(sink: Sink) -> AbstractContextManager[Sink]:
    """Within the block, a parse on this thread shows `sink` its papers as they are made (`papers_of`)."""
    return within(_SINK, sink)


NOTHING_LEFT = "no abstracts found (nothing but control or invisible characters)"
"""Why a file whose every record was of nothing but control or invisible characters is no list."""


def papers_of(chunks: Iterable[list[Paper]], path: str) -> Sequence[Paper]:
    """The papers of `chunks` (as a reader makes them of the file `path`: `store.readers.records.make_papers`) without
    repeats (`Uniques`): a list; or, when a sink took some (`streaming`), `Taken`. `ReadError` when papers were made
    and none is left (`NOTHING_LEFT`)."""
    uniques, sink, made = Uniques(), _SINK.get(), 0
    for chunk in chunks:
        made += len(chunk)
        uniques.add(chunk)
        if sink is not None:
            sink(uniques)
    if made and not len(uniques):
        raise ReadError(path, NOTHING_LEFT)
    return Taken(uniques) if uniques.taken else uniques.papers
