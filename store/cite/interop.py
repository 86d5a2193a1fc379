"""RIS and CSL-JSON: the formats Zotero, Mendeley, EndNote and Paperpile exchange, written so that the
readers (`store.readers.ris`, `store.readers.csl`) and those programs read every paper back.

Each paper gives its citation key (RIS `ID`, CSL `id`), type (from its BibTeX type, see
`store.cite.citations.entry_type`), title, authors in order (family, given, suffix: `store.cite.persons`),
year, venue (RIS `T2`, CSL `container-title`), volume, issue, pages, publisher, DOI, arXiv id (RIS `AN`,
CSL `number`, as Zotero writes a preprint's "arXiv:ID"), own url, PDF (RIS `L1`), keywords and abstract
(the text as the list has it, so the paper read back keeps its id). A RIS value is one line: whitespace
runs, paragraph breaks included, become one space (a line break would start a tag); CSL-JSON keeps them.
A paper read from BibTeX gives its volume, pages and the like decoded from LaTeX.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from store.cite.citations import ENTRY_TYPE, doi_of, entry_type, own_url, source_fields
from store.cite.persons import persons
from store.common.json_out import dumps
from store.papers.inert import inert
from store.papers.latex import latex_text
from store.papers.model import Paper, single_spaced

_KINDS = {
    "article": ("JOUR", "article-journal"), "inproceedings": ("CPAPER", "paper-conference"),
    "conference": ("CPAPER", "paper-conference"), "proceedings": ("CONF", "book"), "book": ("BOOK", "book"),
    "inbook": ("CHAP", "chapter"), "incollection": ("CHAP", "chapter"), "phdthesis": ("THES", "thesis"),
    "mastersthesis": ("THES", "thesis"), "thesis": ("THES", "thesis"), "techreport": ("RPRT", "report"),
    "report": ("RPRT", "report"), "unpublished": ("UNPB", "manuscript"), "online": ("ELEC", "webpage"),
    "electronic": ("ELEC", "webpage"), "www": ("ELEC", "webpage"),
}
"""A BibTeX type → (its RIS type, its CSL type); any other is generic: RIS GEN, CSL article."""
_OTHER = ("GEN", "article")
_DETAILS = ("volume", "number", "pages", "publisher", "issn", "isbn")
"""The other fields a citation needs, under their BibTeX names (as the readers keep them)."""
_NAMED = frozenset({*_DETAILS, ENTRY_TYPE})
_PAGES = re.compile(r"\s*-+\s*|\s*–\s*")


def _line(value: str) -> str:
    """`value` inert, its whitespace runs one space each (a long one, an abstract, mostly is so already: looked at
    rather than split into its words)."""
    value = inert(value)
    return value if len(value) > 200 and single_spaced(value) else " ".join(value.split())


def _details(paper: Paper) -> dict[str, str]:
    """The paper's volume, number, pages, publisher, ISSN and ISBN that it has, decoded from LaTeX when read from BibTeX."""
    fields = source_fields(paper, _NAMED)
    if not fields:  # (most papers: nothing to decode)
        return {}
    decode = latex_text if ENTRY_TYPE in fields else _line
    return {name: value for name in _DETAILS if (value := decode(fields.get(name, "")))}


def _pages(pages: str) -> tuple[str, str]:
    """A page range as (first, last): '12--20' → ('12', '20'); one page → (it, '')."""
    first, _, last = _PAGES.sub("\0", pages, count=1).partition("\0")
    return first, last


# --- RIS ----------------------------------------------------------------------------------------


def _ris_record(paper: Paper, key: str) -> Iterator[tuple[str, str]]:
    kind = entry_type(paper)
    yield "TY", _KINDS.get(kind, _OTHER)[0]
    yield "ID", key
    yield "TI", paper.title
    for person in persons(paper):
        yield "AU", ", ".join(part for part in person if part)
    yield "PY", str(paper.year or "")
    yield "T2", paper.venue
    details = _details(paper)
    first, last = _pages(details.get("pages", ""))
    yield from (("VL", details.get("volume", "")), ("IS", details.get("number", "")), ("SP", first), ("EP", last),
                ("PB", details.get("publisher", "")), ("SN", details.get("issn") or details.get("isbn", "")))
    yield "DO", doi_of(paper)
    yield "AN", f"arXiv:{paper.arxiv}" if paper.arxiv else ""
    yield "UR", own_url(paper)
    yield "L1", paper.pdf if paper.pdf != own_url(paper) else ""
    for keyword in paper.keywords:
        yield "KW", keyword
    yield "AB", paper.text


def ris(papers: Sequence[Paper], keys: Mapping[str, str]) -> Iterator[str]:
    """A RIS file of `papers`, one record each, in order (`TY` first, `ER` last, a blank line between), in parts (a
    record each) to be written one after the other."""
    for n, paper in enumerate(papers):
        lines = [f"{tag}  - {line}" for tag, value in _ris_record(paper, keys[paper.id]) if value and (line := _line(value))]
        yield ("\n" if n else "") + "\n".join([*lines, "ER  - "]) + "\n"


# --- CSL-JSON -----------------------------------------------------------------------------------


def _csl_item(paper: Paper, key: str) -> dict[str, object]:
    details = _details(paper)
    item: dict[str, object] = {"id": key, "type": _KINDS.get(entry_type(paper), _OTHER)[1], "title": _line(paper.title)}
    names = [{k: v for k, v in person._asdict().items() if v} for person in persons(paper)]
    if names:
        item["author"] = names
    if paper.year:
        item["issued"] = {"date-parts": [[paper.year]]}
    first, last = _pages(details.get("pages", ""))
    values = {
        "container-title": _line(paper.venue), "volume": details.get("volume"), "issue": details.get("number"),
        "page": f"{first}-{last}" if last else first, "publisher": details.get("publisher"),
        "ISSN": details.get("issn"), "ISBN": details.get("isbn"), "DOI": doi_of(paper),
        "number": f"arXiv:{paper.arxiv}" if paper.arxiv else "", "URL": own_url(paper),
        "keyword": ", ".join(paper.keywords), "abstract": paper.text,
    }
    item.update((name, value) for name, value in values.items() if value)
    return item


def csl_json(papers: Sequence[Paper], keys: Mapping[str, str]) -> Iterator[str]:
    """A CSL-JSON array of `papers`, one item each, in order, an item a line, in parts (an item each) to be written
    one after the other."""
    yield "[\n"
    for n, paper in enumerate(papers):
        yield (",\n" if n else "") + dumps(_csl_item(paper, keys[paper.id]))
    yield "\n]\n"
