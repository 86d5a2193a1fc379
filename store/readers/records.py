"""Turning one source record into a `Paper`, and papers into a `Collection`'s list (deduplicated)."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from store.model import Paper, paper_id
from store.names import derive_title
from store.text import display

_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
_SHORT_NAME = re.compile(r"^(\S{1,30}):\s")


def year_of(value: object) -> int | None:
    """The first plausible year (1800-2099) in a value such as 2024, '2024-05-01' or 'May 2024'."""
    match = _YEAR.search(str(value))
    return int(match.group(1)) if match else None


def make_paper(
    text: str,
    *,
    source: str,
    line: int,
    position: int = 0,
    title: str = "",
    authors: Iterable[str] = (),
    venue: str = "",
    year: int | None = None,
    urls: Iterable[str] = (),
    key: str = "",
    fields: Iterable[tuple[str, str]] = (),
) -> Paper:
    """A paper from its abstract `text` (may be empty when `title` is given) and what else the record says.

    A record without a true `title` gets one derived from its text; the name is taken from a
    true title of the form "NAME: ..." or else derived from the text. Links are the URLs in the
    text followed by the record's own `urls`."""
    text = text.strip()
    shown = display(text)
    derived, name = derive_title(shown.plain) if text else ("", "")
    if title:
        short = _SHORT_NAME.match(title)
        name = short.group(1) if short else name
    links = dict.fromkeys(shown.links)
    links.update(dict.fromkeys(u.strip() for u in urls if u and u.strip()))
    return Paper(
        id=paper_id(text or title or key),
        text=text,
        plain=shown.plain,
        title=title or derived,
        name=name,
        venue=venue,
        year=year,
        authors=tuple(a for a in authors if a),
        links=tuple(links),
        source=source,
        line=line,
        position=position,
        key=key,
        fields=tuple(fields),
    )


def unique(papers: Iterable[Paper], start: int = 0) -> list[Paper]:
    """`papers` without repeats of an id (the first one stays), numbered by position from `start`."""
    seen: set[str] = set()
    out: list[Paper] = []
    for paper in papers:
        if paper.id in seen:
            continue
        seen.add(paper.id)
        position = start + len(out)
        out.append(paper if paper.position == position else dataclasses.replace(paper, position=position))
    return out
