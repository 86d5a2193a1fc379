"""A saved response of the arXiv API: an Atom feed, a paper per entry (`parse_atom`), read as the records
the tabular reader reads (as the snapshot's, `store.readers.arxiv`). The XML is read with expat and no
document type at all: a feed with a DOCTYPE is refused, so no entity is ever declared, expanded or fetched."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat

from store.common.errors import ReadError
from store.papers.model import Collection
from store.papers.model import arxiv_link as link
from store.readers.identifiers import arxiv_id
from store.readers.tabular import collect

ATOM = "http://www.w3.org/2005/Atom"
ARXIV = "http://arxiv.org/schemas/atom"


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


def parse_xml(parser: expat.XMLParserType, data: str | bytes, path: str) -> None:
    """Run the expat `parser` (its handlers set) over the whole of `data`, refusing any document type
    (entities can only be declared inside one); ReadError naming `path` and the line when the XML is
    malformed or has one. (The fetcher's reader of arXiv pages runs its parser through this too.)"""
    parser.StartDoctypeDeclHandler = _refuse_doctype
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise ReadError(path, f"not valid XML: {expat.ErrorString(exc.code)}", exc.lineno) from None
    except _NoDoctype:
        raise ReadError(path, "an XML document type (DOCTYPE) is not read: an Atom feed has none",
                        parser.CurrentLineNumber) from None


def tree(text: str, path: str) -> _Element:
    """The XML document `text` as a tree of `_Element`s; ReadError naming the line when it is
    malformed or has a document type (DTD)."""
    parser = expat.ParserCreate(namespace_separator="}")
    root = _Element("", {}, 0)
    stack = [root]

    def start(tag: str, attrs: dict[str, str]) -> None:
        element = _Element("{" + tag if "}" in tag else tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(element)
        stack.append(element)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _tag: stack.pop()
    parser.CharacterDataHandler = lambda data: stack[-1].text.append(data)
    parse_xml(parser, text, path)
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
        "url": page or link("abs", ident),
        "pdf_url": pdf or link("pdf", ident),
        "doi": entry.value(f"{{{ARXIV}}}doi"),
        "keywords": categories,
        "primary_area": primary.attrs.get("term", "") if primary is not None else (categories[:1] or [""])[0],
        "arxiv": ident,
        "comment": entry.value(f"{{{ARXIV}}}comment"),
    }


def parse_atom(text: str, path: str) -> Collection:
    """A saved arXiv API response: an Atom feed, a paper per entry."""
    feed = tree(text, path)
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
