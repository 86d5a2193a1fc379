"""BibTeX through bibtexparser v2: every entry is a paper, one with neither title nor abstract (a
`@set`, a stub) listed under its key as its title, unless its key repeats an earlier entry's or it
has none (skipped with a warning), or it is a `@proceedings` (the volume whose venue and year its
papers take).

`@string` macros and `#` concatenation are resolved, bare month macros (`month = jan`) kept
as text, comments and `@preamble` ignored; an entry lacking venue or year takes them from its
`crossref` parent or the file's one `@proceedings` entry. LaTeX in title, authors and venue is
decoded (pylatexenc); the abstract keeps its LaTeX for `store.text` to render, its hard-wrapped
lines joined (paragraph breaks kept). A broken entry is skipped with a warning naming its line;
the rest load."""
from __future__ import annotations

import logging
import re
from contextlib import contextmanager
from collections.abc import Iterator

import bibtexparser
from bibtexparser.middlewares import NormalizeFieldKeys
from bibtexparser.middlewares.names import split_multiple_persons_names
from bibtexparser.model import DuplicateBlockKeyBlock, Entry

from store.errors import ReadError
from store.model import Collection
from store.readers.records import make_paper, unique, year_of
from store.text import latex_text

UNTITLED = "UNTITLED"
"""The field kept (empty) on a paper made of an entry with neither title nor abstract, listed under
its key: a citation writes no title for it (see `store.cite`)."""
_MAIN = {"title", "author", "editor", "year", "date", "booktitle", "journal", "journaltitle", "abstract", "url", "doi"}
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


def _value(entry: Entry, key: str) -> str:
    field = entry.fields_dict.get(key)
    return "" if field is None else str(field.value)


def _venue(entry: Entry) -> str:
    return _value(entry, "booktitle") or _value(entry, "journal") or _value(entry, "journaltitle")


def parse(text: str, path: str) -> Collection:
    """The papers of a BibTeX text (already decoded); `ReadError` when it holds no entry at all."""
    with _captured() as log:
        try:
            library = bibtexparser.parse_string(text, append_middleware=[NormalizeFieldKeys()])
        except Exception as exc:  # bibtexparser raises assorted errors on pathological input
            raise ReadError(path, f"not readable as BibTeX ({exc.__class__.__name__})") from None
    entries = list(library.entries)
    warnings = []
    for block in library.failed_blocks:
        if isinstance(block, DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, Entry):
            entries.append(block.ignore_error_block)
            continue
        line = (block.start_line or 0) + 1
        warnings.append(f"{path}:{line}: skipped a broken BibTeX entry: {_reason(log.messages, block.start_line or 0)}")
    entries.sort(key=lambda entry: entry.start_line or 0)
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
        doi = _value(entry, "doi").strip()
        papers.append(
            make_paper(
                abstract,
                source=path,
                line=(entry.start_line or 0) + 1,
                title=title or entry.key,
                authors=[latex_text(a) for a in split_multiple_persons_names(people)],
                venue=latex_text(_venue(entry) or (_venue(parent) if parent else "")),
                year=year_of(_value(entry, "year") or _value(entry, "date"))
                or (year_of(_value(parent, "year") or _value(parent, "date")) if parent else None),
                urls=[_value(entry, "url"), f"https://doi.org/{doi}" if doi and "://" not in doi else doi],
                key=entry.key,
                fields=(("ENTRYTYPE", entry.entry_type),) + ((UNTITLED, ""),) * untitled
                + tuple((f.key, str(f.value)) for f in entry.fields if f.key not in _MAIN),
            )
        )
    if not papers:
        where = f" ({len(warnings)} broken)" if warnings else ""
        raise ReadError(path, f"no BibTeX entries with a key, title or abstract{where}")
    return Collection(papers=unique(papers), sources=[path], warnings=warnings)
