"""The portable file of marks: what a device file in a sync folder and a backup hold, and how it is read.

JSON Lines, one paper a line between a header and an end line:

    {"paper-triage": "marks", "version": 1, "device": "3f9a0c1e", "papers": 2}
    {"id": "…", "fp": "…", "read": true, …, "tags": ["x"], "updated": …, "fields": {…}}
    {"id": "…", …}
    {"end": 2}

A paper's line is its id, the marks as `triage list` shows them, their latest time (`updated`), the
fingerprint of its abstract (so a later version of the abstract finds them again) and `fields`, the
record `store.marks.merge` merges (each mark with its time and device). A file is written
whole (`store.common.files.write_whole`), papers sorted by id, so the same marks always give the same bytes.

`decode` refuses a whole file (ReadError naming the file and line) that is not such a file, is cut
short (no end line, or not the number of papers its header says), comes from a newer version, holds
a record that is not well formed, or claims a change more than `SKEW` seconds ahead of this clock.
"""
from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from store.common.errors import ReadError
from store.common.json_out import dumps
from store.marks.merge import Invalid, Record, checked, doc_of, latest

VERSION = 1
KINDS = ("marks", "backup")
"""What a header may say it is: a device file in a sync folder, or a backup (`triage backup`)."""
SKEW = 24 * 3600.0
"""A change more than a day ahead of this clock is refused, with the whole file: a device whose clock
is far ahead would otherwise win every field for as long as it is ahead."""


def encode(kind: str, device: str, records: Mapping[str, tuple[Record, str]]) -> bytes:
    """The file of these records (paper id → record, fingerprint)."""
    return encode_documents(kind, device, {pid: doc_of(record, fp) for pid, (record, fp) in records.items()})


def encode_documents(kind: str, device: str, docs: Mapping[str, Mapping[str, Any]]) -> bytes:
    """The file of these database documents (`store.marks.merge.doc_of`: the record as a compact JSON string,
    put in as it is, so nothing is parsed again): each paper's id first, then its marks and fingerprint
    with sorted keys, then its record (the same marks, the same bytes)."""
    lines = [json.dumps({"paper-triage": kind, "version": VERSION, "device": device, "papers": len(docs)})]
    for pid in sorted(docs):
        doc = docs[pid]
        rest = dumps({key: value for key, value in doc.items() if key != "fields"}, sort_keys=True)
        lines.append('{"id": ' + json.dumps(pid) + ", " + rest[1:-1] + ', "fields": ' + doc["fields"] + "}")
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


def decode(path: str, data: bytes, now: float | None = None) -> dict[str, tuple[Record, str]]:
    """The records of a marks file (paper id → record, fingerprint); ReadError naming the line of the
    first problem (see the module docstring)."""
    head = header(path, data)
    now = time.time() if now is None else now
    lines = data.split(b"\n")[1:]
    while lines and not lines[-1].strip():
        lines.pop()
    try:
        rows = json.loads(b"[" + b",".join(lines) + b"]") if lines else []
    except (ValueError, RecursionError):
        rows = None
    if rows is None:  # find the line that is not JSON
        for number, line in enumerate(lines, 2):
            try:
                json.loads(line)
            except (ValueError, RecursionError):
                last = number == len(lines) + 1
                raise ReadError(path, "cut short: its last line is incomplete" if last else "not a JSON line", number) from None
    assert rows is not None
    if not rows or not isinstance(rows[-1], dict) or rows[-1].keys() != {"end"}:
        raise ReadError(path, "cut short: no end line (a copy still in progress, or a truncated file)", len(lines) + 1)
    papers = rows.pop()["end"]
    if papers != len(rows) or head.get("papers") != len(rows):
        raise ReadError(path, f"cut short: {len(rows)} papers where it says {head.get('papers')!r}", len(lines) + 1)
    records: dict[str, tuple[Record, str]] = {}
    ahead = now + SKEW
    for number, row in enumerate(rows, 2):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str) or not row["id"]:
            raise ReadError(path, "not a paper's marks (no id)", number)
        try:
            record = checked(row.get("fields"))
        except Invalid as exc:
            raise ReadError(path, f"paper {row['id']}: {exc}", number) from None
        when = latest(record)
        if when > ahead:
            stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(min(when, 253402300799)))
            raise ReadError(path, f"paper {row['id']}: a change dated {stamp}, more than a day ahead of this clock"
                            " (is that device's clock wrong?)", number)
        fp = row.get("fp", "")
        records[row["id"]] = (record, fp if isinstance(fp, str) else "")
    return records
