"""The seed format: a header line, a blank line, then one abstract per paragraph."""
from __future__ import annotations

import re

from store.errors import ReadError
from store.model import Collection, Paper, paper_id
from store.names import derive_title
from store.text import find_links, inert

_VENUE_YEAR = re.compile(r"\b([A-Za-z][A-Za-z&\-]{1,15})\s*'?((?:19|20)\d\d)\b")
MAX_HEADER = 120


def decode(data: bytes, path: str) -> str:
    if b"\x00" in data:
        raise ReadError(path, "binary file, not a text list of abstracts")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(path, f"not UTF-8 text (byte {exc.start})") from None


def venue_year(header: str) -> tuple[str, int | None]:
    """('ICLR', 2024) from a header such as 'ICLR 2024 论文列表'; ('', None) when it names none."""
    match = _VENUE_YEAR.search(header)
    if not match:
        return "", None
    return match.group(1), int(match.group(2))


def parse(data: bytes, path: str) -> Collection:
    text = decode(data, path).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    header = ""
    start = 0
    if len(lines) > 1 and lines[0].strip() and not lines[1].strip() and len(lines[0].strip()) <= MAX_HEADER:
        header = lines[0].strip()
        start = 1
    venue, year = venue_year(header)
    papers: list[Paper] = []
    seen: set[str] = set()
    block: list[str] = []
    block_line = 0
    for number, line in enumerate(lines[start:] + [""], start=start + 1):
        if line.strip():
            if not block:
                block_line = number
            block.append(line.strip())
            continue
        if not block:
            continue
        abstract = " ".join(block)
        block = []
        pid = paper_id(abstract)
        if pid in seen:
            continue
        seen.add(pid)
        title, name = derive_title(abstract)
        papers.append(
            Paper(
                id=pid, text=abstract, plain=inert(abstract), title=title, name=name, venue=venue, year=year,
                links=find_links(abstract), source=path, line=block_line, position=len(papers),
            )
        )
    if not papers:
        raise ReadError(path, "no abstracts found (expected one paragraph per abstract)")
    return Collection(papers=papers, header=header, venue=venue, year=year, sources=[path])
