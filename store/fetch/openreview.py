"""OpenReview: API v2 notes of a venue (`GET /notes?content.venueid=VENUE&limit=1000&offset=K`, the
answer `{"notes": [...], "count": N}`), saved as JSON Lines, one note a line as the API sent it, with
its forum and PDF addresses made whole (`url`, `pdf_url`): the tabular reader reads a note's
`content` (title, abstract, authors, keywords, TL;DR, primary area, venue).

A later fetch asks only for notes created since the newest saved one (`mintcdate`, milliseconds).
Anonymous requests may be refused (403): a token from `$OPENREVIEW_TOKEN` or `--token-file` is sent
as `Authorization: Bearer`, and the refusal says how to get one."""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from store.common.errors import ReadError
from store.common.json_out import dumps
from store.fetch.client import Client, FetchError, with_query
from store.fetch.saved import feed_name, joined_lines, json_lines, json_value
from store.fetch.source import Page

API = "https://api2.openreview.net"
SITE = "https://openreview.net"
PAGE = 1000
DELAY = 1.0
TOKEN_HINT = ("OpenReview refused an anonymous request: sign in at https://openreview.net, get a token "
              "(POST /login on the API, or your browser's openreview.accessToken cookie) and give it in "
              "$OPENREVIEW_TOKEN or a file named with --token-file")


def endpoint(option: str | None = None) -> str:
    return option or os.environ.get("TRIAGE_OPENREVIEW_API") or API


def _whole(note: dict) -> dict:
    """`note` with `url` (its forum) and `pdf_url` (its PDF) as whole addresses when it has them."""
    content = note.get("content") if isinstance(note.get("content"), dict) else {}
    pdf = content.get("pdf", {})
    pdf = pdf.get("value") if isinstance(pdf, dict) else pdf
    extra = {}
    if isinstance(note.get("forum"), str):
        extra["url"] = f"{SITE}/forum?id={note['forum']}"
    if isinstance(pdf, str) and pdf.startswith("/"):
        extra["pdf_url"] = SITE + pdf
    return {**note, **extra}


@dataclass
class OpenReview:
    venue: str
    api: str = API
    token: str | None = None
    page_size: int = PAGE
    suffix: str = ".jsonl"

    @property
    def name(self) -> str:
        return feed_name("openreview", self.venue)

    def pages(self, client: Client, since: object | None) -> Iterator[Page]:
        url = self.api.rstrip("/") + "/notes"
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        offset = 0
        while True:
            params: dict[str, object] = {"content.venueid": self.venue, "limit": self.page_size, "offset": offset}
            if isinstance(since, int):
                params["mintcdate"] = since
            try:
                body = client.get(url, params, headers)
            except FetchError as error:
                if error.status in (401, 403):
                    raise FetchError(error.url, f"{error.message}; {TOKEN_HINT}", error.status) from None
                raise
            page = self.scan(body, with_query(url, params))
            yield page
            offset += len(page.records)
            if not page.records or page.total is None or offset >= page.total:
                return

    def scan(self, body: bytes, where: str) -> Page:
        """An API page (`{"notes": [...], "count": N}`) or a saved file (a note a line)."""
        if where.startswith(("http:", "https:")):  # (an API page; else a saved file)
            answer = json_value(body.decode("utf-8", "replace"), where)
            notes = answer.get("notes") if isinstance(answer, dict) else None
            if not isinstance(notes, list):
                raise ReadError(where, 'not an OpenReview answer: no "notes" list')
            total = answer.get("count") if isinstance(answer.get("count"), int) else None
            notes = [n for n in notes if isinstance(n, dict)]
            lines = [dumps(_whole(n)).encode() for n in notes]
        else:
            lines, notes = json_lines(body, where)
            total = None
        return Page(b"", lines, [str(n.get("id", i)) for i, n in enumerate(notes)],
                    [n.get("tcdate") or n.get("cdate") or 0 for n in notes], b"", total)

    def combine(self, head: bytes, records: list[bytes], tail: bytes) -> bytes:
        return joined_lines(records)
