"""The seed format: an optional header line and a blank line, then one abstract per paragraph.

A paragraph may be hard-wrapped over many lines; paragraphs are separated by one or more
blank lines. The header is a short first line (not ending in a full stop) followed by a
blank line, in any language; venue and year are read from it when it names them
("ICLR 2024 论文列表")."""
from __future__ import annotations

import re

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


def parse(text: str, path: str) -> Collection:
    """The papers of a seed-format text (already decoded); `ReadError` when it holds no paragraph."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header = ""
    start = 0
    first = lines[0].strip()
    if first and len(first) <= MAX_HEADER and first[-1] != "." and len(lines) > 2 and not lines[1].strip():
        if any(line.strip() for line in lines[2:]):
            header, start = first, 1
    venue, year = venue_year(header)
    records = []
    block: list[str] = []
    block_line = 0
    for number, line in enumerate(lines[start:] + [""], start=start + 1):
        stripped = line.strip()
        if stripped:
            if not block:
                block_line = number
            block.append(stripped)
        elif block:
            records.append({"text": " ".join(block), "source": path, "line": block_line, "venue": venue, "year": year})
            block = []
    if not records:
        raise ReadError(path, "no abstracts found (expected one paragraph per abstract)")
    return Collection(papers=unique(make_papers(records)), header=header, venue=venue, year=year, sources=[path])
