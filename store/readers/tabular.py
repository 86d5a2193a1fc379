"""JSON (an array, or an object holding one), JSON Lines and CSV/TSV: one record per paper.

Keys and column names are matched case-insensitively, ignoring spaces, dashes and underscores,
with common aliases (`summary`, `abstract note`, `author`, `link`, `booktitle`, `publication
year`...). OpenReview exports work as they are: a record's `content` object is read too, and
`{"value": ...}` wrappers are unwrapped; inline HTML in titles, authors and venues (`<i>`,
`&amp;`) is read as text (`store.papers.text.html_text`). A record without title and abstract, or a JSONL line
that is not JSON (or nested too deeply to read), is skipped with a warning naming its line; the rest
load. A record of the arXiv metadata snapshot (Kaggle's JSON Lines) is read as `store.readers.arxiv`
says, an event of a conference virtual site as `store.readers.conference` says, a CSL-JSON item (Zotero's, Mendeley's
export) as `store.readers.csl` says. A lone surrogate escape (`"\\ud800"`, half of a pair) reads as U+FFFD: no file can store it."""
from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any, NamedTuple

from store.common.errors import ReadError
from store.papers.inert import inert
from store.papers.model import Collection
from store.readers import arxiv, conference, csl
from store.readers.identifiers import keyword_list
from store.readers.records import make_papers, split_authors, year_of
from store.readers.uniques import papers_of
from store.papers.text import html_text

_ALIASES = {
    "title": ("title", "papertitle", "name"),
    "abstract": ("abstract", "summary", "abstractnote", "description", "text", "content"),
    "authors": ("authors", "author", "creators", "creator", "authornames"),
    "year": ("year", "publicationyear", "date", "published", "publicationdate", "pubyear"),
    "venue": ("venue", "booktitle", "journal", "conference", "publicationtitle", "proceedings", "publication"),
    "url": ("url", "link", "href", "forum", "paperurl"),
    "doi": ("doi",),
    "pdf": ("pdfurl", "pdf", "pdflink"),
    "key": ("key", "citationkey", "citekey", "bibtexkey", "id"),
    "keywords": ("keywords", "keyword", "categories", "subjects"),
    "tldr": ("tldr", "tl;dr"),
    "area": ("primaryarea", "area", "primarycategory", "subjectarea", "researcharea"),
    "track": ("track",),
    "arxiv": ("arxivid", "arxiv", "eprint"),
}
_NORMAL = re.compile(r"[\s_\-]+")


def _normal(key: str) -> str:
    return _NORMAL.sub("", key).casefold()


def _flat(value: object) -> object:
    if isinstance(value, dict) and "value" in value:
        return value["value"]
    return value


def _text(value: object) -> str:
    if type(value) is str:  # (most values: no need to look further)
        return value
    value = _flat(value)
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_text(v) for v in value)
    return str(value)


def _shown(value: object) -> str:
    """A value as text to show: inline HTML read, control characters and terminal escape
    sequences removed (the record is untrusted)."""
    return inert(html_text(_text(value)))


def _line(value: object) -> str:
    """A title, name or venue as one line of text to show, spacing collapsed."""
    return " ".join(_shown(value).split())


def _link(value: object) -> str:
    """A web address from a url, doi or pdf value ('10.1/x' is a DOI: https://doi.org/10.1/x); else ''."""
    if value is None:
        return ""
    url = inert(_text(value)).strip()
    if url[:4].casefold() == "doi:":
        url = url[4:].strip()
    if url.startswith("10.") and "://" not in url:
        url = f"https://doi.org/{url}"
    return url if url.startswith(("http://", "https://")) else ""


def _authors(value: object) -> list[str]:
    value = _flat(value)
    if isinstance(value, list):
        return [_line(v) for v in value]
    return split_authors(_shown(value))


def _keywords(value: object) -> list[str]:
    """Keywords from a list, or from one string separated by commas or semicolons."""
    value = _flat(value)
    if isinstance(value, list):
        return [_line(v) for v in value]
    return list(keyword_list(_shown(value)))


class _Plan(NamedTuple):
    """How to read records with one set of keys (the records of a file mostly share one)."""

    normal: dict[Any, str]
    """Each key's normal form (see `_normal`)."""
    candidates: dict[str, list[Any]]
    """Each field's keys to try, in the order of its aliases: the first key of each alias."""


