"""The portable file of marks: what a device file in a sync folder and a backup hold, and how it is read.

JSON Lines, one paper a line between a header and an end line:

    {"paper-triage": "marks", "version": 1, "device": "3f9a0c1e", "papers": 2, "written": 1764585600.0}
    {"id": "…", "fp": "…", "read": true, …, "tags": ["x"], "updated": …, "fields": {…}, "paper": {…}}
    {"id": "…", …}
    {"end": 2}

A paper's line is its id, the marks as `triage list` shows them, their latest time (`updated`), the
fingerprint of its abstract (so a later version of the abstract finds them again) and `fields`, the
record `store.marks.merge` merges (each mark with its time and device), and `paper`, the paper's record when
the database keeps one (`store.library.record`: what the paper is; older versions ignore it). A file is written
whole (`store.common.files.write_whole`), papers sorted by id, so the same marks always give the same lines
after the header; a device file's header says when it was written, by its device's clock (`written`:
how far ahead that clock is, `store.marks.clock.ahead`), a backup's does not.

`read` (a line at a time) and `decode` (bytes) refuse a whole file (ReadError naming the file and line)
that is not such a file, is cut short (no end line, or not the number of papers its header says), comes
from a newer version, or holds a record that is not well formed or a text that is not Unicode (a lone
surrogate, which valid JSON can hold and no file can store). A change dated ahead of this clock is merged
as any other: a change made here after it comes after it (`store.marks.clock`).
"""
from __future__ import annotations

import io
import itertools
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO

from store.common.errors import ReadError
from store.common.json_out import dumps
from store.library.record import checked as checked_paper
from store.library.shelf import Records
from store.marks.merge import Invalid, Record, checked, doc_of

VERSION = 1
KINDS = ("marks", "backup")
"""What a header may say it is: a device file in a sync folder, or a backup (`triage backup`)."""


def encode(kind: str, device: str, records: Mapping[str, tuple[Record, str]], written: float | None = None) -> bytes:
    """The file of these records (paper id → record, fingerprint)."""
    return encode_documents(kind, device, {pid: doc_of(record, fp) for pid, (record, fp) in records.items()}, written)


def encode_documents(kind: str, device: str, docs: Mapping[str, Mapping[str, Any]], written: float | None = None,
                     papers: Mapping[str, Mapping[str, Any]] | None = None) -> bytes:
    """The file of these database documents (`store.marks.merge.doc_of`: the record as a compact JSON string,
    put in as it is, so nothing is parsed again): each paper's id first, then its marks and fingerprint
    with sorted keys, then its record (the same marks, the same bytes), then its paper's record from `papers`
    when there is one. `written`: when, by this clock."""
    papers = papers or {}
    head = {"paper-triage": kind, "version": VERSION, "device": device, "papers": len(docs)}
    lines = [json.dumps(head if written is None else {**head, "written": written})]
    for pid in sorted(docs):
        doc = docs[pid]
        rest = dumps({key: value for key, value in doc.items() if key != "fields"}, sort_keys=True)
        paper = papers.get(pid)
        kept = ', "paper": ' + dumps(paper) if paper else ""
        lines.append('{"id": ' + json.dumps(pid) + ", " + rest[1:-1] + ', "fields": ' + doc["fields"] + kept + "}")
    lines.append(json.dumps({"end": len(docs)}))
    return ("\n".join(lines) + "\n").encode("utf-8")


def header(path: str, data: bytes) -> dict[str, Any]:
    """The header of a marks file (ReadError when `data` is not one, or is from a newer version)."""
    first = data.split(b"\n", 1)[0]
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        head = None
    if not isinstance(head, dict) or head.get("paper-triage") not in KINDS:
        raise ReadError(path, "not a paper-triage marks file (no header line)", 1)
    version = head.get("version")
    if type(version) is not int or version < 1:
        raise ReadError(path, f"header: version {version!r} is not a version", 1)
    if version > VERSION:
        raise ReadError(path, f"written by a newer paper-triage (format {version}; this one reads {VERSION}): update to read it", 1)
    return head


