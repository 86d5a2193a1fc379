"""Citations of papers: BibTeX (bibtexparser entries, written as its writer writes them, so it always parses), plain text, Markdown.

A paper read from BibTeX is written as it came: its key, type and every field as written (TeX,
braces, corporate authors, doi, month macros). Other papers' values are escaped
(`store.cite.bibtex_values`), their titles braced only where a style would lower-case them wrongly; a
bare abstract still cites with its venue, year, derived title and first link. The url cited is the paper's first link, which is the
record's own when it has one (`Paper.links`); a paper whose first link is a DOI cites the DOI alone.
Entries are written under the keys `store.cite.keys` assigns (readable, unique within the papers they are assigned over).
"""
from __future__ import annotations

import re
from functools import lru_cache
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set as AbstractSet

from bibtexparser.middlewares.enclosing import ENTRY_POTENTIALLY_INT_FIELDS

from store.cite.keys import citation_keys, venue_word
from store.cite.bibtex_values import balanced, latex_escape, title_value, title_values, verbatim
from store.papers.inert import inert
from store.papers.model import Paper, may_name

CONFERENCES = {
    "iclr": "International Conference on Learning Representations",
    "icml": "International Conference on Machine Learning",
    "neurips": "Advances in Neural Information Processing Systems",
    "nips": "Advances in Neural Information Processing Systems",
    "cvpr": "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
    "iccv": "IEEE/CVF International Conference on Computer Vision",
    "eccv": "European Conference on Computer Vision",
    "acl": "Annual Meeting of the Association for Computational Linguistics",
    "emnlp": "Conference on Empirical Methods in Natural Language Processing",
    "aaai": "AAAI Conference on Artificial Intelligence",
    "ijcai": "International Joint Conference on Artificial Intelligence",
    "kdd": "ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
}
_JOURNAL = re.compile(r"journal|transactions|letters|review|\b(?:jmlr|tmlr|tpami|nature|science)\b", re.I)
_FIELD_NAME = re.compile(r"[a-z][a-z0-9_\-:]*")
VERBATIM_FIELDS = frozenset({"url", "doi", "eprint", "file", "isbn", "issn"})
"""Fields written as they are (no LaTeX escaping): identifiers and addresses."""
GENERATED_FIELDS = frozenset({"author", "title", "year", "abstract", "entrytype", "untitled", "id", "key"})
STANDARD_FIELDS = frozenset(
    "address annote booktitle chapter doi edition editor eprint archiveprefix primaryclass howpublished "
    "institution isbn issn journal keywords month note number organization pages publisher school series "
    "url volume".split()
)
"""The fields a paper read from JSON or CSV passes on (its other columns are no BibTeX)."""
ENTRY_TYPE = "entrytype"
"""The BibTeX reader keeps an entry's type as field ENTRYTYPE; that paper's other fields are raw BibTeX."""
TYPED = frozenset({ENTRY_TYPE})
"""What `source_fields` is asked for to tell a paper read from BibTeX."""
_TYPING_FIELDS = frozenset({ENTRY_TYPE, "journal", "booktitle"})
"""The source fields an entry's type is taken from (`entry_type`)."""
_CITED_FIELDS = STANDARD_FIELDS | TYPED
"""The source fields an entry can be made of: a paper with none (an arXiv record's submitter, comments and license)
is cited from its own values, its fields not read out."""
UNTITLED = "untitled"
"""And field UNTITLED on an entry it read without a title or abstract (listed under its key): no title is written."""
_DOI_LINK = "https://doi.org/"
_MONTHS = frozenset("jan feb mar apr may jun jul aug sep oct nov dec".split())
"""The month macros every style defines: a `month = jan` read so is written so, not as `{jan}`."""
_ARXIV_CLASS = re.compile(r"[a-z\-]+(?:\.[A-Za-z\-]+)?")

# --- BibTeX -----------------------------------------------------------------------------------


def source_fields(paper: Paper, naming: frozenset[str]) -> dict[str, str]:
    """The paper's source fields by lower-case name (the first of repeated names) when one may be named one of
    `naming` (lower-case names the caller reads); else {}, the fields not read out (`may_name`: an arXiv record's
    are none a citation reads)."""
    return _by_name(paper.fields) if may_name(paper, naming) else {}


