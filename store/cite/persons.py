"""A paper's authors as the parts RIS and CSL-JSON write them in: family name, given names, suffix.

A name is split by BibTeX's rules (bibtexparser's): "First von Last", "von Last, First" and
"von Last, Jr, First" all work, the particle kept with the family name ("van Beethoven"). A paper
read from BibTeX is split from its `author` field as written, so a braced corporate author
(`{IEEE Computer Society}`) stays one family name; any other name holding braces or backslashes
is written whole, as the family name.
"""
from __future__ import annotations

from typing import NamedTuple

from functools import lru_cache

from store.cite.citations import ENTRY_TYPE, TYPED, source_fields
from store.papers.latex import latex_text
from store.papers.model import Paper


class Person(NamedTuple):
    family: str
    given: str = ""
    suffix: str = ""


def persons(paper: Paper) -> list[Person]:
    """The parts of each of the paper's authors, in order (a name that is only commas or spaces left out)."""
    from bibtexparser.middlewares.names import split_multiple_persons_names  # (only when RIS or CSL-JSON is written)

    raw = source_fields(paper, TYPED)
    if ENTRY_TYPE in raw:  # read from BibTeX: the names as written, braces and all
        written = split_multiple_persons_names(raw.get("author") or raw.get("editor") or "")
        if len(written) == len(paper.authors):
            return [person for person in (_parts(name, decode=True) for name in written) if any(person)]
    found = (_parts(name) if not set(name) & set("{}\\") else Person(" ".join(name.split())) for name in paper.authors)
    return [person for person in found if any(person)]


@lru_cache(maxsize=1 << 16)
def _parts(name: str, decode: bool = False) -> Person:
    """A name's parts, kept for the names seen most (an author writes many papers)."""
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    text = latex_text if decode else (lambda value: " ".join(value.split()))
    parts = parse_single_name_into_parts(name, strict=False)
    family = text(" ".join(parts.von + parts.last))
    return Person(family, text(" ".join(parts.first)), text(" ".join(parts.jr)))