def decode(path: str, data: bytes, papers: Records | None = None) -> dict[str, tuple[Record, str]]:
    """The records of a marks file held in memory (see `read`)."""
    return read(path, io.BytesIO(data), papers=papers)


_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
"""An escaped UTF-16 surrogate: a pair is a character, one alone is not Unicode (it cannot be stored)."""


def read(path: str, file: BinaryIO, most_papers: int | None = None, most_bytes: int | None = None,
         papers: Records | None = None) -> dict[str, tuple[Record, str]]:
    """The records of the marks file open as `file` (paper id → record, fingerprint), read a line at a
    time (never the whole file in memory): ReadError naming the line of the first problem (see the module
    docstring), or when it holds more than `most_papers` papers or `most_bytes` bytes. The papers' records
    the lines carry go into `papers` (paper id → record, those shaped as records)."""
    lines = _lines(path, file, most_bytes)
    number, first = next(lines, (1, b""))
    head = header(path, first)
    expected = head.get("papers")
    most = f"more than the {most_papers:,} papers one device file may bring" if most_papers is not None else ""
    if most_papers is not None and type(expected) is int and expected > most_papers:
        raise ReadError(path, f"holds marks on {expected:,} papers, {most}", 1)
    records: dict[str, tuple[Record, str]] = {}
    count, end, blank = 0, None, 0
    for number, line in lines:
        if not line.strip():
            blank = blank or number
            continue
        if blank or end is not None:  # a line after a blank one, or after the end line
            raise ReadError(path, "not a JSON line" if blank else "not a paper's marks (no id)", blank or end[0])
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            last = not any(rest.strip() for _, rest in lines)
            raise ReadError(path, "cut short: its last line is incomplete" if last else "not a JSON line", number) from None
        if isinstance(row, dict) and row.keys() == {"end"}:
            end = (number, row["end"])
            continue
        count += 1
        if type(expected) is int and count > expected:
            raise ReadError(path, f"more papers than the {expected:,} its header says", number)
        if most_papers is not None and count > most_papers:
            raise ReadError(path, f"holds marks on {most}", number)
        pid, entry = _paper(path, row, number, line)
        records[pid] = entry
        paper = checked_paper(row.get("paper")) if papers is not None else None
        if paper:
            papers[pid] = paper
    if end is None:
        raise ReadError(path, "cut short: no end line (a copy still in progress, or a truncated file)", number + 1)
    if end[1] != count or expected != count:
        raise ReadError(path, f"cut short: {count} papers where it says {expected!r}", end[0])
    return records


def _lines(path: str, file: BinaryIO, most: int | None) -> Iterator[tuple[int, bytes]]:
    """The lines of `file` with their numbers, ReadError once more than `most` bytes were read."""
    left = most
    for number in itertools.count(1):
        line = file.readline(-1 if left is None else left + 1)
        if not line:
            return
        if left is not None:
            left -= len(line)
            if left < 0:
                raise ReadError(path, f"more than the {most:,} bytes read from such a file", number)
        yield number, line


def _paper(path: str, row: Any, number: int, line: bytes) -> tuple[str, tuple[Record, str]]:
    """A paper's line: its id, record and fingerprint (ReadError naming the line when it is not one)."""
    if _SURROGATE.search(line):
        try:
            json.dumps(row, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ReadError(path, "a text that is not Unicode (a lone surrogate such as \\ud800)", number) from None
    if not isinstance(row, dict) or not isinstance(row.get("id"), str) or not row["id"]:
        raise ReadError(path, "not a paper's marks (no id)", number)
    try:
        record = checked(row.get("fields"))
    except Invalid as exc:
        raise ReadError(path, f"paper {row['id']}: {exc}", number) from None
    fp = row.get("fp", "")
    return row["id"], (record, fp if isinstance(fp, str) else "")
