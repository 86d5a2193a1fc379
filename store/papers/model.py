"""The values everything else passes around: a parsed `Paper`, a `Collection` of them, a `Triage` state."""
from __future__ import annotations

import hashlib
import operator
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache, partial
from itertools import islice
from typing import TYPE_CHECKING, Any

from store.papers.patch import patched

if TYPE_CHECKING:
    from store.papers.packed import Packed


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


def flat(text: str) -> str:
    """`text` with each run of whitespace made one space, as `" ".join(text.split())` (the very text when it has
    them already). A text wrapped at a width (arXiv's abstracts) is its newlines made spaces: one `replace`, ~8x
    quicker than splitting it into words (each whitespace character made another, `split` finds the same words)."""
    if single_spaced(text):
        return text
    if "\n" in text:
        spaced = text.replace("\n", " ")
        if single_spaced(spaced):
            return spaced
    return " ".join(text.split())


def normalise(text: str) -> str:
    """Whitespace collapsed and case folded: the form a paper's identity is computed from."""
    # ASCII: lower() is casefold()
    return flat(text).lower() if text.isascii() else flat(text).casefold()


def paper_id(text: str) -> str:
    """A short stable id for an abstract: the same text (up to whitespace and case) gives the same id. Two texts in a
    million share one (40 bits: two pairs of the 2.7 million of an arXiv snapshot): `text_check` tells them apart."""
    return hashlib.blake2b(normalise(text).encode("utf-8"), digest_size=5).hexdigest()


def identity(text: str) -> tuple[str, int]:
    """(`paper_id(text)`, `text_check(text)`), the text normalised once."""
    normal = normalise(text).encode("utf-8")
    return hashlib.blake2b(normal, digest_size=5).hexdigest(), _checked(normal)


def text_check(text: str) -> int:
    """A number that is the same for the same text (up to whitespace and case, as `paper_id`) and tells two texts of
    one id apart (the CRC-32 and the length of the normalised text: a 64-bit number)."""
    return _checked(normalise(text).encode("utf-8"))


def _checked(normal: bytes) -> int:
    return zlib.crc32(normal) | len(normal) << 32


FP_HALF = 120
"""A fingerprint keeps this many characters of each end of a normalised text."""

_ENDS = 4 * FP_HALF
"""Of a text longer than twice this, `fingerprint` normalises only this many characters at each end."""


def fingerprint(text: str) -> str:
    """Normalised text, or its first and last 120 characters when longer (a small edit keeps most of it)."""
    if len(text) > 2 * _ENDS:
        # Only its ends are normalised (what normalising a text's start or end gives is the start or end of its
        # normalised whole): no normalised copy of the whole is made, ~1.5 KB for each of 100,000 papers that
        # stayed apart in the heap, between the fingerprints kept (the ids entry of a long list, `store.readers.ids`).
        head, tail = normalise(text[:_ENDS]), normalise(text[-_ENDS:])
        if len(head) > 2 * FP_HALF and len(tail) > FP_HALF:  # (the normalised whole is then as long)
            return head[:FP_HALF] + "…" + tail[-FP_HALF:]
    flat = normalise(text)
    if len(flat) <= 2 * FP_HALF:
        return flat
    return flat[:FP_HALF] + "…" + flat[-FP_HALF:]


