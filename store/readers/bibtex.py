"""BibTeX through bibtexparser v2: every entry is a paper, one with neither title nor abstract (a
`@set`, a stub) listed under its key as its title, unless its key repeats an earlier entry's or it
has none (skipped with a warning), or it is a `@proceedings` (the volume whose venue and year its
papers take).

`@string` macros and `#` concatenation are resolved as BibTeX does (macro names in any case, a
macro defined by others), bare month macros (`month = jan`) and undefined macros kept as their
names, comments and `@preamble` ignored; an entry lacking venue or year takes them from its
`crossref` parent or the file's one `@proceedings` entry. LaTeX in title, authors, venue and
keywords is decoded (pylatexenc); the abstract keeps its LaTeX for `store.papers.text` to render, its
hard-wrapped lines joined (paragraph breaks kept). A broken entry is skipped with a warning naming
its line; the rest load.

`Paper.fields` holds the entry's type and every field but the abstract as written (TeX kept, in
source order, names in lower case): what a citation writes back (`store.cite.citations`). Decoded from them:
title, authors (else editors), venue, year, links (url, doi), keywords (`keywords`), doi (bare),
arxiv (an `eprint` of `archiveprefix`/`eprinttype` arXiv, or an arxiv.org url) and, for an arXiv
eprint, area (`primaryclass`)."""
from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.middlewares import NormalizeFieldKeys, RemoveEnclosingMiddleware
from bibtexparser.middlewares.names import split_multiple_persons_names
from bibtexparser.model import DuplicateBlockKeyBlock, Entry

from store.common.errors import ReadError
from store.papers.latex import latex_text
from store.papers.model import Collection, replaced
from store.readers.identifiers import arxiv_id, bare_doi, keyword_list
from store.readers.records import make_paper, year_of
from store.readers.uniques import unique

UNTITLED = "UNTITLED"
"""The field kept (empty) on a paper made of an entry with neither title nor abstract, listed under
its key: a citation writes no title for it (see `store.cite.citations`)."""
_PARSE = (RemoveEnclosingMiddleware(), NormalizeFieldKeys())
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)


class _Messages(logging.Handler):
    """Collects what bibtexparser logs while one file is parsed (it explains broken blocks there)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _captured() -> Iterator[_Messages]:
    logger = logging.getLogger("bibtexparser")
    handler = _Messages()
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def looks_like_bibtex(text: str) -> bool:
    """Whether `text` holds at least one `@type{` entry start at the beginning of a line."""
    return _ENTRY.search(text) is not None


def _reason(messages: list[str], line: int) -> str:
    for message in messages:
        if f"(line {line})" in message and "\n" in message:
            return message.split("\n", 1)[1].strip()
    return "syntax error"


# A `#` outside braces and quotes joins the parts of a value written without enclosing.
_PART = re.compile(r'\s*("[^"]*"|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}|[^#"{}\s]+)\s*(?:#|$)')


def _joined(expression: str, macros: dict[str, str]) -> str:
    """A value written without enclosing (`jean # " " # cesar`, `nips`, `2024`) as BibTeX reads it:
    quoted and braced parts as written, numbers as they are, a macro (any case) as its value; an
    undefined macro (`jan`, which every style defines) stays its name. An expression that is not
    one of these is kept as written."""
    parts = []
    at = 0
    while at < len(expression):
        match = _PART.match(expression, at)
        if not match or match.end() == at:
            return expression
        part, at = match.group(1), match.end()
        parts.append(part[1:-1] if part[0] in "\"{" else macros.get(part.casefold(), part))
    return "".join(parts)


def _resolve(library: Library, entries: list[Entry]) -> None:
    """Resolve, in place, every field of `entries` written without enclosing (see `_joined`), with
    the file's `@string` macros, each defined (as in BibTeX) by those before it."""
    macros: dict[str, str] = {}
    for string in library.strings:
        value = str(string.value)
        macros[string.key.casefold()] = _joined(value, macros) if string.enclosing == "no-enclosing" else value
    for entry in entries:
        for field in entry.fields:
            if field.enclosing == "no-enclosing":
                field.value = _joined(str(field.value), macros)


def _value(entry: Entry, key: str) -> str:
    field = entry.fields_dict.get(key)
    return "" if field is None else str(field.value)


