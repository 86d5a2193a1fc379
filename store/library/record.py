"""A paper's record as the library keeps it: the fields of a `triage list --format jsonl` row that say what
the paper is, under the names the jsonl reader reads back (so the library's papers are made by the very reader,
and boundary, every list goes through: `store.readers.library`), plus the ids the paper has.

`richness` says which of two records of the same paper says more: the one of a later version (`stage`), then the
one with more fields filled, then the longer; a record is replaced only by a richer one. A record's `arxiv` names
the version it is, when the paper said (`2401.01234v2`: `arxiv_version`). A record larger than `MOST_BYTES` is not kept (its paper's
marks are): `too_large` says so."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from store.common import json_out
from store.papers.matching import openreview_id
from store.papers.model import Paper

MOST_BYTES = 64 * 1024
"""The largest record kept (as JSON): an abstract of some 60,000 characters, a dozen times the longest in the corpora."""
TEXTS = ("title", "abstract", "venue", "track", "area", "tldr", "doi", "arxiv", "openreview", "key", "url", "pdf")
"""The record's fields that are a string."""
LISTS = ("authors", "keywords", "links")
"""The record's fields that are a list of strings (`year` is the one number)."""

PREPRINT, PUBLISHED = 1, 2
"""A record's stage (`stage`): an arXiv preprint; published (a venue other than arXiv); 0 is neither (no venue)."""
_VERSIONED_LINK = re.compile(r"arxiv\.org/(?:abs|pdf|html)/(?:\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})v(\d+)", re.I)
_VERSIONED_ID = re.compile(r"^(?:arxiv:)?(?:\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})v(\d+)$", re.I)
_ANNOUNCED = {"new": 1, "cross": 1, "replace": 2, "replace-cross": 2}
"""An arXiv listing's announce types, as versions: a new paper is v1, a replaced one at least v2."""


def arxiv_version(links: tuple[str, ...], fields: tuple[tuple[str, str], ...] = ()) -> int:
    """The arXiv version a paper is, when it says: an arxiv.org link naming one (the API's), an eprint naming one
    (a .bib's `2401.01234v2`), a listing's announce type (`_ANNOUNCED`); 0 when it does not say."""
    for link in links:
        found = _VERSIONED_LINK.search(link)
        if found:
            return int(found[1])
    for name, value in fields:
        if name in ("eprint", "arxiv") and (found := _VERSIONED_ID.match(value.strip())):
            return int(found[1])
        if name == "announce" and value in _ANNOUNCED:
            return _ANNOUNCED[value]
    return 0


def stage(venue: str, arxiv: str, version: int) -> tuple[int, int]:
    """How late a version is: published (`PUBLISHED`: a venue other than arXiv or CoRR), else `PREPRINT` (an arXiv
    id or venue), else 0; and its arXiv version (0: not said). `store.library.identity.later` compares them."""
    where = venue.strip().casefold()
    if where and not where.startswith(("arxiv", "corr")):
        return PUBLISHED, version
    return (PREPRINT if arxiv or where else 0), version


def record_stage(record: Mapping[str, Any]) -> tuple[int, int]:
    """The `stage` of a kept record."""
    arxiv = record.get("arxiv", "")
    found = _VERSIONED_ID.match(arxiv)
    return stage(record.get("venue", ""), arxiv, int(found[1]) if found else arxiv_version(tuple(record.get("links", ()))))


def paper_stage(paper: Paper) -> tuple[int, int]:
    """The `stage` of a paper of a list."""
    return stage(paper.venue, paper.arxiv, arxiv_version(paper.links, paper.fields) if paper.arxiv else 0)


def record_of(paper: Paper) -> dict[str, Any]:
    """What the library keeps of `paper`: its fields that are filled."""
    links = paper.links
    record: dict[str, Any] = {
        "title": paper.title, "abstract": paper.text, "authors": list(paper.authors), "venue": paper.venue,
        "year": paper.year, "track": paper.track, "keywords": list(paper.keywords), "area": paper.area,
        "tldr": paper.tldr, "doi": paper.doi,
        "arxiv": f"{paper.arxiv}v{version}" if paper.arxiv and (version := arxiv_version(links, paper.fields)) else paper.arxiv, "openreview": openreview_id(links),
        "key": paper.key, "url": links[0] if links else "", "pdf": paper.pdf, "links": list(links),
    }
    return {name: value for name, value in record.items() if value not in ("", None, [])}


RANK = 1_000_000_000
"""`richness` is the record's `stage` ranked (`rank`) times this, plus how much it says."""


def richness(record: Mapping[str, Any]) -> int:
    """How much `record` says: its `stage` first (a later version always says more), then its fields filled, then
    its length (a record with more fields says more)."""
    size = sum(len(value) if isinstance(value, str) else sum(map(len, value)) if isinstance(value, list) else 1
               for value in record.values())
    return rank(record_stage(record)) * RANK + len(record) * 10_000_000 + min(size, 9_999_999)


def rank(at: tuple[int, int]) -> int:
    """A `stage` as one number, later the larger (`unranked` undoes it)."""
    return at[0] * 1000 + min(at[1], 999)


def unranked(richness_of: int) -> tuple[int, int]:
    """The `stage` of the record of this `richness` (0, 0 for a record kept before stages were ranked)."""
    ranked = richness_of // RANK
    return ranked // 1000, ranked % 1000


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
