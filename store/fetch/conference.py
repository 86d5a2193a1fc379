"""Conference virtual sites (ICLR, ICML, NeurIPS): the program's public JSON,
`SITE/static/virtual/data/NAME-YEAR-orals-posters.json` (`{"count": N, "results": [event, ...]}`: each
paper's poster or oral event with its session, start and end time, room and board), and, where the
year has one, the abstracts sidecar `NAME-YEAR-abstracts.json` (`{"EVENT ID": "abstract", ...}`: the
events then come without abstracts; a year without it answers 404).

Saved as JSON Lines, one event a line as the site sent it, with what the file alone would lack: its
abstract from the sidecar when it has none, `conference` ('ICLR 2024'), `site_url` (its page on
the site, made whole) and `related` (the slots of the events it names in `related_events_ids`: an
oral paper's talk and poster are two events, each then knowing the other's); `store.readers.conference`
reads it. The program is one answer: a later fetch
adds the events not seen before."""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from store.common.errors import ReadError
from store.common.json_out import dumps
from store.fetch.client import Client, FetchError
from store.fetch.saved import feed_name, joined_lines, json_lines, json_value
from store.fetch.source import Page

SITES = {"iclr": "https://iclr.cc", "icml": "https://icml.cc", "neurips": "https://neurips.cc"}
NAMES = {"iclr": "ICLR", "icml": "ICML", "neurips": "NeurIPS"}
DELAY = 1.0
SLOT_KEYS = ("eventtype", "session", "starttime", "endtime", "room_name", "poster_position")
"""What of a related event a saved event keeps (`related`)."""


def endpoint(conference: str, option: str | None = None) -> str:
    return option or os.environ.get("TRIAGE_CONFERENCE_SITE") or SITES[conference]


def _events(body: bytes, where: str) -> list[dict]:
    answer = json_value(body.decode("utf-8", "replace"), where)
    events = answer.get("results") if isinstance(answer, dict) else answer
    if not isinstance(events, list):
        raise ReadError(where, 'not a conference program: no "results" list of events')
    return [event for event in events if isinstance(event, dict)]


def _abstracted(event: dict) -> bool:
    return isinstance(event.get("abstract"), str) and bool(event["abstract"].strip())


def _page(lines: list[bytes], events: list[dict], total: int | None) -> Page:
    return Page(b"", lines, [str(e.get("id", e.get("uid", i))) for i, e in enumerate(events)], [0] * len(events), b"", total)


@dataclass
class Conference:
    conference: str
    """The site's name for it, lower-case: iclr, icml, neurips."""
    year: int
    api: str
    """The site's base address (`SITES`, a mirror)."""
    suffix: str = ".jsonl"

    @property
    def name(self) -> str:
        return feed_name("conference", self.conference, str(self.year))

    def data(self, what: str) -> str:
        return f"{self.api.rstrip('/')}/static/virtual/data/{self.conference}-{self.year}-{what}.json"

    def pages(self, client: Client, since: object | None) -> Iterator[Page]:
        url = self.data("orals-posters")
        events = _events(client.get(url), url)
        abstracts = self._sidecar(client) if not all(map(_abstracted, events)) else {}
        program = {e["id"]: e for e in events if isinstance(e.get("id"), (int, str))}  # (by id: related_events_ids)
        yield _page([dumps(self._whole(e, abstracts, program)).encode() for e in events], events, len(events))

    def _sidecar(self, client: Client) -> dict[str, str]:
        """The year's abstracts by event id; none when the site has no sidecar for the year (404)."""
        url = self.data("abstracts")
        try:
            body = client.get(url)
        except FetchError as error:
            if error.status == 404:
                return {}
            raise
        answer = json_value(body.decode("utf-8", "replace"), url)
        if not isinstance(answer, dict):
            raise ReadError(url, "not an abstracts file: no object of abstracts by event id")
        return {str(key): value for key, value in answer.items() if isinstance(value, str)}

    def _whole(self, event: dict, abstracts: dict[str, str], program: dict[object, dict]) -> dict:
        """`event` with what the saved file needs besides (see the module's docstring)."""
        extra: dict[str, object] = {}
        named = event.get("related_events_ids")
        related = [program[i] for i in named if isinstance(i, (int, str)) and i in program] if isinstance(named, list) else []
        if related and "related" not in event:
            extra["related"] = [{key: other.get(key) for key in SLOT_KEYS} for other in related]
        if not _abstracted(event) and str(event.get("id")) in abstracts:
            extra["abstract"] = abstracts[str(event.get("id"))]
        if "conference" not in event:
            extra["conference"] = f"{NAMES[self.conference]} {self.year}"
        page = event.get("virtualsite_url")
        if isinstance(page, str) and page.startswith("/"):
            extra["site_url"] = self.api.rstrip("/") + page
        return {**event, **extra}

    def scan(self, body: bytes, where: str) -> Page:
        """A saved file (an event a line); the site's answer is read in `pages`, with its sidecar."""
        lines, events = json_lines(body, where)
        return _page(lines, events, None)

    def combine(self, head: bytes, records: list[bytes], tail: bytes) -> bytes:
        return joined_lines(records)