def _venue(entry: Entry) -> str:
    return _value(entry, "booktitle") or _value(entry, "journal") or _value(entry, "journaltitle")


def _arxiv(entry: Entry) -> dict[str, str]:
    """The arXiv id of an arXiv eprint, with its primary class as the paper's area; else the id of
    an arxiv.org url (or arXiv DOI); {} for none."""
    prefix = (_value(entry, "archiveprefix") or _value(entry, "eprinttype")).strip().casefold()
    eprint = _value(entry, "eprint").strip()
    own = arxiv_id(eprint) if prefix == "arxiv" or (not prefix and eprint.casefold().startswith("arxiv:")) else ""
    if own:
        return {"arxiv": own, "area": _value(entry, "primaryclass").strip()}
    linked = arxiv_id(_value(entry, "url")) or arxiv_id(_value(entry, "doi"))
    return {"arxiv": linked} if linked else {}


def parse(text: str, path: str) -> Collection:
    """The papers of a BibTeX text (already decoded); `ReadError` when it holds no entry at all."""
    with _captured() as log:
        try:
            library = bibtexparser.parse_string(text, parse_stack=_PARSE)
        except Exception as exc:  # bibtexparser raises assorted errors on pathological input
            raise ReadError(path, f"not readable as BibTeX ({exc.__class__.__name__})") from None
    entries = list(library.entries)
    warnings = []
    for block in library.failed_blocks:
        if isinstance(block, DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, Entry):
            repeat = block.ignore_error_block  # (the parse stack passes over these: apply it here)
            for middleware in _PARSE:
                repeat = middleware.transform_entry(repeat, library)
            entries.append(repeat)
            continue
        line = (block.start_line or 0) + 1
        warnings.append(f"{path}:{line}: skipped a broken BibTeX entry: {_reason(log.messages, block.start_line or 0)}")
    entries.sort(key=lambda entry: entry.start_line or 0)
    _resolve(library, entries)
    by_key = {entry.key: entry for entry in entries}
    proceedings = [entry for entry in entries if entry.entry_type.lower() == "proceedings"]
    papers = []
    seen: set[str] = set()
    for entry in entries:
        parent = by_key.get(_value(entry, "crossref")) or (proceedings[0] if len(proceedings) == 1 else None)
        title = latex_text(_value(entry, "title"))
        abstract = "\n\n".join(" ".join(p.split()) for p in _PARAGRAPH.split(_value(entry, "abstract")) if p.strip())
        first = entry.key not in seen
        seen.add(entry.key)
        untitled = not title and not abstract
        if untitled and entry.entry_type.lower() == "proceedings":  # the volume: its papers take its venue, year
            continue
        if untitled and not (entry.key and first):
            what = f"repeats the key {entry.key} and has" if entry.key else "has no key and"
            warnings.append(f"{path}:{(entry.start_line or 0) + 1}: skipped an entry that {what} no title or abstract")
            continue
        people = _value(entry, "author") or _value(entry, "editor")
        doi = bare_doi(_value(entry, "doi"))
        paper = make_paper(
            abstract,
            source=path,
            line=(entry.start_line or 0) + 1,
            title=title or entry.key,
            authors=[latex_text(a) for a in split_multiple_persons_names(people)],
            venue=latex_text(_venue(entry) or (_venue(parent) if parent else "")),
            year=year_of(_value(entry, "year") or _value(entry, "date"))
            or (year_of(_value(parent, "year") or _value(parent, "date")) if parent else None),
            urls=[_value(entry, "url"), f"https://doi.org/{doi}" if doi else _value(entry, "doi")],
            key=entry.key,
            fields=(("ENTRYTYPE", entry.entry_type),) + ((UNTITLED, ""),) * untitled
            + tuple((f.key, str(f.value)) for f in entry.fields if f.key != "abstract"),
        )
        keywords = tuple(filter(None, map(latex_text, keyword_list(_value(entry, "keywords")))))
        papers.append(replaced(paper, doi=doi, keywords=keywords, **_arxiv(entry)))
    if not papers:
        where = f" ({len(warnings)} broken)" if warnings else ""
        raise ReadError(path, f"no BibTeX entries with a key, title or abstract{where}")
    return Collection(papers=unique(papers), sources=[path], warnings=warnings)
