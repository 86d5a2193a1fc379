"""What the journaled store's files hold, each part sealed by a checksum: the snapshot and a journal line.

- A snapshot: sorted, indented JSON `{"checksum", "generation", "schema", "tables"}`, the
  `checksum` taken over the other three.
- A journal line: one JSON object `{"g": generation, "tables": {name: {"put", "del"}}, "c"}`,
  `c` taken over the rest.

A checksum is the CRC-32 of the value's canonical JSON (sorted keys, no spaces), as 8 hex
digits: spacing that does not change the value is no damage; a CRC-32 catches every change of
up to 32 bits in a row (so every changed byte) and any other but for one chance in four billion,
at ~0.25 ns a byte (a cryptographic hash costs four times that).

Files from older versions have no checksums and are believed as they are: a line or snapshot
without one, but with exactly the fields those versions wrote. Older versions read these files,
ignoring the checksums (the schema stays 1: nothing else changed).
"""
from __future__ import annotations

import json
import zlib
from typing import Any

from store.errors import ReadError

SCHEMA = 1
SNAPSHOT_FIELDS = {"schema", "generation", "tables"}
LINE_FIELDS = {"g", "tables"}

Tables = dict[str, dict[str, dict[str, Any]]]


class Damaged(Exception):
    """The snapshot's content cannot be believed; `str()` says why."""


def checksum(value: Any) -> str:
    """8 hex digits that change whenever the JSON value `value` does (not its spacing or key order)."""
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return f"{zlib.crc32(canonical.encode('utf-8', 'surrogatepass')):08x}"


def snapshot(generation: int, tables: Tables) -> bytes:
    data = {"schema": SCHEMA, "generation": generation, "tables": tables}
    body = json.dumps({**data, "checksum": checksum(data)}, sort_keys=True, indent=1, ensure_ascii=False)
    return (body + "\n").encode("utf-8")


def parse_snapshot(path: str, raw: bytes) -> tuple[Tables, int]:
    """The tables and generation of the snapshot `raw` (read from `path`).

    `Damaged` when it cannot be believed; `ReadError` when a newer schema wrote it."""
    if not raw.strip():
        raise Damaged("is empty")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise Damaged(f"is not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("schema"), int):
        raise Damaged("is not a paper-triage database (no schema version)")
    sealed = data.pop("checksum", None)
    if sealed is not None and sealed != checksum(data):
        raise Damaged("is damaged (its checksum does not match its content)")
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
    entry = {"g": generation, "tables": changes}
    return (json.dumps({**entry, "c": checksum(entry)}, ensure_ascii=False) + "\n").encode("utf-8")


def parse_line(line: bytes) -> dict[str, Any] | None:
    """A journal line's content, or None when it is damaged: not JSON, not shaped as a line, or its
    checksum differs."""
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    if not isinstance(entry, dict):
        return None
    sealed = entry.pop("c", None)
    if entry.keys() != LINE_FIELDS or (sealed is not None and sealed != checksum(entry)):
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
