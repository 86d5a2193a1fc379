"""Columns of texts kept beside a long list's parse entry (`store.readers.cache`): a text a paper each, made from the
papers of one parse by the caller (`kept`'s `make`), so that a later reader of that very parse loads them rather than
making them again. What the papers are matched by across sources (`store.readers.match_cache`), their citation keys
and BibTeX titles (`tui.cli.cite`, made by `store.cite.citations.citing` at the first export) and their titles as shown
(`store.readers.title_cache`) are kept so.

An entry holds, behind a CRC-32, the keys of the parse its papers are (`Collection.origin`: the version of the code
that parses and each list file's path, size, times and inode), that of the code that made them when it is not only the
parsing wings' (`kept`'s `wings`: citations'), their number and the columns (marshal, strings only,
never code: a column as one text, its values joined by NULs; a column without a value as None). It is made when first
asked for, only for a list of `KEPT_FROM` papers or more whose titles are all derived, and written by the cache's
writer. It is read only for papers that are that very parse (`Origin.of`), as a regular file (never a FIFO nor a
link) no larger than their columns can be (`_most`); it is believed only when its keys, count and columns (texts of
that many values) are what they must be, and what the caller's `valid` asks of them: any doubt (another key, a failed
CRC, a damaged or overlong entry) means the columns are made again, and kept again."""
from __future__ import annotations

import marshal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from store.common.collector import collector_paused
from store.common.files import read_regular
from store.papers.matching import KEPT_FROM
from store.papers.model import Origin, Paper
from store.readers import cache, sealed

BEHIND_FROM = 20_000
"""An entry of this many papers and more is written by the cache's background writer."""

Made = Sequence[Sequence[str]]
"""Columns as `make` gives them: as many as the entry holds, a text a paper each."""


def kept(origin: Origin | None, papers: Sequence[Paper], suffix: str, width: int, make: Callable[[Sequence[Paper]], Made],
         valid: Callable[[list[list[str]]], bool] = lambda columns: True, make_missing: bool = True,
         wings: tuple[str, ...] = ()) -> Made | None:
    """The `width` columns `make(papers)` gives, when `papers` are the very papers of the parse `origin` (else None:
    made by the caller): from their entry (named by `suffix`) when it holds them and `valid` says they can be, else
    made now and kept (not `make_missing`: None, the caller making what it needs of them). `wings`: the wings of store
    `make` is of besides those that parse (`cache.PARSING`), whose code the entry is kept under too."""
    if origin is None or len(papers) < KEPT_FROM or not origin.of(papers):
        return None
    entry = cache.entry_file([Path(key[1]) for key in origin.keys], suffix)
    code = cache.code_key(*wings) if wings else ""
    cache.settle(entry)  # (one being written is read once it is whole)
    try:
        found = read(entry, origin.keys, len(papers), width, code)
    except Exception:  # missing, unreadable, truncated, damaged, overlong: made again
        found = None
    if found is not None and valid(found):
        cache.mark_used(entry)
        return found
    if not make_missing:
        return None
    made = make(papers)
    cache.save(entry, lambda out: write(out, origin.keys, made, code), behind=len(papers) >= BEHIND_FROM)
    return made


def write(out: BinaryIO, keys: tuple[tuple, ...], made: Made, code: str = "") -> None:
    """The entry of `made` (a column as one text, its values joined by NULs: loaded in a tenth of the time of a list
    of strings) under `keys` and `code` (`kept`); ValueError (nothing written) when a value holds a NUL."""
    count = len(made[0])
    joined = ["\0".join(column) if any(column) else None for column in made]
    if any(text is not None and text.count("\0") != count - 1 for text in joined):
        raise ValueError("a value holding a NUL")
    data = marshal.dumps((keys, code, count, joined))
    out.write(sealed.header_of(data))
    out.write(data)


def _most(keys: tuple[tuple, ...], count: int, width: int) -> int:
    """The most bytes an entry of `width` columns of papers read from list files at `keys` can take: its columns are
    made of the files' text (a value may be longer than its text, by a little: a ligature or a fraction comes apart, a
    title's brace or escape is added)."""
    return 4096 + 16 * count + 2 * width * sum(key[2] for key in keys)


def read(entry: Path, keys: tuple[tuple, ...], count: int, width: int, code: str = "") -> list[list[str]] | None:
    """The `width` columns of `count` papers read from list files at `keys` the entry file holds, made by the code
    `code` (`kept`); None when it holds those of another parse or code; an error when it is damaged or not what `write`
    writes."""
    data = read_regular(entry, _most(keys, count, width), "a kept entry")  # (never a FIFO nor a link; larger: not read)
    with collector_paused():
        stored_keys, stored_code, stored_count, stored = marshal.loads(sealed.unsealed(data))
    if stored_keys != keys or stored_code != code:
        return None
    if stored_count != count or type(stored) is not list or len(stored) != width:
        raise ValueError("another count")
    made = []
    for text in stored:
        if text is not None and type(text) is not str:
            raise ValueError("a column of another kind")
        made.append([""] * count if text is None else text.split("\0"))
    if any(len(column) != count for column in made):
        raise ValueError("a column of another length")
    return made