@lru_cache(maxsize=64)
def _plan(keys: tuple[Any, ...]) -> _Plan:
    normal = {key: _normal(str(key)) for key in keys}
    first: dict[str, Any] = {}
    for key in keys:
        first.setdefault(normal[key], key)
    return _Plan(normal, {field: [first[a] for a in aliases if a in first] for field, aliases in _ALIASES.items()})


def _fields(record: dict, path: str, line: int) -> dict[str, Any] | None:
    """`make_paper`'s arguments for one record, or None when it has neither title nor abstract."""
    if isinstance(record.get("content"), dict):
        record = {**record, **record["content"]}
    elif arxiv.is_metadata(record):
        record = arxiv.from_metadata(record)
    elif conference.is_event(record):
        record = conference.from_event(record)
    elif csl.is_item(record):
        record = csl.from_item(record)
    plan = _plan(tuple(record))
    found: dict[str, object] = {}
    used: set[str] = set()
    for field, keys in plan.candidates.items():
        for key in keys:
            value = _flat(record[key])
            if value not in (None, "", []) and not isinstance(value, dict):
                found[field] = value
                used.add(plan.normal[key])
                break
    title = _line(found.get("title"))
    abstract = _text(found.get("abstract"))
    if not title and not abstract.strip():
        return None
    url, doi, pdf = (_link(found.get(name)) for name in ("url", "doi", "pdf"))
    return dict(
        keywords=_keywords(found.get("keywords")),
        tldr=_shown(found.get("tldr")),
        area=_line(found.get("area")),
        track=_line(found.get("track")),
        doi=inert(_text(found.get("doi"))),
        arxiv=inert(_text(found.get("arxiv"))),
        text=abstract,
        source=path,
        line=line,
        title=title,
        authors=_authors(found.get("authors")),
        venue=_line(found.get("venue")),
        year=year_of(found["year"]) if "year" in found else None,
        urls=[url, doi],
        pdf=pdf,
        key=inert(_text(found.get("key"))),
        fields=_others(record, plan.normal, used),
    )


def _others(record: dict, normal: dict[Any, str], used: set[str]) -> tuple[tuple[str, str], ...]:
    """The record's other fields as (name, text) pairs: those no field was read from, but `content` and objects."""
    others = []
    for key, value in record.items():
        if normal[key] in used or key == "content":
            continue
        value = _flat(value)
        if not isinstance(value, dict) and (text := _text(value)):
            others.append((str(key), text))
    return tuple(others)


def collect(records: Iterable[tuple[int, str, object]], path: str, warnings: list[str]) -> Collection:
    """Papers from (line, where, record) triples; `where` names the record in a warning (the arXiv
    reader hands its Atom entries here too). `records` may be read as the papers are made (`make_papers`):
    a long JSON Lines file is never held whole, nor its records."""

    def found() -> Iterator[dict[str, Any]]:
        for line, where, record in records:
            try:
                fields = _fields(record, path, line) if isinstance(record, dict) else None
            except RecursionError:  # a value of lists in lists hundreds deep
                warnings.append(f"{where}: skipped a record {TOO_DEEP}")
                continue
            if fields is None:
                what = "has no title or abstract" if isinstance(record, dict) else "is not an object"
                warnings.append(f"{where}: skipped a record that {what}")
            else:
                yield fields

    papers = papers_of(make_papers(found()), path)
    if not papers:
        raise ReadError(path, "no records with a title or abstract" + (f" ({len(warnings)} skipped)" if warnings else ""))
    return Collection(papers=papers, sources=[path], warnings=warnings)


TOO_DEEP = "nested too deeply to read"
_SURROGATE_ESCAPE = re.compile(
    r"(?<!\\)((?:\\\\)*)\\u(?:([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|[dD][c-fC-F][0-9a-fA-F]{2})"
)


def _whole_surrogates(text: str) -> str:
    """JSON text with each lone surrogate escape (a `\\ud800` not paired with a low one after it, or
    a low one alone) as `\\ufffd`: Python's json would keep it as a character no file can hold."""
    if "\\ud" not in text and "\\uD" not in text:
        return text

    def whole(match: re.Match[str]) -> str:
        paired = match.group(2) and match.group(3)
        return match.group(0) if paired else match.group(1) + "\\ufffd"

    return _SURROGATE_ESCAPE.sub(whole, text)


