"""The head of a long list: its first papers, read from the first part of the file before the rest.

What a long list shows at once (`tui.loading`), cold or cached: `head(path)` reads the first
`HEAD_BYTES` of a list file of `STREAM_FROM` bytes or more, cuts them after the last whole record,
and parses that with the very parser the whole file goes through (`seed.parse`, `tabular.parse_jsonl`),
in full (ids from the raw text, derived titles, display text, links). So the head's papers are the
whole parse's first papers, in the same positions, unless the rest of the file changes how it is
decoded (a legacy encoding that shows only later): the whole parse, which follows, has the last word.
Only the formats read record by record from the start have a head: the seed format (one abstract
per paragraph) and JSON Lines; any other file is None (read whole before it is shown). A list the
parse cache holds has its head from there (`store.readers.cache.head`: its parse's very first papers,
nothing parsed), else it is parsed.
"""
from __future__ import annotations

import codecs
import os
import re
from collections.abc import Sequence
from pathlib import Path

from store.papers.boundary import inert_collection
from store.common.errors import ReadError
from store.papers.model import Collection

HEAD_BYTES = 128 << 10
"""About 90 abstracts: more rows than a terminal shows."""
STREAM_FROM = 8 << 20
"""Files of this many bytes (~5,000 abstracts) and more open from their head when they are to be parsed:
a shorter one is parsed in about a second, and parsed behind its head it would be searchable later
(the parse then shares the app's process with its start)..."""
CACHED_STREAM_FROM = 32 << 20
"""...and from this many when the parse cache holds them: a cached list of ~20,000 abstracts loads
faster than a head is parsed."""
_UTF16 = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_LINE_LISTS = (".jsonl", ".ndjson")


def head(name: str, streams_from: int = STREAM_FROM, cached: bool = False) -> Collection | None:
    """The first papers of the list file `name` (see the module docstring); None when it is shorter than
    `streams_from` bytes, not read record by record, unreadable, or no record ends in its first part.
    `cached`: look in the parse cache first."""
    path = Path(name)
    suffix = path.suffix.lower()
    if suffix not in (".txt", *_LINE_LISTS):
        return None
    try:
        if not path.is_file() or path.stat().st_size < streams_from:
            return None
        if cached:
            from store.readers import cache

            if (found := cache.head(name)) is not None:
                return found
        with path.open("rb") as file:
            data = file.read(HEAD_BYTES)
    except OSError:
        return None
    if data.startswith(_UTF16):  # not ASCII-compatible: a line end is no single byte
        return None
    end = data.rfind(b"\n")
    if end <= 0:
        return None
    from store.readers import seed, tabular
    from store.readers.bibtex import looks_like_bibtex
    from store.readers.encoding import decode

    try:
        text = decode(data[: end + 1], name)
    except ReadError:
        return None
    if suffix in _LINE_LISTS:
        parse, last_whole = tabular.parse_jsonl, True  # every line before the cut is whole
    elif text.lstrip()[:1] in ("[", "{", "<") or looks_like_bibtex(text):
        return None  # a .txt holding JSON, a feed or BibTeX: read whole
    else:
        # The last paragraph may go on past the cut (hard-wrapped lines): it is left to the whole parse.
        parse, last_whole = seed.parse, bool(re.search(r"\n[^\S\n]*\n\s*\Z", text))
    try:
        collection = inert_collection(parse(text, name))
    except ReadError:
        return None
    papers = collection.papers if last_whole else collection.papers[:-1]
    if not papers:
        return None
    return Collection(papers, collection.header, collection.venue, collection.year, [name], [])


def expected(first: Collection, files: Sequence[str]) -> int:
    """How many papers the list files hold, guessed from the head `first` of the first: as many a byte."""
    sizes = [os.stat(name).st_size if os.path.isfile(name) else 0 for name in files]
    return max(1, len(first.papers) * sum(sizes) // max(1, min(HEAD_BYTES, sizes[0])))