def _by_name(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    fields: dict[str, str] = {}
    for name, value in pairs:
        fields.setdefault(name.casefold(), value)
    return fields


def doi_of(paper: Paper) -> str:
    """The paper's DOI, bare: its own, else that of a doi.org link it has; or ''."""
    if paper.doi:
        return paper.doi
    for link in paper.links:
        if link.startswith(_DOI_LINK):
            return link.removeprefix(_DOI_LINK)
    return ""


def own_url(paper: Paper) -> str:
    """The paper's own web address: its first link (the record's own comes first, see `Paper.links`)
    unless that is a DOI's, which is no url (nor is a code link after it); or ''."""
    return paper.links[0] if paper.links and not paper.links[0].startswith(_DOI_LINK) else ""


def entry_type(paper: Paper, names: Mapping[str, str] | None = None) -> str:
    """The BibTeX entry type of `paper` (`names`: its `source_fields`, when the caller has them)."""
    names = source_fields(paper, _TYPING_FIELDS) if names is None else names
    if ENTRY_TYPE in names and _FIELD_NAME.fullmatch(names[ENTRY_TYPE].casefold()):
        return names[ENTRY_TYPE].casefold()
    if "journal" in names:
        return "article"
    if "booktitle" in names:
        return "inproceedings"
    return _venue_type(paper.venue) if paper.venue else "misc"


@lru_cache(maxsize=1 << 10)
def _venue_type(venue: str) -> str:
    """The entry type a venue gives (one for most papers of a list)."""
    return "article" if _JOURNAL.search(venue) else "inproceedings"


def _venue_field(paper: Paper, kind: str, source: Mapping[str, str]) -> tuple[str, str] | None:
    """(field, value) of the venue, unless `source` (the paper's `source_fields`) names it itself."""
    if not paper.venue or "journal" in source or "booktitle" in source:
        return None
    return _venue_of(paper.venue, kind, ENTRY_TYPE in source)


@lru_cache(maxsize=1 << 10)
def _venue_of(venue: str, kind: str, typed: bool) -> tuple[str, str]:
    """(field, value) of a venue in an entry of type `kind` (`typed`: read from BibTeX), the same for most papers of a list."""
    if kind == "article":
        return "journal", venue
    long = CONFERENCES.get(venue_word(venue)) if not typed else None
    return "booktitle", f"{long} ({venue})" if long else venue


def _source_value(name: str, value: str, raw: bool) -> str:
    if raw and balanced(value):
        return value
    return verbatim(value) if name in VERBATIM_FIELDS else latex_escape(value, math=not raw)


BibField = tuple[str, str, bool]
"""A field of an entry: its name, its value, and whether that is a macro written bare (`month = jan`)."""


def entry_fields(paper: Paper, abstract: bool = False, title: str | None = None) -> tuple[str, list[BibField]]:
    """The entry type and fields for `paper`: a paper read from BibTeX as it came (`_source_fields`); any other with
    its values escaped and the title's case protected where a style would change it (`title_value`; `title`: that
    of its title, when the caller has it)."""
    pairs = paper.fields if may_name(paper, _CITED_FIELDS) else ()  # (read once, and only when some can be cited)
    source = _by_name(pairs) if pairs else {}
    if ENTRY_TYPE in source:
        return _source_fields(paper, pairs, source, abstract)
    kind = entry_type(paper, source)
    fields: list[BibField] = []
    if paper.authors:
        fields.append(("author", " and ".join(map(_author, paper.authors)), False))
    title = title_value(paper.title) if title is None else title
    fields.append(("title", title or title_value(paper.name) or paper.id, False))
    venue = _venue_field(paper, kind, source)
    if venue:
        fields.append((venue[0], _escaped_venue(venue[1], True), False))
    if paper.year:
        fields.append(("year", str(paper.year), False))
    seen: AbstractSet[str] = frozenset()  # (the names of the fields so far, when the source has fields of its own)
    if source:
        seen = {name for name, _, _ in fields}
        for name, value in source.items():
            if name in seen or name in GENERATED_FIELDS or name not in STANDARD_FIELDS or not value.strip():
                continue
            seen.add(name)
            fields.append((name, _source_value(name, value, False), False))
    doi = paper.doi or paper.links and doi_of(paper)
    if doi and "doi" not in seen:
        fields.append(("doi", verbatim(doi), False))
    if paper.arxiv and "eprint" not in seen:
        fields += [("eprint", verbatim(paper.arxiv), False), ("archiveprefix", "arXiv", False)]
        if _arxiv_class(paper.area):
            fields.append(("primaryclass", paper.area, False))
    if paper.keywords and "keywords" not in seen:
        fields.append(("keywords", _keywords(paper.keywords), False))
    url = paper.links and own_url(paper)
    if url and "url" not in seen:
        fields.append(("url", verbatim(url), False))
    if abstract and paper.text:
        fields.append(("abstract", latex_escape(paper.plain or paper.text), False))
    return kind, fields


def _source_fields(paper: Paper, pairs: Sequence[tuple[str, str]], source: Mapping[str, str],
                   abstract: bool) -> tuple[str, list[BibField]]:
    """A paper read from BibTeX as it came (`pairs`: its fields, `source`: them by name): its type and every field as written, in
    order (TeX kept: `The \\LaTeX\\ Companion`, `{BERT}`, `{IEEE Computer Society}` as an author); a bare month
    macro (`month = jan`) stays bare. No title for an entry read without one. `abstract` adds its abstract."""
    fields: list[BibField] = []
    seen = {ENTRY_TYPE, UNTITLED}
    for name, value in pairs:
        name = name.casefold()
        if name in seen or not _FIELD_NAME.fullmatch(name):
            continue
        seen.add(name)
        if name == "month" and value.strip().casefold() in _MONTHS:
            fields.append((name, value.strip(), True))
        else:
            fields.append((name, _source_value(name, value, True), False))
    # A venue and year the entry took from the file's one @proceedings (which is no paper, so not written) are.
    kind = entry_type(paper, source)
    venue = _venue_field(paper, kind, source) if not seen & {"journaltitle", "crossref"} else None
    if venue:
        fields.append((venue[0], _escaped_venue(venue[1], False), False))
    if paper.year and not seen & {"year", "date", "crossref"}:
        fields.append(("year", str(paper.year), False))
    if abstract and paper.text:
        fields.append(("abstract", paper.text if balanced(paper.text) else latex_escape(paper.plain or paper.text), False))
    return kind, fields


@lru_cache(maxsize=1 << 10)
def _escaped_venue(venue: str, math: bool) -> str:
    """A venue as a field value (`latex_escape`): one for most papers of a list."""
    return latex_escape(venue, math)


@lru_cache(maxsize=1 << 10)
def _arxiv_class(area: str) -> bool:
    """Whether an area is an arXiv category (a primary class): one of a few for a list."""
    return _ARXIV_CLASS.fullmatch(area) is not None


@lru_cache(maxsize=1 << 12)
def _keywords(keywords: tuple[str, ...]) -> str:
    """Keywords as a field value: the same few for many papers of a list (an arXiv list's categories)."""
    return latex_escape(", ".join(keywords))


_AND = re.compile(r"\band\b", re.I)


@lru_cache(maxsize=1 << 16)
def _author(name: str) -> str:
    """An author's name as a part of the author field, kept for the names seen most (an author writes many papers)."""
    escaped = latex_escape(name)
    # A name containing the word "and" would be split into two authors: braces keep it one.
    return "{" + escaped + "}" if _AND.search(escaped) else escaped


_BARE_NUMBERS = frozenset(ENTRY_POTENTIALLY_INT_FIELDS)


def written(key: str, kind: str, fields: Sequence[BibField]) -> str:
    """An entry as bibtexparser's writer writes it with a two-space indent and no aligned values (what
    `bibtexparser.write_string` gave for each entry, at a fifth of its cost: 100,000 entries are exported), enclosing
    values as its `AddEnclosingMiddleware(reuse_previous_enclosing=False, enclose_integers=False,
    default_enclosing="{")` does: in braces; a number in a numeric field, and a macro (always a bare word here), bare."""
    if not fields:
        return f"@{kind}{{{key},\n}}\n"
    body = ",\n".join([f"  {name} = {value}" if bare or (name in _BARE_NUMBERS and value.isdigit()) else
                       f"  {name} = {{{value}}}" for name, value, bare in fields])
    return f"@{kind}{{{key},\n{body}\n}}\n"


def bibtex(papers: Sequence[Paper], keys: Mapping[str, str] | None = None, abstract: bool = False) -> str:
    """A BibTeX database of `papers`, one entry each, in order, a blank line between. `keys` defaults to keys
    assigned over `papers`. ValueError when two papers would have the same key (as bibtexparser's `Library`)."""
    return "".join(bibtex_parts(papers, keys, abstract))


def bibtex_parts(papers: Sequence[Paper], keys: Mapping[str, str] | None = None, abstract: bool = False,
                 titles: Sequence[str] | None = None) -> Iterator[str]:
    """`bibtex` in parts, an entry each, to be written one after the other (`titles`: their `bibtex_titles`, when the
    caller has them)."""
    keys = keys if keys is not None else citation_keys(papers)
    if len({keys[p.id] for p in papers}) < len(papers):
        raise ValueError("Duplicate keys found: two papers would be written with the same key")
    titles = bibtex_titles(papers) if titles is None else titles
    for n, (paper, title) in enumerate(zip(papers, titles)):
        yield ("\n" if n else "") + written(keys[paper.id], *entry_fields(paper, abstract, title))



def bibtex_titles(papers: Sequence[Paper]) -> list[str]:
    """The title value of each of `papers`' entries, found for all together (`title_values`); "" for a paper read from
    BibTeX, whose title is written as it came."""
    return title_values(["" if ENTRY_TYPE in source_fields(p, TYPED) else p.title for p in papers])


def citing(papers: Sequence[Paper]) -> tuple[list[str], list[str]]:
    """Each of `papers`' citation key (assigned over them all: `citation_keys`) and entry title (`bibtex_titles`), in
    order: what a long list keeps beside its parse (`store.readers.columns_entry`), made again for the export of it."""
    keys = citation_keys(papers)
    return [keys[paper.id] for paper in papers], bibtex_titles(papers)


# --- plain text and Markdown ------------------------------------------------------------------


def authors_line(authors: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C', or 'A et al.' for more than three."""
    if len(authors) > 3:
        return f"{authors[0]} et al."
    if len(authors) > 1:
        return ", ".join(authors[:-1]) + " and " + authors[-1]
    return authors[0] if authors else ""


def _where(paper: Paper) -> str:
    year = str(paper.year) if paper.year else ""
    return " ".join(part for part in (paper.venue, year if year not in paper.venue else "") if part)


def plain(paper: Paper) -> str:
    """One line: 'Authors. Title. ICLR 2024. https://…' (parts the paper lacks left out)."""
    parts = [authors_line(paper.authors), paper.title or paper.name, _where(paper)]
    line = " ".join(p if p[-1] in ".!?…" else p + "." for p in parts if p)
    link = dict(paper.fields).get("url") or (paper.links[0] if paper.links else "")
    return inert(f"{line} {link}".strip())


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", " ".join(inert(text).split()))


def markdown(paper: Paper) -> str:
    """'[Title](url) — Authors, *ICLR 2024*', the title plain when there is no link."""
    title = _md(paper.title or paper.name)
    link = dict(paper.fields).get("url") or (paper.links[0] if paper.links else "")
    href = verbatim(link).replace("(", "%28").replace(")", "%29")
    head = f"[{title}]({href})" if link else title
    tail = ", ".join(p for p in (_md(authors_line(paper.authors)), f"*{_md(_where(paper))}*" if _where(paper) else "") if p)
    return f"{head} — {tail}" if tail else head


# --- one name for every copyable format -------------------------------------------------------

FORMATS = {
    "bibtex": "BibTeX",
    "plain": "plain text",
    "markdown": "Markdown",
    "abstract": "abstract text",
    "id": "id",
}
"""Citation format → the name a user sees ("BibTeX copied")."""


def render(papers: Sequence[Paper], fmt: str, keys: Mapping[str, str] | None = None, abstract: bool = False) -> str:
    """`papers` in citation format `fmt` (one of `FORMATS`), ending in a newline."""
    if fmt == "bibtex":
        return bibtex(papers, keys, abstract)
    if fmt == "plain":
        return "\n".join(plain(p) for p in papers) + "\n"
    if fmt == "markdown":
        return "\n".join(f"- {markdown(p)}" if len(papers) > 1 else markdown(p) for p in papers) + "\n"
    if fmt == "abstract":
        return "\n\n".join(inert(p.text) for p in papers) + "\n"
    if fmt == "id":
        return "\n".join(p.id for p in papers) + "\n"
    raise ValueError(f"unknown citation format {fmt!r} (expected one of {', '.join(FORMATS)})")
