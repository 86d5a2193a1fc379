"""arXiv's own formats: a saved response of the arXiv API (an Atom feed, `parse_atom`), and the
records of the arXiv metadata snapshot (Kaggle's / OAI's JSON Lines), which the JSONL reader
recognises (`is_metadata`) and reads through `from_metadata`.

Both become the records the tabular reader reads (title, abstract, authors, url, pdf_url, doi,
keywords, primary_area, arxiv, venue, year): the categories are the keywords, the primary
category is the area (the snapshot lists it first), the id gives the arXiv id (no version),
the abstract and PDF links. The XML is read with expat and no document type at all: a feed
with a DOCTYPE is refused, so no entity is ever declared, expanded or fetched."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat

from store.errors import ReadError
from store.latex import latex_text
from store.model import Collection
from store.readers.identifiers import arxiv_id
from store.readers.records import split_authors

ATOM = "http://www.w3.org/2005/Atom"
ARXIV = "http://arxiv.org/schemas/atom"
_METADATA_KEYS = ("authors_parsed", "versions", "submitter", "update_date")


def _link(kind: str, ident: str) -> str:
    return f"https://arxiv.org/{kind}/{ident}" if ident else ""


# --- the metadata snapshot (JSON Lines) -------------------------------------------------------


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
        "url": _link("abs", ident),
        "pdf_url": _link("pdf", ident),
        "doi": record.get("doi") or "",
        "keywords": categories,
        "primary_area": categories[0] if categories else "",
        "arxiv": ident,
    }


# --- the API's Atom feed ----------------------------------------------------------------------


@dataclass(slots=True)
class _Element:
    tag: str
    """'{namespace}name', as ElementTree spells it."""
    attrs: dict[str, str]
    line: int
    text: list[str] = field(default_factory=list)
    children: list[_Element] = field(default_factory=list)

    def all(self, tag: str) -> Iterator[_Element]:
        return (child for child in self.children if child.tag == tag)

    def first(self, tag: str) -> _Element | None:
        return next(self.all(tag), None)

    def value(self, tag: str) -> str:
        found = self.first(tag)
        return " ".join("".join(found.text).split()) if found is not None else ""


class _NoDoctype(Exception):
    pass


def _refuse_doctype(*_: object) -> None:
    raise _NoDoctype


def _tree(text: str, path: str) -> _Element:
    """The XML document `text` as a tree of `_Element`s; ReadError naming the line when it is
    malformed or has a document type (DTD)."""
    parser = expat.ParserCreate(namespace_separator="}")
    parser.StartDoctypeDeclHandler = _refuse_doctype  # entities can only be declared inside one
    root = _Element("", {}, 0)
    stack = [root]

    def start(tag: str, attrs: dict[str, str]) -> None:
        element = _Element("{" + tag if "}" in tag else tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(element)
        stack.append(element)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _tag: stack.pop()
    parser.CharacterDataHandler = lambda data: stack[-1].text.append(data)
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise ReadError(path, f"not valid XML: {expat.ErrorString(exc.code)}", exc.lineno) from None
    except _NoDoctype:
        raise ReadError(path, "an XML document type (DOCTYPE) is not read: an Atom feed has none",
                        parser.CurrentLineNumber) from None
    return root.children[0]


def _entry(entry: _Element) -> dict[str, Any]:
    ident = arxiv_id(entry.value(f"{{{ATOM}}}id"))
    links = list(entry.all(f"{{{ATOM}}}link"))
    pdf = next((link.attrs.get("href", "") for link in links if link.attrs.get("title") == "pdf"), "")
    page = next((link.attrs.get("href", "") for link in links if link.attrs.get("rel", "alternate") == "alternate"), "")
    primary = entry.first(f"{{{ARXIV}}}primary_category")
    categories = [c.attrs.get("term", "") for c in entry.all(f"{{{ATOM}}}category")]
    summary = entry.first(f"{{{ATOM}}}summary")
    return {
        "title": entry.value(f"{{{ATOM}}}title"),
        "abstract": "".join(summary.text) if summary is not None else "",
        "authors": [a.value(f"{{{ATOM}}}name") for a in entry.all(f"{{{ATOM}}}author")],
        "year": entry.value(f"{{{ATOM}}}published"),
        "venue": entry.value(f"{{{ARXIV}}}journal_ref") or "arXiv",
        "url": page or _link("abs", ident),
        "pdf_url": pdf or _link("pdf", ident),
        "doi": entry.value(f"{{{ARXIV}}}doi"),
        "keywords": categories,
        "primary_area": primary.attrs.get("term", "") if primary is not None else (categories[:1] or [""])[0],
        "arxiv": ident,
        "comment": entry.value(f"{{{ARXIV}}}comment"),
    }


def parse_atom(text: str, path: str) -> Collection:
    """A saved arXiv API response: an Atom feed, a paper per entry."""
    from store.readers.tabular import collect  # (tabular recognises the snapshot's records through this module)

    feed = _tree(text, path)
    if feed.tag != f"{{{ATOM}}}feed":
        raise ReadError(path, f"not an Atom feed (the document is a <{feed.tag.rpartition('}')[2]}>)", feed.line)
    entries = list(feed.all(f"{{{ATOM}}}entry"))
    for entry in entries:
        if "/api/errors" in entry.value(f"{{{ATOM}}}id"):
            raise ReadError(path, f"the arXiv API answered with an error: {entry.value(f'{{{ATOM}}}summary')}", entry.line)
    if not entries:
        raise ReadError(path, "an Atom feed without entries (the query found no papers)")
    collection = collect(((e.line, f"{path}:{e.line}", _entry(e)) for e in entries), path, [])
    collection.header = feed.value(f"{{{ATOM}}}title")
    return collection
