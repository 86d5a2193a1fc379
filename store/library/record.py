"""A paper's record as the library keeps it: the fields of a `triage list --format jsonl` row that say what
the paper is, under the names the jsonl reader reads back (so the library's papers are made by the very reader,
and boundary, every list goes through: `store.readers.library`), plus the ids the paper has.

`richness` says which of two records of the same paper says more: the one with more fields filled, then the
longer; a record is replaced only by a richer one. A record larger than `MOST_BYTES` is not kept (its paper's
marks are): `too_large` says so."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from store.common import json_out
from store.papers.model import Paper

MOST_BYTES = 64 * 1024
"""The largest record kept (as JSON): an abstract of some 60,000 characters, a dozen times the longest in the corpora."""
_OPENREVIEW = re.compile(r"openreview\.net/(?:forum|pdf)\?id=([A-Za-z0-9_\-]+)")
TEXTS = ("title", "abstract", "venue", "track", "area", "tldr", "doi", "arxiv", "openreview", "key", "url", "pdf")
"""The record's fields that are a string."""
LISTS = ("authors", "keywords", "links")
"""The record's fields that are a list of strings (`year` is the one number)."""


def openreview_id(links: tuple[str, ...]) -> str:
    """The OpenReview id in the first of `links` on openreview.net that has one; ''."""
    for link in links:
        found = _OPENREVIEW.search(link)
        if found:
            return found[1]
    return ""


def record_of(paper: Paper) -> dict[str, Any]:
    """What the library keeps of `paper`: its fields that are filled."""
    links = paper.links
    record: dict[str, Any] = {
        "title": paper.title, "abstract": paper.text, "authors": list(paper.authors), "venue": paper.venue,
        "year": paper.year, "track": paper.track, "keywords": list(paper.keywords), "area": paper.area,
        "tldr": paper.tldr, "doi": paper.doi, "arxiv": paper.arxiv, "openreview": openreview_id(links),
        "key": paper.key, "url": links[0] if links else "", "pdf": paper.pdf, "links": list(links),
    }
    return {name: value for name, value in record.items() if value not in ("", None, [])}


def richness(record: Mapping[str, Any]) -> int:
    """How much `record` says: its fields filled, then its length (a record with more fields always says more)."""
    size = sum(len(value) if isinstance(value, str) else sum(map(len, value)) if isinstance(value, list) else 1
               for value in record.values())
    return len(record) * 10_000_000 + min(size, 9_999_999)


def size_of(record: Mapping[str, Any]) -> int:
    """The bytes `record` takes as JSON."""
    return len(json_out.dumps(record).encode("utf-8", "surrogatepass"))


def too_large(pid: str, size: int) -> str:
    """What the user is told of a record not kept for its size."""
    return f"paper {pid}: its record ({size:,} bytes) is larger than the {MOST_BYTES:,} kept; its marks are kept, its record is not"


def checked(record: object) -> dict[str, Any] | None:
    """`record` read from a file (ours, a sync folder's, a backup) when it is shaped as a record: its known
    fields of the right types, the others dropped; None when it is not an object. Its texts are not made
    inert here: every record becomes a paper through the list reader (`store.readers.library`), which does."""
    if not isinstance(record, dict):
        return None
    out: dict[str, Any] = {}
    for name in TEXTS:
        if isinstance(record.get(name), str) and record[name]:
            out[name] = record[name]
    for name in LISTS:
        value = record.get(name)
        if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
            out[name] = value
    year = record.get("year")
    if type(year) is int:
        out["year"] = year
    return out
