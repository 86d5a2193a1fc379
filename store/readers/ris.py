"""RIS, the tagged format of Zotero, Mendeley, EndNote and Paperpile exports: `TY  - JOUR` starts a
record, `ER  - ` ends it, each line between is a tag, two spaces, a hyphen, a space and a value; a line
without a tag continues the value before it (on a new line: Zotero wraps abstracts so).

A record becomes the tabular reader's record (`store.readers.tabular.collect`: made inert, skipped with
a warning naming its line when it has neither title nor abstract): title (TI, T1, CT, BT), abstract (AB,
N2), authors in order (AU, A1; "Last, First, Suffix" kept as "Last, Suffix, First", BibTeX's order), year
(PY, Y1, DA), venue (T2, JF, JO, J2, JA, BT), url (the first UR), pdf (L1), DOI (DO), citation key (ID),
keywords (KW, a line each), arXiv id (AN, a UR or a DOI of arXiv's), and volume, issue, pages,
publisher, ISSN and notes under their BibTeX names. Lines outside a record and tags it does not know
are passed over; a record the file ends inside is read with a warning naming its line."""
from __future__ import annotations

import re
from collections.abc import Iterator

from store.common.errors import ReadError
from store.papers.model import Collection
from store.readers.identifiers import arxiv_id
from store.readers.tabular import collect

_TAG = re.compile(r"([A-Z][A-Z0-9]) {1,2}-(?: (.*)|\s*)$")
_START = re.compile(r"\A\ufeff?\s*TY {1,2}- ")
_ANY_START = re.compile(r"^\ufeff?TY {1,2}- ", re.MULTILINE)
_FIRST = {
    "title": ("TI", "T1", "CT", "BT"), "abstract": ("AB", "N2"), "year": ("PY", "Y1", "DA"),
    "venue": ("T2", "JF", "JO", "J2", "JA", "BT"), "url": ("UR",), "pdf_url": ("L1",), "doi": ("DO",), "key": ("ID",),
    "volume": ("VL",), "number": ("IS",), "publisher": ("PB",), "issn": ("SN",), "type": ("TY",),
}
"""Each field of the tabular record and the tags it is read from, the first one present winning."""


def looks_like_ris(text: str) -> bool:
    """Whether `text` starts (after blank lines) with a RIS record's `TY  - ` line."""
    return _START.match(text) is not None


def _records(text: str, path: str, warnings: list[str]) -> Iterator[tuple[int, str, dict[str, object]]]:
    """(its first line, where, its tabular record) of each RIS record of `text`."""
    tags: dict[str, list[list[str]]] | None = None  # each tag's values, each value as its lines
    start = 0
    last = ""
    for number, raw in enumerate(text.split("\n"), start=1):  # not splitlines: U+2028 may be inside a value
        line = raw.rstrip("\r").lstrip("\ufeff")
        match = _TAG.match(line)
        if match is None:
            if tags is not None and last and line.strip():  # the value before, continued
                tags[last][-1].append(line.strip())  # (joined once the record is read: linear in its lines)
            continue
        tag, value = match.group(1), (match.group(2) or "").strip()
        if tag == "TY":
            if tags is not None:
                warnings.append(f"{path}:{start}: a record with no ER line before the next TY (read as it is)")
                yield start, f"{path}:{start}", _record(_values(tags))
            tags, start, last = {}, number, ""
        if tags is None:  # outside a record
            continue
        if tag == "ER":
            yield start, f"{path}:{start}", _record(_values(tags))
            tags = None
            continue
        tags.setdefault(tag, []).append([value])
        last = tag
    if tags is not None:
        warnings.append(f"{path}:{start}: the file ends inside this record (no ER line; read as it is)")
        yield start, f"{path}:{start}", _record(_values(tags))


def _values(tags: dict[str, list[list[str]]]) -> dict[str, list[str]]:
    return {tag: ["\n".join(filter(None, lines)) for lines in values] for tag, values in tags.items()}


def _name(value: str) -> str:
    """A RIS name as the readers keep names: "Last, First" as it is, "Last, First, Suffix" in BibTeX's
    order ("Last, Suffix, First")."""
    parts = [part.strip() for part in value.split(",")]
    return f"{parts[0]}, {parts[2]}, {parts[1]}" if len(parts) == 3 and all(parts) else value


def _record(tags: dict[str, list[str]]) -> dict[str, object]:
    record: dict[str, object] = {}
    for field, names in _FIRST.items():
        value = next((tags[name][0] for name in names if tags.get(name, [""])[0]), "")
        if value:
            record[field] = " ".join(value.split()) if field != "abstract" else value
    record["authors"] = [_name(" ".join(v.split())) for tag in ("AU", "A1") for v in tags.get(tag, ()) if v.strip()]
    record["keywords"] = [" ".join(v.split()) for v in tags.get("KW", ()) if v.strip()]
    first, last = (tags.get(tag, [""])[0].strip() for tag in ("SP", "EP"))
    if first:
        record["pages"] = f"{first}--{last}" if last else first
    notes = [v for v in tags.get("N1", ()) if v.strip()]
    if notes:
        record["note"] = "\n".join(notes)
    found = (arxiv_id(v) for tag in ("AN", "UR", "DO") for v in tags.get(tag, ()))
    record["arxiv"] = next(filter(None, found), "")
    return record


def parse(text: str, path: str) -> Collection:
    """The papers of a RIS text (already decoded); `ReadError` when it holds no record with a title or abstract."""
    warnings: list[str] = []
    if not _ANY_START.search(text):
        raise ReadError(path, "no RIS records (a record starts with a line 'TY  - ')")
    return collect(_records(text, path, warnings), path, warnings)