def parse_json(text: str, path: str) -> Collection:
    """A JSON array of records, or an object with one list of records (`{"notes": [...]}`)."""
    text = _whole_surrogates(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.lineno > 1 and text.lstrip().startswith("{"):
            return parse_jsonl(text, path)
        raise ReadError(path, f"not valid JSON: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise ReadError(path, f"{TOO_DEEP} (arrays or objects inside each other thousands deep)") from None
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
        data = lists[0] if len(lists) == 1 else [data]
    if not isinstance(data, list):
        raise ReadError(path, "JSON holds no list of records")
    return collect(((0, f"{path}: record {i}", record) for i, record in enumerate(data, start=1)), path, [])


def parse_jsonl(text: str, path: str) -> Collection:
    """One JSON object per line; a line that is not JSON is skipped with a warning."""
    return parse_jsonl_pieces([text], path)


def parse_jsonl_pieces(pieces: Iterable[str], path: str) -> Collection:
    """`parse_jsonl` of the text `pieces` make (each ending at a line end but the last: `store.readers.encoding.
    utf8_pieces`), read a piece at a time, each line parsed as it is read."""
    warnings: list[str] = []

    def records() -> Iterator[tuple[int, str, object]]:
        number = 0
        for piece in pieces:
            lines = piece.split("\n")  # not splitlines: U+2028 may be inside a string
            if len(lines) > 1 and not lines[-1]:
                lines.pop()  # (the piece ends a line: the next piece starts the next one)
            for line in lines:
                number += 1
                if not line.strip():
                    continue
                try:
                    record = json.loads(_whole_surrogates(line))
                except json.JSONDecodeError as exc:
                    warnings.append(f"{path}:{number}: skipped a line that is not JSON ({exc.msg})")
                except RecursionError:
                    warnings.append(f"{path}:{number}: skipped a line {TOO_DEEP}")
                else:
                    yield number, f"{path}:{number}", record

    return collect(records(), path, warnings)


def json_lines(head: str) -> bool:
    """Whether a `.json` file starting with `head` is JSON Lines (the arXiv snapshot's form, which `parse_json`
    reads as such): its first line that is not blank is a whole JSON object, and another line follows it."""
    lines = iter(head.split("\n"))
    first = next((line for line in lines if line.strip()), "")
    if not first.lstrip().startswith("{") or not any(line.strip() for line in lines):
        return False
    try:
        return isinstance(json.loads(_whole_surrogates(first)), dict)
    except (json.JSONDecodeError, RecursionError):
        return False


PROSE_WORDS = 12
"""A cell of a header-less single-column table is read as an abstract when it has this many
words or more: column names are a word or two, abstracts a hundred and more."""


def _rows(reader: Any) -> Iterator[tuple[int, list[str]]]:
    """(the line it starts on, its cells) of each row of a `csv.reader` that is not blank."""
    start = reader.line_num + 1
    for row in reader:
        if any(cell.strip() for cell in row):
            yield start, row
        start = reader.line_num + 1


def _prose(row: list[str]) -> bool:
    """Whether a row is one cell of running text (an abstract), other cells empty."""
    return len(row[0].split()) >= PROSE_WORDS and not any(cell.strip() for cell in row[1:])


def parse_csv(text: str, path: str) -> Collection:
    """A CSV or TSV table with a header row naming at least a title or an abstract column; or,
    without a header row, a single column of abstracts (every cell running text)."""
    sample = text[:65536]
    delimiter = "\t" if path.lower().endswith(".tsv") or sample.count("\t") > sample.count(",") else ","
    csv.field_size_limit(1 << 28)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        rows = _rows(reader)
        line, header = next(rows, (1, []))
        names = {_normal(name) for name in header}
        if names & set(_ALIASES["title"] + _ALIASES["abstract"]):
            return collect(((start, f"{path}:{start}", dict(zip(header, row))) for start, row in rows), path, [])
        table = [(line, header), *rows]
        if header and all(_prose(row) for _, row in table):
            return collect(((start, f"{path}:{start}", {"abstract": row[0]}) for start, row in table), path, [])
    except csv.Error as exc:
        raise ReadError(path, f"not valid CSV: {exc}", reader.line_num) from None
    first = " ".join(inert(delimiter.join(header)).split())
    first = f"{first[:40]}…" if len(first) > 40 else first
    raise ReadError(
        path,
        f"no title or abstract column in the header row {first!r} (expected names such as title, abstract, summary, "
        "authors, year, url; a single column of abstracts needs no header)",
        line,
    )
