"""What the journaled store's files hold, each part sealed by a checksum: the snapshot and a journal line.

- A snapshot: sorted JSON `{"checksum", "generation", "schema", "tables"}`, a document a line; the
  checksum (its own line, first) is taken over the file's bytes without that line.
- A journal line: one JSON object `{"g": generation, "tables": {name: {"put", "del"}}, "c"}`;
  `c` (last) is taken over the line's bytes without it.

A checksum is a CRC-32 as 8 hex digits, over the bytes as written, so checking one costs no
more than reading it (~0.25 ns a byte; a cryptographic hash costs four times that, and one over
the JSON value rather than its bytes would mean writing the whole snapshot again at each open).
A CRC-32 catches every change of up to 32 bits in a row, so every changed byte, and any other
damage but for one chance in four billion.

Files from older versions have no checksums and are believed as they are: a line or snapshot
without one, but with exactly the fields those versions wrote (so is a snapshot whose checksum
line was deleted to edit it by hand). Older versions read these files, ignoring the checksums
(the schema stays 1: nothing else changed).
"""
from __future__ import annotations

import json
import re
import zlib
from typing import Any

from store.common import json_out
from store.common.errors import ReadError

SCHEMA = 1
"""The snapshot's format. A mark added with a default (`dismissed`) needs no new version: a document
without it reads as the default, and an older paper-triage ignores it; a higher number makes older
versions refuse the whole database. (Checksums need none either: older versions ignore them.)"""
SNAPSHOT_FIELDS = {"schema", "generation", "tables"}
LINE_FIELDS = {"g", "tables"}
_SNAPSHOT_SEAL = re.compile(rb'\{\n "checksum": "([0-9a-f]{8})",\n')
_LINE_SEAL = re.compile(rb', "c": "([0-9a-f]{8})"\}')

Tables = dict[str, dict[str, dict[str, Any]]]


class Damaged(Exception):
    """The snapshot's content cannot be believed; `str()` says why."""


def _crc(data: bytes) -> bytes:
    return b"%08x" % zlib.crc32(data)


def snapshot(generation: int, tables: Tables) -> bytes:
    """The snapshot's bytes: sorted JSON, one document a line (indented JSON would be written by
    json's pure-Python encoder, five times slower than its C one, which writes each document)."""
    def dumps(value: Any) -> str:
        return json_out.dumps(value, sort_keys=True)

    parts = [f'{{\n "generation": {generation},\n "schema": {SCHEMA},\n "tables": {{']
    for t, name in enumerate(sorted(tables)):
        docs = tables[name]
        parts.append(f'{"," if t else ""}\n  {dumps(name)}: {{')
        parts.append(",".join(f"\n   {dumps(key)}: {dumps(docs[key])}" for key in sorted(docs)))
        parts.append("\n  }" if docs else "}")
    parts.append("\n }\n}\n")
    body = "".join(parts).encode("utf-8")
    return b'{\n "checksum": "%s",\n' % _crc(body) + body[2:]  # first, as sorted JSON has it


def parse_snapshot(path: str, raw: bytes) -> tuple[Tables, int]:
    """The tables and generation of the snapshot `raw` (read from `path`).

    `Damaged` when it cannot be believed; `ReadError` when a newer schema wrote it."""
    sealed = _SNAPSHOT_SEAL.match(raw)
    if sealed is not None:
        raw = b"{\n" + raw[sealed.end() :]
        if _crc(raw) != sealed[1]:
            raise Damaged("is damaged (its checksum does not match its content)")
    if not raw.strip():
        raise Damaged("is empty")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Damaged(f"is not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("schema"), int):
        raise Damaged("is not a paper-triage database (no schema version)")
    if data["schema"] > SCHEMA:
        raise ReadError(
            path,
            f"written by a newer paper-triage (schema {data['schema']}, this version reads {SCHEMA}); "
            "upgrade paper-triage or use another --db",
        )
    if not data.keys() <= SNAPSHOT_FIELDS or (sealed is not None and data.keys() != SNAPSHOT_FIELDS):
        raise Damaged("is damaged (it has fields paper-triage never writes)")
    tables = data.get("tables")
    if not isinstance(tables, dict) or not all(
        isinstance(docs, dict) and all(isinstance(doc, dict) for doc in docs.values()) for docs in tables.values()
    ):
        raise Damaged("has no readable tables")
    generation = data.get("generation", 0)
    if type(generation) is not int:
        raise Damaged("has no readable generation number")
    return {name: dict(docs) for name, docs in tables.items()}, generation


def journal_line(generation: int, changes: dict[str, dict[str, Any]]) -> bytes:
    body = json_out.dumps({"g": generation, "tables": changes}).encode("utf-8")
    return body[:-1] + b', "c": "%s"}\n' % _crc(body)


def parse_line(line: bytes) -> dict[str, Any] | None:
    """A journal line's content, or None when it is damaged: its checksum differs, or it is not
    JSON shaped as a line."""
    sealed = _LINE_SEAL.fullmatch(line[-len(b', "c": "12345678"}') :])
    if sealed is not None:
        line = line[: -len(sealed[0])] + b"}"
        if _crc(line) != sealed[1]:
            return None
    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.keys() != LINE_FIELDS:
        return None
    tables = entry["tables"]
    if type(entry["g"]) is not int or not isinstance(tables, dict):
        return None
    for change in tables.values():
        if not isinstance(change, dict) or change.keys() != {"put", "del"}:
            return None
        put, removed = change["put"], change["del"]
        if not isinstance(put, dict) or not all(isinstance(doc, dict) for doc in put.values()):
            return None
        if not isinstance(removed, list) or not all(isinstance(key, str) for key in removed):
            return None
    return entry
