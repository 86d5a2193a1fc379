"""A saved arXiv announcement feed (RSS 2.0 from rss.arxiv.org, saved by `store.fetch.announced`): a paper
per `<item>`, read as the records the tabular reader reads (as the API's Atom entries, `store.readers.atom`).

An item's description is `arXiv:ID Announce Type: TYPE Abstract: TEXT`: the abstract is what follows
`Abstract:`; the announce type (`arxiv:announce_type`, else the description's) is kept as the paper's
`announce` field (`store.papers.slots`); the authors are `dc:creator`, one string; the categories
the keywords, the first the area. Read with expat and no document type, as the Atom feed is."""
from __future__ import annotations

import re
from typing import Any

from store.common.errors import ReadError
from store.papers.model import Collection
from store.papers.model import arxiv_link as link
from store.readers.atom import ARXIV, tree
from store.readers.identifiers import arxiv_id
from store.readers.tabular import collect

DC = "http://purl.org/dc/elements/1.1/"
_DESCRIBED = re.compile(r"\s*arXiv:\S+\s+Announce Type:\s*([\w-]+)\s+Abstract:\s*", re.IGNORECASE)


def _item(item: Any) -> dict[str, Any]:
    described = item.first("description")
    text = "".join(described.text) if described is not None else ""
    head = _DESCRIBED.match(text)
    page = item.value("link")
    ident = arxiv_id(page) or arxiv_id(item.value("guid").rpartition(":")[2])
    categories = [" ".join("".join(c.text).split()) for c in item.all("category")]
    return {
        "title": item.value("title"),
        "abstract": text[head.end():] if head else text,
        "authors": item.value(f"{{{DC}}}creator"),
        "year": item.value("pubDate"),
        "venue": item.value(f"{{{ARXIV}}}journal_reference") or "arXiv",
        "url": page or link("abs", ident),
        "pdf_url": link("pdf", ident),
        "doi": item.value(f"{{{ARXIV}}}DOI"),
        "keywords": categories,
        "primary_area": categories[0] if categories else "",
        "arxiv": ident,
        "announce": item.value(f"{{{ARXIV}}}announce_type") or (head.group(1) if head else ""),
    }


def parse_rss(text: str, path: str) -> Collection:
    """A saved arXiv announcement feed: an RSS channel, a paper per item."""
    feed = tree(text, path)
    if feed.tag != "rss":
        raise ReadError(path, f"not an RSS feed (the document is a <{feed.tag.rpartition('}')[2]}>)", feed.line)
    channel = feed.first("channel")
    items = list(channel.all("item")) if channel is not None else []
    if not items:
        raise ReadError(path, "an RSS feed without items (arXiv announced nothing that day)")
    collection = collect(((i.line, f"{path}:{i.line}", _item(i)) for i in items), path, [])
    collection.header = channel.value("title") if channel is not None else ""
    return collection