@dataclass(frozen=True, slots=True)
class Paper:
    """One abstract as read from a source file. Immutable; triage state lives in `Triage`."""

    id: str
    text: str
    """The abstract as the source has it (outer whitespace trimmed), made inert (`store.papers.boundary`):
    `id` is computed from the text before that, exactly as the source has it. Reading it always gives
    that text; a paper may keep it as less (`store.papers.packed.Packed`: compressed with others, `keep_text`)."""
    plain: str | bytes | None = field(default=None, hash=False)
    """The display text without markup (what search runs over); see `store.papers.text`. Reading it always
    gives that text; what a paper keeps of it (`kept_plain`) is less: the very text object when the
    display text is the text (most abstracts), a patch over the text when it differs in a few places
    (`store.papers.patch`: the markup of a few words, a symbol), the string otherwise, or None for a paper made
    without it (worked out from the text when asked, the last few remembered)."""
    title: str = ""
    """The true title when the source has one, else a title derived from the text."""
    name: str = ""
    """The short name of the method or benchmark the abstract introduces, when one is found."""
    venue: str = ""
    year: int | None = None
    authors: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    """The record's own links first (its url, its doi as https://doi.org/…, its pdf), then those
    found in the abstract (code, project pages), each once. Reading it always gives that tuple; a reopened paper keeps
    its arXiv abstract and PDF pages as its arXiv id (`kept_links`), as it keeps `pdf` when that is its arXiv PDF."""
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
    for a BibTeX entry its type and every field but the abstract, as written (what a citation writes back).
    Reading it always gives that tuple; a reopened paper keeps it as a place in its list's texts entry
    (`store.papers.packed.Packed.fields`), read when asked."""
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


_KEPT_PLAIN = Paper.plain  # the slot Paper.plain reads through (below)
_KEPT_TEXT = Paper.text  # the slot Paper.text reads through (below)
_KEPT_FIELDS = Paper.fields  # the slot Paper.fields reads through (below)
_KEPT_LINKS = Paper.links  # the slot Paper.links reads through (below)
_KEPT_PDF = Paper.pdf  # the slot Paper.pdf reads through (below)
_ARXIV = Paper.arxiv


def arxiv_link(kind: str, ident: str) -> str:
    """The arXiv page of `kind` ("abs", "pdf") for an arXiv id; "" without one."""
    return f"https://arxiv.org/{kind}/{ident}" if ident else ""


@lru_cache(maxsize=256)
def _worked_out(text: str) -> str:
    from store.papers.inert import inert
    from store.papers.text import display

    return inert(display(text).plain)


class _Kept:
    """`Paper.text` and `Paper.fields`: the value, from what the paper keeps of it (the value itself, of type `kind`,
    or a `Packed`, read out by `read`)."""

    __slots__ = ("slot", "kind", "read")

    def __init__(self, slot: Any, kind: type, read: Callable[[Packed], object]) -> None:
        self.slot, self.kind, self.read = slot, kind, read

    def __get__(self, paper: Paper | None, owner: type | None = None) -> object:
        if paper is None:
            return self
        kept = self.slot.__get__(paper, owner)
        return kept if type(kept) is self.kind else self.read(kept)

    def __set__(self, paper: Paper, value: object) -> None:
        self.slot.__set__(paper, value)


class _Plain:
    """`Paper.plain`: the display text, from what the paper keeps of it (see there)."""

    __slots__ = ()

    def __get__(self, paper: Paper | None, owner: type | None = None) -> object:
        if paper is None:
            return self
        kept = _KEPT_PLAIN.__get__(paper, owner)
        if isinstance(kept, str):
            return kept
        if kept is None:
            return _worked_out(paper.text)
        return patched(paper.text, kept) if type(kept) is bytes else kept.display()

    def __set__(self, paper: Paper, value: str | bytes | Packed | None) -> None:
        _KEPT_PLAIN.__set__(paper, value)


class _Own:
    """`Paper.links` and `Paper.pdf`: the value, or (kept as None, or for links a list of the links after them) the
    paper's arXiv pages, worked out from its arXiv id when asked (`kept_links`, `kept_pdf`): a reopened arXiv list's
    papers keep no string of them (~25 MB at 100,000 papers)."""

    __slots__ = ("slot", "kind", "own")

    def __init__(self, slot: Any, kind: type, own: Callable[[str], tuple[str, ...] | str]) -> None:
        self.slot, self.kind, self.own = slot, kind, own

    def __get__(self, paper: Paper | None, owner: type | None = None) -> object:
        if paper is None:
            return self
        kept = self.slot.__get__(paper, owner)
        if type(kept) is self.kind:
            return kept
        own = self.own(_ARXIV.__get__(paper, owner))
        return own if kept is None else own + tuple(kept)

    def __set__(self, paper: Paper, value: object) -> None:
        self.slot.__set__(paper, value)


def _own_links(ident: str) -> tuple[str, ...]:
    return (arxiv_link("abs", ident), arxiv_link("pdf", ident))


def kept_links(paper: Paper) -> tuple[str, ...] | list[str] | None:
    """What `paper` may keep of its links (`Paper.links`): None when they are its arXiv abstract's and PDF's pages, a
    list of the others when they only begin so, else the tuple."""
    links, ident = paper.links, paper.arxiv
    if ident and links[:2] == _own_links(ident):
        return list(links[2:]) or None
    return links


def kept_pdf(paper: Paper) -> str | None:
    """What `paper` may keep of its PDF link (`Paper.pdf`): None when it is its arXiv PDF, else the link."""
    pdf, ident = paper.pdf, paper.arxiv
    return None if ident and pdf == arxiv_link("pdf", ident) else pdf


Paper.text = _Kept(_KEPT_TEXT, str, operator.methodcaller("text"))  # type: ignore[assignment,misc]
Paper.fields = _Kept(_KEPT_FIELDS, tuple, operator.methodcaller("fields"))  # type: ignore[assignment,misc]
Paper.plain = _Plain()  # type: ignore[assignment,misc]
Paper.links = _Own(_KEPT_LINKS, tuple, _own_links)  # type: ignore[assignment,misc]
Paper.pdf = _Own(_KEPT_PDF, str, partial(arxiv_link, "pdf"))  # type: ignore[assignment,misc]


def keep_text(paper: Paper, kept: str | Packed) -> None:
    """Have `paper` keep its text as `kept` (a `store.papers.packed.Packed` of it, or its string again: the same text, the
    caller makes sure), and its display text too when that is the very text: a paper is immutable, but what it keeps
    of a value is its own."""
    if _KEPT_PLAIN.__get__(paper, Paper) is _KEPT_TEXT.__get__(paper, Paper):
        _KEPT_PLAIN.__set__(paper, kept)
    _KEPT_TEXT.__set__(paper, kept)


def has_text(paper: Paper) -> bool:
    """Whether `paper` has a text, without reading out one kept packed (decompressing its chunk: a test of all the
    papers a parse made read every chunk again, ~0.2 s at 100,000 abstracts before search was ready)."""
    return bool(_KEPT_TEXT.__get__(paper, Paper))


def at_hand(paper: Paper) -> bool:
    """Whether `paper`'s text and fields can be read now, without reading its list again (`store.papers.packed.Stored`:
    a reopened list's texts entry found damaged since its open): what the app asks before it reads them on its thread.
    `ReadError` when they are known not to be available (the list read again without them)."""
    kept = (_KEPT_TEXT.__get__(paper, Paper), _KEPT_FIELDS.__get__(paper, Paper))
    return all(chunk.at_hand() for chunk in (getattr(value, "chunk", None) for value in kept) if chunk is not None)


def may_name(paper: Paper, names: frozenset[str]) -> bool:
    """Whether one of `paper`'s fields may be named one of `names` (lower-case; a name is compared case-folded): False
    only when none is, told of fields kept packed without reading them out (an arXiv list's papers have only fields a
    citation does not write: submitter, comments, license)."""
    kept = _KEPT_FIELDS.__get__(paper, Paper)
    if type(kept) is tuple:
        return any(name.casefold() in names for name, _ in kept)
    return kept.may_name(names)


def kept_text(paper: Paper) -> str | Packed:
    """What `paper` keeps of its text (the string, or a `store.papers.packed.Packed`), without reading it out."""
    return _KEPT_TEXT.__get__(paper, Paper)


def texts(papers: Iterable[Paper], batch: int = 8192) -> Iterator[str]:
    """The texts of `papers`, in their order, read out a batch at a time in the order they are kept: a long list's
    texts are kept compressed a chunk of papers together (`store.papers.packed`), and papers in another order than
    the file's (a query's best first) read one by one decompress a chunk for nearly each (`triage list -q` of 24,386
    papers of 100,000 printed best first: 6.5 s of CPU); so, each chunk once a batch. A batch whose papers come a chunk
    after another (in file order) is read one text at a time, as it is given (what it prints streams)."""
    papers = iter(papers)
    while part := list(islice(papers, batch)):
        kept = [_KEPT_TEXT.__get__(paper, Paper) for paper in part]
        chunks = [id(getattr(text, "chunk", None)) for text in kept]
        if len(set(chunks)) == 1 + sum(map(operator.ne, chunks, chunks[1:])):  # (each chunk's papers together)
            yield from (text if type(text) is str else text.text() for text in kept)
            continue
        out = [""] * len(part)
        for at in sorted(range(len(part)), key=chunks.__getitem__):
            text = kept[at]
            out[at] = text if type(text) is str else text.text()
        yield from out


@cache
def _builder() -> Callable[[Sequence[Iterable[object]]], list[Paper]]:
    # Made as dataclasses makes `__init__`: Python source for these very fields. Each value is stored in its slot
    # (the display text as it is kept) of an object of a class of Paper's very slots but not frozen, so a store the
    # interpreter makes at once rather than a call of the slot's `__set__`; the object then made a Paper (its class
    # set: the same slots, so the same object): half the time of those calls, a sixth of `Paper(...)`'s.
    names = tuple(Paper.__dataclass_fields__)
    unfrozen = type("_Unfrozen", (), {"__slots__": Paper.__slots__})
    source = (
        "def build(columns, unfrozen=unfrozen, cls=Paper):\n"
        "    out = []\n    add = out.append\n"
        f"    for {', '.join(names)} in zip(*columns):\n"
        "        paper = unfrozen()\n"
        + "".join(f"        paper.{name} = {name}\n" for name in names)
        + "        paper.__class__ = cls\n        add(paper)\n    return out\n"
    )
    namespace = {"Paper": Paper, "unfrozen": unfrozen}
    exec(source, namespace)  # noqa: S102 (our own source, of field names only)
    return namespace["build"]


def built(columns: Sequence[Iterable[object]]) -> list[Paper]:
    """Papers from one iterable of values per field, in field order (the display text as a paper
    keeps it: `kept_plain`), as `Paper(*values)` would make them, in a sixth of the time: how the parse
    cache makes 100,000 at once. As many papers as the shortest iterable has values."""
    return _builder()(columns)


def kept_plain(paper: Paper) -> str | bytes | None:
    """What `paper` keeps of its display text (see `Paper.plain`), without working anything out: for a text kept
    `store.papers.packed.Packed`, the text itself (its display text)."""
    kept = _KEPT_PLAIN.__get__(paper, Paper)
    return kept if kept is None or type(kept) is str or type(kept) is bytes else kept.display()


def replaced(paper: Paper, **changes: object) -> Paper:
    """`dataclasses.replace` that keeps the display text as the paper keeps it (`replace` would read
    it out in full). A new text without a new display text has its own worked out when asked."""
    if "plain" not in changes:
        changes["plain"] = None if "text" in changes and changes["text"] != paper.text else kept_plain(paper)
    return replace(paper, **changes)


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # (compared or shown whole, it would be huge)
class Origin:
    """What a collection's papers are exactly, as read: the parse of the list files pinned by `keys` (the parse
    cache's keys, `store.readers.cache`: this code's version, each file's path, size, times and inode), found
    so either in the parse cache or by a parse during which the files did not change. `papers` are those very
    objects (immutable): a collection whose papers are no longer they (`of`) is of no origin."""

    keys: tuple[tuple, ...]
    papers: Sequence[Paper]

    def of(self, papers: Sequence[Paper]) -> bool:
        """Whether `papers` are still the very papers read: the same sequence (a reopened list's, whose papers are
        made as they are asked for: `store.papers.chunked`), or its papers one by one (~2 ms at 100,000)."""
        return papers is self.papers or (len(papers) == len(self.papers) and all(map(operator.is_, papers, self.papers)))


@dataclass(slots=True)
class Collection:
    """What a reader returns: the papers of one or more files, in file order."""

    papers: Sequence[Paper]
    """A list, or a reopened list's papers made as they are asked for (`store.papers.chunked`)."""
    header: str = ""
    venue: str = ""
    year: int | None = None
    sources: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    origin: Origin | None = field(default=None, compare=False)
    """The parse the papers are exactly (what a long list's index entry is keyed by: `store.readers.cache`),
    or None when not known."""
    ids: Sequence[str] | None = field(default=None, compare=False, repr=False)
    """The ids of `papers` in their order as a column, read from the parse cache without them (`store.papers.rows`),
    or None when not read so. Whoever changes `papers` changes it with them (`tui.landing`)."""


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
