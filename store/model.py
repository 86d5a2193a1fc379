"""The values everything else passes around: a parsed `Paper`, a `Collection` of them, a `Triage` state."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


# What str.split() splits on in ASCII text, beyond a single space between words.
_ASCII_SPACING = ("  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


def single_spaced(text: str) -> bool:
    """Whether `text` is as `" ".join(text.split())` would make it: words one space apart, no
    other whitespace. Cheap on ASCII text (most abstracts): a few fast substring searches."""
    if text[:1] == " " or text[-1:] == " ":
        return False
    if text.isascii():
        return not any(space in text for space in _ASCII_SPACING)
    # Every whitespace character but the space is unprintable.
    return text.isprintable() and "  " not in text


def normalise(text: str) -> str:
    """Whitespace collapsed and case folded: the form a paper's identity is computed from."""
    if not text.isascii():
        return " ".join(text.split()).casefold()
    # ASCII: lower() is casefold(), and text already spaced once needs no split.
    return (text if single_spaced(text) else " ".join(text.split())).lower()


def paper_id(text: str) -> str:
    """A short stable id for an abstract: the same text (up to whitespace and case) gives the same id."""
    return hashlib.blake2b(normalise(text).encode("utf-8"), digest_size=5).hexdigest()


@dataclass(frozen=True, slots=True)
class Paper:
    """One abstract as read from a source file. Immutable; triage state lives in `Triage`."""

    id: str
    text: str
    """The abstract as the source has it (outer whitespace trimmed), made inert (`store.boundary`):
    `id` is computed from the text before that, exactly as the source has it."""
    plain: str = ""
    """The display text without markup (what search runs over); see `store.text`."""
    title: str = ""
    """The true title when the source has one, else a title derived from the text."""
    name: str = ""
    """The short name of the method or benchmark the abstract introduces, when one is found."""
    venue: str = ""
    year: int | None = None
    authors: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    """The record's own links first (its url, its doi as https://doi.org/…, its pdf), then those
    found in the abstract (code, project pages), each once."""
    source: str = ""
    """Path of the file the paper was read from."""
    line: int = 0
    """1-based line in `source` where the paper's record starts."""
    position: int = 0
    """0-based index in the collection (file order)."""
    key: str = ""
    """The citation key when the source had one (BibTeX)."""
    fields: tuple[tuple[str, str], ...] = ()
    """Other fields of the source record, as (name, value) pairs: a JSON or CSV record's other columns;
    for a BibTeX entry its type and every field but the abstract, as written (what a citation writes back)."""
    pdf: str = ""
    """The link to the paper's PDF: the record's own (`pdf_url`), else the first link to a .pdf; or ''."""
    track: str = ""
    """The presentation track when the venue named one ('oral', 'spotlight', 'poster'), lower-case;
    `venue` is then the venue without it ('ICLR 2024 oral' → 'ICLR 2024', 'oral')."""
    keywords: tuple[str, ...] = ()
    """The record's keywords or subject categories (OpenReview keywords, arXiv categories, BibTeX keywords)."""
    tldr: str = ""
    """The record's one-line summary (OpenReview's TL;DR), made inert like the text; or ''."""
    area: str = ""
    """The record's primary area or subject (OpenReview's primary_area, arXiv's primary category); or ''."""
    doi: str = ""
    """The record's DOI, bare ('10.1000/xyz', no https://doi.org/); or ''."""
    arxiv: str = ""
    """The record's arXiv id ('2401.01234', 'hep-th/9901001', without version or prefix); or ''."""

    def record(self) -> dict[str, object]:
        """What the source record says of the paper as plain JSON values, under the names the readers
        read back (a jsonl or csv export opens as the list it came from)."""
        return {
            "title": self.title, "name": self.name, "authors": list(self.authors), "venue": self.venue,
            "year": self.year, "track": self.track, "keywords": list(self.keywords), "area": self.area,
            "tldr": self.tldr, "doi": self.doi, "arxiv": self.arxiv, "pdf": self.pdf, "links": list(self.links),
        }


@dataclass(slots=True)
class Collection:
    """What a reader returns: the papers of one or more files, in file order."""

    papers: list[Paper]
    header: str = ""
    venue: str = ""
    year: int | None = None
    sources: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Triage:
    """A user's marks on one paper. Priority: 0 none, 1 highest … 5 lowest. `dismissed`: "not for me",
    an explicit no (the Unread view leaves such a paper out, whether it was read or not)."""

    read: bool = False
    starred: bool = False
    priority: int = 0
    dismissed: bool = False
    note: str = ""
    tags: tuple[str, ...] = ()
    updated: float = 0.0

    @property
    def blank(self) -> bool:
        """No mark at all: such a state is not stored."""
        return not (self.read or self.starred or self.priority or self.dismissed or self.note or self.tags)

    def marks(self) -> dict[str, object]:
        """The marks as plain JSON values: what the database, `triage list` and exports write."""
        return {
            "read": self.read, "starred": self.starred, "priority": self.priority, "dismissed": self.dismissed,
            "note": self.note, "tags": list(self.tags),
        }
