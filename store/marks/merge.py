"""The merge rule for marks made on several devices: per paper and per field, the later change wins.

Pure functions over plain JSON values. A paper's *record* is what the database keeps beside its
marks (under `"fields"`, as a JSON string), and what device files and backups carry:

    {"read": [value, time, device], "starred": [...], "priority": [...], "dismissed": [...],
     "note": [[text, time, device, {device: count}], ...],
     "tags": {tag: [present, time, device]}}

- read, starred, priority, dismissed: the value with the greatest (time, device, value) wins: the
  device, then the value, break a tie, so every device picks the same one.
- tags: each tag is added or removed by time, the same way (`present` false: removed).
- note: the texts no later write has replaced. Each note written carries a version vector (per
  device, how many of its notes the writer had seen); a text goes only when a write that saw it
  replaced it. When two devices changed the note since they last met, both texts stay: the note
  shown is the later one first, then each other one under a marker line (`KEPT`).

`merge` is commutative, associative and idempotent (tests/test_merge.py): devices that exchange
records in any order end with the same. A paper stored before fields had times (an older database)
gives each mark the paper's `updated` time and the device "" (older than any device's change of
the same moment). Tags are shown in the order they were added (those of one change by name).

`edit` is a change made here: each field changed gets the time of the change, or just after the
field's own time when that is later (another device's clock ahead): a change made here always wins
over what this database held when it was made. (The store times a change after every mark it holds,
`store.marks.clock`; this keeps the rule for a field that a version without that clock wrote.)

A time is a number of seconds since 1970 up to the end of the year 9999 (what a date can be written as).
"""
from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Mapping
from typing import Any

from store.marks.clock import after

SCALARS = ("read", "starred", "priority", "dismissed")
"""The marks merged as one value each (the note and the tags are merged as described above)."""
DEFAULTS: dict[str, Any] = {"read": False, "starred": False, "priority": 0, "dismissed": False}
KEPT = "──── also kept: the note as {device} had it at {when} (both devices changed it) ────"

Record = dict[str, Any]


def _key(entry: list[Any]) -> tuple[Any, ...]:
    """What orders two values of a field ([value, time, device], a tag's [present, time, device], a
    note's [text, time, device, seen]): time, device, then the value itself."""
    return (entry[1], entry[2], entry[0])


def _after(stamp: float, entries: Iterable[list[Any]]) -> float:
    """The time a change made here at `stamp` gets: after every one of `entries` (a clock ahead elsewhere)."""
    return after(stamp, max((entry[1] for entry in entries), default=stamp))


def _later(a: list[Any] | None, b: list[Any] | None) -> list[Any] | None:
    if a is None or b is None:
        return a if b is None else b
    return a if _key(a) >= _key(b) else b


def _seen(v: Mapping[str, int], w: Mapping[str, int]) -> bool:
    """Whether a write with version vector `w` had seen everything `v` had."""
    return all(n <= w.get(device, 0) for device, n in v.items())


def _below(v: Mapping[str, int], w: Mapping[str, int]) -> bool:
    """Whether version vector `v` is strictly before `w` (a write that saw `v` made `w`)."""
    return _seen(v, w) and not _seen(w, v)


def _notes(entries: Iterable[list[Any]]) -> list[list[Any]]:
    """The note texts no other one replaced, each once, latest first."""
    unique = {(e[0], e[1], e[2], tuple(sorted(e[3].items()))): e for e in entries}
    alive = [e for e in unique.values() if not any(_below(e[3], o[3]) for o in unique.values())]
    return sorted(alive, key=_key, reverse=True)


def merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> Record:
    """The record that holds every change of records `a` and `b`, per field the later."""
    if a == b:
        return a  # type: ignore[return-value]
    out: Record = {}
    for name in SCALARS:
        entry = _later(a.get(name), b.get(name))
        if entry is not None:
            out[name] = entry
    if "note" in a or "note" in b:
        out["note"] = _notes([*a.get("note", ()), *b.get("note", ())])
    if "tags" in a or "tags" in b:
        ta, tb = a.get("tags", {}), b.get("tags", {})
        out["tags"] = {tag: _later(ta.get(tag), tb.get(tag)) for tag in {**ta, **tb}}
    return out


def merge_all(records: Iterable[Mapping[str, Any]]) -> Record:
    out: Record = {}
    for record in records:
        out = merge(out, record)
    return out


def note_text(entries: Iterable[list[Any]]) -> str:
    """The note shown for these note texts (latest first): one text, or all of them, each after the
    first under a `KEPT` line naming its device and time."""
    seen: dict[str, list[Any]] = {}
    for entry in entries:
        if entry[0] and entry[0] not in seen:
            seen[entry[0]] = entry
    if len(seen) <= 1:
        return next(iter(seen), "")
    first, *rest = seen.values()
    parts = [first[0]]
    for text, stamp, device, _ in rest:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(stamp))
        parts.append(KEPT.format(device=f"device {device}" if device else "an older database", when=when) + "\n" + text)
    return "\n\n".join(parts)


def values(record: Mapping[str, Any]) -> dict[str, Any]:
    """The marks a record holds, as `Triage.marks()` gives them (tags in the order they were added, then by name)."""
    marks = {name: record[name][0] if name in record else DEFAULTS[name] for name in SCALARS}
    marks["note"] = note_text(record.get("note", ()))
    tags = record.get("tags", {})
    marks["tags"] = [tag for tag, entry in sorted(tags.items(), key=lambda item: (item[1][1], item[1][2], item[0])) if entry[0]]
    return marks


