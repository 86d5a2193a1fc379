"""The records of the arXiv metadata snapshot (Kaggle's / OAI's JSON Lines), which the JSONL reader
recognises (`is_metadata`) and reads through `from_metadata` (the API's Atom feed is `store.readers.atom`'s).

Both become the records the tabular reader reads (title, abstract, authors, url, pdf_url, doi,
keywords, primary_area, arxiv, venue, year): the categories are the keywords, the primary
category is the area (the snapshot lists it first), the id gives the arXiv id (no version),
the abstract and PDF links."""
from __future__ import annotations

from typing import Any

from store.papers.latex import latex_text
from store.papers.model import arxiv_link as link
from store.readers.identifiers import arxiv_id
from store.readers.records import split_authors

_METADATA_KEYS = ("authors_parsed", "versions", "submitter", "update_date")


def is_metadata(record: dict[str, Any]) -> bool:
    """Whether a JSON record is one of the arXiv metadata snapshot's (id, categories, and its
    authors_parsed, versions, submitter or update_date)."""
    return "id" in record and isinstance(record.get("categories"), str) and any(k in record for k in _METADATA_KEYS)


def _name(parts: object) -> str:
    """'First Last Suffix' from authors_parsed's [last, first, suffix]."""
    if not isinstance(parts, list):
        return ""
    last, first, suffix = ([*map(str, parts), "", "", ""])[:3]
    return latex_text(" ".join(p for p in (first, last, suffix) if p.strip()))


def from_metadata(record: dict[str, Any]) -> dict[str, Any]:
    """A snapshot record as the tabular reader's record: its other fields (comments, report-no,
    license…) stay as they are, its versions and parsed authors are left out."""
    ident = arxiv_id(str(record["id"]))
    parsed = record.get("authors_parsed")
    authors = [n for n in map(_name, parsed) if n] if isinstance(parsed, list) else []
    if not authors and isinstance(record.get("authors"), str):
        authors = split_authors(latex_text(record["authors"]))
    versions = record.get("versions")
    first = versions[0] if isinstance(versions, list) and versions and isinstance(versions[0], dict) else {}
    categories = str(record["categories"]).split()
    rest = {k: v for k, v in record.items() if k not in ("id", "authors", "authors_parsed", "versions", "categories",
                                                           "journal-ref", "update_date", "doi", "title", "abstract")}
    return {
        **rest,
        "title": record.get("title") or "",
        "abstract": record.get("abstract") or "",
        "authors": authors,
        "year": first.get("created") or record.get("update_date") or "",
        "venue": record.get("journal-ref") or "arXiv",
        "url": link("abs", ident),
        "pdf_url": link("pdf", ident),
        "doi": record.get("doi") or "",
        "keywords": categories,
        "primary_area": categories[0] if categories else "",
        "arxiv": ident,
    }
