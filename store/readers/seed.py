"""The seed format: an optional header line and a blank line, then one abstract per paragraph.
Blank lines before the header, and spaces around it, are ignored.

A paragraph may be hard-wrapped over many lines; paragraphs are separated by one or more
blank lines. The header is a short first line (not ending in a full stop) followed by a
blank line, in any language; venue and year are read from it when it names them
("ICLR 2024 论文列表")."""
from __future__ import annotations

import re
from collections.abc import Iterator

from store.errors import ReadError
from store.model import Collection
from store.readers.records import make_papers, unique

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
    for brk in _BREAK.finditer(text, pos):
        yield from _paragraph(text[pos : brk.start()], line)
        line += text.count("\n", pos, brk.end())
        pos = brk.end()
    yield from _paragraph(text[pos:], line)


def parse(text: str, path: str) -> Collection:
    """The papers of a seed-format text (already decoded); `ReadError` when it holds no paragraph."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Blank lines before the first line of text are no part of it (nor of the header).
    lead = _LEADING_BLANK.match(text)
    body = lead.end() if lead else 0
    line = 1 + text.count("\n", 0, body)
    header = ""
    first_end = text.find("\n", body)
    second_end = text.find("\n", first_end + 1) if first_end != -1 else -1
    if second_end != -1:
        first = text[body:first_end].strip()
        if (first and len(first) <= MAX_HEADER and first[-1] != "." and not text[first_end + 1 : second_end].strip()
                and _NON_SPACE.search(text, second_end + 1)):
            header, body, line = first, first_end + 1, line + 1
    venue, year = venue_year(header)
    records = [{"text": paragraph, "source": path, "line": number, "venue": venue, "year": year}
               for number, paragraph in paragraphs(text, body, line)]
    if not records:
        raise ReadError(path, "no abstracts found (expected one paragraph per abstract)")
    return Collection(papers=unique(make_papers(records)), header=header, venue=venue, year=year, sources=[path])