def latest(record: Mapping[str, Any]) -> float:
    """The time of the record's latest change (0 when it has none)."""
    times = [record[name][1] for name in SCALARS if name in record]
    times += [entry[1] for entry in record.get("note", ())]
    times += [entry[1] for entry in record.get("tags", {}).values()]
    return max(times, default=0.0)


def legacy(doc: Mapping[str, Any]) -> Record:
    """The record of a document stored without times: each mark at the document's `updated` time."""
    stamp = float(doc.get("updated", 0.0))
    record: Record = {name: [doc[name], stamp, ""] for name in SCALARS if name in doc}
    if doc.get("note"):
        record["note"] = [[str(doc["note"]), stamp, "", {}]]
    tags = [str(tag) for tag in doc.get("tags", ())]
    if tags:
        record["tags"] = {tag: [True, stamp, ""] for tag in tags}
    return record


def record_of(doc: Mapping[str, Any]) -> Record:
    """The record of a stored document (one written before times were kept included)."""
    fields = doc.get("fields")
    if isinstance(fields, str):
        try:
            fields = json.loads(fields)
        except ValueError:
            fields = None
    return fields if isinstance(fields, dict) else legacy(doc)


def records_of(docs: Mapping[str, Mapping[str, Any]]) -> dict[str, tuple[Record, str]]:
    """Each stored document's record and fingerprint, by paper id."""
    return {pid: (record_of(doc), doc.get("fp", "")) for pid, doc in docs.items()}


def doc_of(record: Record, fp: str) -> dict[str, Any]:
    """The document stored for a record: its marks, their latest time, the fingerprint, and the record
    as one compact JSON string (chosen when the snapshot was indented JSON, which a nested record made
    three times slower to write and read)."""
    return {**values(record), "updated": latest(record), "fp": fp, "fields": json.dumps(record, separators=(",", ":"), sort_keys=True)}


def edit(record: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any], stamp: float, device: str) -> Record:
    """`record` with the marks changed from `before` to `after` (as `Triage.marks()`) by `device` at
    `stamp`; `record` itself (the same object) when no mark changed."""
    out: Record = dict(record)
    changed = False
    for name in SCALARS:
        if after[name] != before[name]:
            old = record.get(name)
            out[name] = [after[name], _after(stamp, [old] if old else []), device]
            changed = True
    if after["note"] != before["note"]:
        notes = record.get("note", ())
        seen: dict[str, int] = {}
        for entry in notes:
            for who, n in entry[3].items():
                seen[who] = max(seen.get(who, 0), n)
        seen[device] = seen.get(device, 0) + 1
        out["note"] = [[after["note"], _after(stamp, notes), device, seen]]
        changed = True
    added = [tag for tag in after["tags"] if tag not in before["tags"]]
    removed = [tag for tag in before["tags"] if tag not in after["tags"]]
    if added or removed:
        tags = dict(record.get("tags", {}))
        when = _after(stamp, tags.values())
        for tag in added:
            tags[tag] = [True, when, device]
        for tag in removed:
            tags[tag] = [False, when, device]
        out["tags"] = tags
        changed = True
    return out if changed else record  # type: ignore[return-value]


class Invalid(ValueError):
    """A record from a file that is not one this version writes: `str()` says what is wrong."""


LAST_TIME = 253402300799.0
"""The end of the year 9999: a time after it cannot be written as a date."""


def _time(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not 0 <= value <= LAST_TIME:
        raise Invalid(f"{what}: time {value!r} is not a time")
    return float(value)


def checked(record: Any) -> Record:
    """`record`, canonical, when it is a well-formed record (see the module docstring); `Invalid` saying what is not."""
    if not isinstance(record, dict):
        raise Invalid("the fields are not a JSON object")
    unknown = record.keys() - {*SCALARS, "note", "tags"}
    if unknown:
        raise Invalid(f"unknown field {sorted(unknown)[0]!r}")
    for name in SCALARS:
        if name in record:
            entry = record[name]
            if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], str)):
                raise Invalid(f"{name}: not [value, time, device]")
            value = entry[0]
            ok = value in range(6) and not isinstance(value, bool) if name == "priority" else isinstance(value, bool)
            if not ok:
                raise Invalid(f"{name}: {value!r} is not a value it takes")
            _time(entry[1], name)
    for entry in record.get("note", []) if isinstance(record.get("note", []), list) else [None]:
        if not (isinstance(entry, list) and len(entry) == 4 and isinstance(entry[0], str) and isinstance(entry[2], str)
                and isinstance(entry[3], dict)
                and all(isinstance(k, str) and type(n) is int and n >= 0 for k, n in entry[3].items())):
            raise Invalid("note: not [text, time, device, {device: count}]")
        _time(entry[1], "note")
    tags = record.get("tags", {})
    if not isinstance(tags, dict):
        raise Invalid("tags: not a JSON object")
    for tag, entry in tags.items():
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], bool) and isinstance(entry[2], str)):
            raise Invalid(f"tag {tag!r}: not [present, time, device]")
        _time(entry[1], f"tag {tag!r}")
    # canonical: the notes no other replaced, latest first (one note, or none, is already)
    return merge({}, record) if len(record.get("note", ())) > 1 else record
