"""CSL-JSON items (the citation data of Zotero, Mendeley, Paperpile and pandoc), which the JSON and JSON
Lines readers recognise (`is_item`) and read through `from_item`, as they read the arXiv snapshot's.

An item becomes the tabular reader's record: title, abstract, authors in order (each name object as
"particle family, suffix, given", BibTeX's order, or its `literal`; editors when there are no
authors; a string as the tabular reader splits one), year (the first of `issued`'s date parts, else a year in its `raw` or `literal`), venue
(`container-title`, else `event-title`, `event`), URL, DOI, citation key (`citation-key`, else an `id` that is
one), keywords (`keyword`, separated by commas or semicolons), arXiv id (a `number` such as Zotero's
"arXiv:2401.01234", the URL or the DOI), and volume, issue, pages, publisher, ISSN under their BibTeX
names; its other plain values stay as they are."""
from __future__ import annotations

import re
from typing import Any

from store.readers.identifiers import arxiv_id

_SIGNS = ("issued", "container-title", "citation-key", "DOI", "URL")
_KEY = re.compile(r"[^\s{}(),\"#%'=~\\]*[A-Za-z][^\s{}(),\"#%'=~\\]*")
"""An `id` that can be a citation key: a word with a letter in it (not a bare number)."""
_NAMED = {"volume": "volume", "issue": "number", "page": "pages", "publisher": "publisher", "ISSN": "issn"}
_TAKEN = {"id", "type", "title", "abstract", "author", "editor", "issued", "container-title", "event-title", "event",
          "URL", "DOI", "citation-key", "keyword", "number", *_NAMED}


def is_item(record: dict[str, Any]) -> bool:
    """Whether a JSON record is a CSL-JSON item: a `type` string and a list of name objects, an `issued` date,
    a `container-title`, a `citation-key`, a `DOI` or a `URL` (the upper-case names are CSL's)."""
    if not isinstance(record.get("type"), str):
        return False
    names = record.get("author") or record.get("editor")
    return any(sign in record for sign in _SIGNS) or (isinstance(names, list) and any(isinstance(n, dict) for n in names))


def _name(value: object) -> str:
    if not isinstance(value, dict):
        return str(value) if isinstance(value, str) else ""
    if value.get("literal"):
        return str(value["literal"])
    family, suffix, given = (" ".join(" ".join(str(value.get(part) or "") for part in parts).split()) for parts in (
        ("dropping-particle", "non-dropping-particle", "family"), ("suffix",), ("given",)))
    if not family or not given:
        return " ".join(filter(None, (given, family, suffix)))
    return ", ".join(filter(None, (family, suffix, given)))


def _year(issued: object) -> object:
    if not isinstance(issued, dict):
        return issued if isinstance(issued, (str, int)) else ""
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return parts[0][0]
    return issued.get("raw") or issued.get("literal") or ""


def from_item(record: dict[str, Any]) -> dict[str, Any]:
    """A CSL-JSON item as the tabular reader's record."""
    names = record.get("author") or record.get("editor") or []
    key = str(record.get("citation-key") or "")
    if not key and isinstance(record.get("id"), str) and _KEY.fullmatch(record["id"]):
        key = record["id"]
    found = (arxiv_id(str(record.get(name) or "")) for name in ("number", "URL", "DOI"))
    rest = {k: v for k, v in record.items() if k not in _TAKEN}
    return {
        **rest,
        **{ours: record[theirs] for theirs, ours in _NAMED.items() if record.get(theirs)},
        "title": record.get("title") or "",
        "abstract": record.get("abstract") or "",
        "authors": [n for n in map(_name, names) if n.strip()] if isinstance(names, list) else names,
        "year": _year(record.get("issued")) or record.get("year") or "",
        "venue": record.get("container-title") or record.get("event-title") or record.get("event") or "",
        "url": record.get("URL") or "",
        "doi": record.get("DOI") or "",
        "key": key,
        "keywords": record.get("keyword") or "",
        "arxiv": next(filter(None, found), ""),
        "type": record["type"],
    }
