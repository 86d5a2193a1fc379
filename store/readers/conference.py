"""The events of a conference virtual site (ICLR, ICML, NeurIPS: `/static/virtual/data/NAME-YEAR-orals-posters.json`,
saved a line each by `store.fetch.conference`), which the JSON readers recognise (`is_event`) and read
through `from_event`.

An event becomes the record the tabular reader reads: its `name` the title, its authors' `fullname`s,
`topic` the area, the track from `decision` ('Accept (oral)') or else `eventtype`, the venue from
`conference` (what the fetcher adds: 'ICLR 2024'), a link to the paper (`paper_url`, else its page on the
site: `site_url`, made whole by the fetcher) and its PDF; and its slot as fields of the paper
(`store.papers.slots`): `session`, `time` (`starttime`), `end`, `room` (`room_name`), `board`
(`poster_position`), and the slot of the first related event (`related`, the fetcher's: an oral paper's
poster, a poster's oral talk) as `also session`, `also time`... The site's other keys (media, ids) are left out."""
from __future__ import annotations

import re
from typing import Any

ALSO = "also "
"""The prefix of the related event's slot fields (`store.papers.slots`)."""
_TRACK = re.compile(r"\b(oral|spotlight|poster)", re.IGNORECASE)


def is_event(record: dict[str, Any]) -> bool:
    """Whether a JSON record is a virtual site's event: a `name`, an `eventtype` and a `virtualsite_url` or `session`."""
    return "name" in record and "eventtype" in record and ("virtualsite_url" in record or "session" in record)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _author(value: object) -> str:
    return _text(value.get("fullname")) if isinstance(value, dict) else _text(value)


def _slot(event: dict[str, Any], prefix: str = "") -> dict[str, str]:
    return {prefix + "session": _text(event.get("session")), prefix + "time": _text(event.get("starttime")),
            prefix + "end": _text(event.get("endtime")), prefix + "room": _text(event.get("room_name")),
            prefix + "board": _text(event.get("poster_position"))}


def from_event(record: dict[str, Any]) -> dict[str, Any]:
    """An event as the tabular reader's record (see the module's docstring)."""
    related = record.get("related")
    other = related[0] if isinstance(related, list) and related and isinstance(related[0], dict) else {}
    track = _TRACK.search(_text(record.get("decision"))) or _TRACK.search(_text(record.get("eventtype")))
    authors = record.get("authors")
    return {
        "title": _text(record.get("name")),
        "abstract": _text(record.get("abstract")),
        "authors": [_author(a) for a in authors] if isinstance(authors, list) else _text(authors),
        "venue": _text(record.get("conference")),
        "track": track.group(1) if track else "",
        "keywords": record.get("keywords") if isinstance(record.get("keywords"), list) else [],
        "primary_area": _text(record.get("topic")),
        "url": _text(record.get("paper_url")) or _text(record.get("site_url")),
        "pdf_url": _text(record.get("paper_pdf_url")),
        **_slot(record),
        **_slot(other, ALSO),
    }
