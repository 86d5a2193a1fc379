"""What a literal phrase (`"graph neural"`, `'Exact`) is matched against, as the engine (store.search.engine) checks
it on the texts stored in its index: `head` (where a phrase counts as in the title), `lower` (a text as a phrase is
looked for in it: lower-cased with single spaces, `flat`), and `literal_pattern` (a phrase's regex, for a cased one).
"""
from __future__ import annotations

import re

from store.papers.model import Paper, flat
from store.search.query import Term


def head(paper: Paper) -> str:
    """A paper's title with its name: where a phrase counts as in the title."""
    return f"{paper.title} {paper.name}"


def lower(text: str) -> str:
    """`text` as a phrase is looked for in it: lower-cased with single spaces."""
    return flat(text.lower())


def literal_pattern(term: Term) -> re.Pattern[str]:
    """The literal text of a phrase or 'exact term as a regex; any run of spaces matches any."""
    body = r"\s+".join(re.escape(part) for part in term.text.split())
    return re.compile(body, 0 if term.case_sensitive else re.IGNORECASE)
