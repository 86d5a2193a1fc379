"""The seed format: an optional header line and a blank line, then one abstract per paragraph.
Blank lines before the header, and spaces around it, are ignored.

A paragraph may be hard-wrapped over many lines; paragraphs are separated by one or more
blank lines. The header is a short first line (not ending in a full stop) followed by a
blank line, in any language; venue and year are read from it when it names them
("ICLR 2024 论文列表").

`parse` reads a decoded text; `parse_pieces` the same text given a piece at a time (a long UTF-8
list, `store.readers.encoding.utf8_pieces`), so the whole file is never one string."""
from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import chain

from store.common.errors import ReadError
from store.papers.model import Collection
from store.readers.records import make_papers
from store.readers.uniques import papers_of

_VENUE_YEAR = re.compile(r"\b([A-Za-z][A-Za-z&\-]{1,15})\s*'?((?:19|20)\d\d)\b")
MAX_HEADER = 120


def venue_year(header: str) -> tuple[str, int | None]:
    """('ICLR', 2024) from a header such as 'ICLR 2024 论文列表'; ('', None) when it names none."""
    match = _VENUE_YEAR.search(header)
    if not match:
        return "", None
    return match.group(1), int(match.group(2))


# Where one paragraph ends and the next begins: a line end, then one or more blank lines
# (whitespace only) with theirs. Possessive: a long run of spaces is never scanned twice.
_BREAK = re.compile(r"\n(?:[^\S\n]*+\n)++")
_NON_SPACE = re.compile(r"\S")
_LEADING_BLANK = re.compile(r"(?:[^\S\n]*+\n)++")


def _paragraph(piece: str, line: int) -> Iterator[tuple[int, str]]:
    """The paragraph of `piece`, lines between two breaks that start at line `line`, if it has one:
    (the number of its first non-blank line, its lines stripped and joined by single spaces)."""
    if "\n" not in piece:  # the common case: an abstract on one line
        stripped = piece.strip()
        if stripped:
            yield line, stripped
        return
    # Hard-wrapped. Blank lines can only be at the edges (at the start or end of the text).
    lines = [part.strip() for part in piece.split("\n")]
    first = next((i for i, part in enumerate(lines) if part), None)
    if first is not None:
        yield line + first, " ".join(part for part in lines if part)


def paragraphs(text: str, pos: int = 0, line: int = 1) -> Iterator[tuple[int, str]]:
    """(line number, text) of each paragraph of `text` from index `pos`, which is on line `line`."""
    pos, line = yield from _before_last_break(text, pos, line)
    yield from _paragraph(text[pos:], line)


def paragraphs_of(pieces: Iterable[str], line: int = 1) -> Iterator[tuple[int, str]]:
    """`paragraphs` of the text `pieces` make one after another, each ending at a line end (but the
    last): what follows a piece's last break is carried into the next, so a paragraph or a break that
    goes on into the next piece is read as in the whole text."""
    carry = ""
    for piece in pieces:
        text = carry + piece if carry else piece
        pos, line = yield from _before_last_break(text, 0, line)
        carry = text[pos:]
    yield from _paragraph(carry, line)


def _before_last_break(text: str, pos: int, line: int) -> Generator[tuple[int, str], None, tuple[int, int]]:
    """The paragraphs of `text` from `pos` (on line `line`) before its last break; then (returned) where
    the text after that break starts and its line."""
    for brk in _BREAK.finditer(text, pos):
        yield from _paragraph(text[pos : brk.start()], line)
        line += text.count("\n", pos, brk.end())
        pos = brk.end()
    return pos, line


def _lines(text: str) -> str:
    """`text` with every line end a line feed."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _header(text: str, whole: bool = True) -> tuple[str, int, int] | None:
    """(the header or '', where the paragraphs start, their first line) of a text whose line ends are
    line feeds; or None when `text` is only the start of the text (not `whole`) and what follows it
    could change that: it must hold its second line and something after it."""
    # Blank lines before the first line of text are no part of it (nor of the header).
    lead = _LEADING_BLANK.match(text)
    body = lead.end() if lead else 0
    line = 1 + text.count("\n", 0, body)
    first_end = text.find("\n", body)
    second_end = text.find("\n", first_end + 1) if first_end != -1 else -1
    later = second_end != -1 and _NON_SPACE.search(text, second_end + 1) is not None
    if not (whole or later):
        return None
    if later:
        first = text[body:first_end].strip()
        if first and len(first) <= MAX_HEADER and first[-1] != "." and not text[first_end + 1 : second_end].strip():
            return first, first_end + 1, line + 1
    return "", body, line


def parse(text: str, path: str) -> Collection:
    """The papers of a seed-format text (already decoded); `ReadError` when it holds no paragraph."""
    text = _lines(text)
    header, body, line = _header(text)
    return _collection(paragraphs(text, body, line), header, path)


HEAD = 65536
"""The characters of a text `parse_pieces` shows `fits` (at least: or the whole text when shorter)."""


def parse_pieces(pieces: Iterable[str], path: str, fits: Callable[[str], bool]) -> Collection | None:
    """`parse` of the text `pieces` make (each ending at a line end but the last), read a piece at a
    time; or None when `fits` says the text is not to be read as the seed format, given its start
    (`HEAD` characters and more, up to its header's decision, or the whole text when shorter)."""
    pieces = iter(pieces)
    head, found = "", None
    for piece in pieces:
        head += piece
        if len(head) >= HEAD and (found := _header(_lines(head), whole=False)) is not None:
            break
    if not fits(head):
        return None
    head = _lines(head)
    header, body, line = found or _header(head)
    return _collection(paragraphs_of(chain([head[body:]], map(_lines, pieces)), line), header, path)


def _collection(found: Iterable[tuple[int, str]], header: str, path: str) -> Collection:
    venue, year = venue_year(header)
    # (read as the papers are made: a long list's first abstracts are analysed while the rest is split)
    records = ({"text": paragraph, "source": path, "line": number, "venue": venue, "year": year} for number, paragraph in found)
    papers = papers_of(make_papers(records), path)
    if not papers:
        raise ReadError(path, "no abstracts found (expected one paragraph per abstract)")
    return Collection(papers=papers, header=header, venue=venue, year=year, sources=[path])
