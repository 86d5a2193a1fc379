"""arXiv: the API's Atom feed (`export.arxiv.org/api/query`), papers of some categories submitted since
a point, oldest first, pages of at most 2,000 entries (arXiv's limit), one request every 3 s.

The query is `search_query=(cat:A OR cat:B) AND submittedDate:[FROM TO TO]`, `sortBy=submittedDate`,
`sortOrder=ascending`, `start`, `max_results`; the feed's `opensearch:totalResults` says how many
there are. Pages are read with expat (`xml_records`: no document type, no entity is ever declared) into their
entries' bytes, and combined into one feed: the first page's head, every entry, `</feed>`; the
readers read it (`store.readers.atom.parse_atom`). Oldest first, so a fetch cut short resumes
from the newest entry it saved."""
from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

from store.common.errors import ReadError
from store.fetch.client import Client, FetchError, with_query
from store.fetch.saved import feed_name
from store.fetch.source import Page
from store.fetch.xml_records import Shape, combined, scan
from store.readers.atom import ATOM

API = "https://export.arxiv.org/api/query"
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"
PAGE = 2000
DELAY = 3.0


def endpoint(option: str | None = None) -> str:
    return option or os.environ.get("TRIAGE_ARXIV_API") or API


def since_days(days: float) -> str:
    """The time stamp (as an entry's `published`) `days` days ago."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - days * 86400))


def _minute(stamp: str) -> str:
    """`2026-12-01T17:59:59Z` as the query's `202612011759`."""
    digits = "".join(ch for ch in stamp if ch.isdigit())
    return (digits + "0000")[:12]


@dataclass
class Arxiv:
    categories: list[str]
    api: str = API
    page_size: int = PAGE
    suffix: str = ".atom"

    @property
    def name(self) -> str:
        return feed_name("arxiv", "+".join(self.categories))

    def query(self, since: str) -> str:
        cats = " OR ".join(f"cat:{c}" for c in self.categories)
        until = time.strftime("%Y%m%d2359", time.gmtime(time.time() + 86400))
        return f"({cats}) AND submittedDate:[{_minute(since)} TO {until}]"

    def pages(self, client: Client, since: object | None) -> Iterator[Page]:
        query = self.query(str(since) if since is not None else since_days(2))
        start = 0
        while True:
            params = {"search_query": query, "sortBy": "submittedDate", "sortOrder": "ascending",
                      "start": start, "max_results": self.page_size}
            url = with_query(self.api, params)
            page = self.scan(client.get(self.api, params), url)
            yield page
            start += len(page.records)
            if page.total is None or start >= page.total:
                return
            if not page.records:  # (arXiv sometimes answers a page empty: the rest is for the next run)
                raise FetchError(url, f"an empty page at {start:,} of {page.total:,} entries")

    def scan(self, body: bytes, where: str) -> Page:
        return scan_feed(body, where)

    def combine(self, head: bytes, records: list[bytes], tail: bytes) -> bytes:
        return combined(head, records, tail)


FEED_SHAPE = Shape("an Atom feed", f"{{{ATOM}}}feed", (f"{{{ATOM}}}entry",),
                   (f"{{{ATOM}}}id", f"{{{ATOM}}}published", f"{{{ATOM}}}summary"), (f"{{{OPENSEARCH}}}totalResults",))


def scan_feed(body: bytes, where: str) -> Page:
    """An Atom feed's entries as bytes, their ids and published times, and its total; ReadError
    naming `where` and the line when it is not a well-formed Atom feed, or an arXiv error entry."""
    found = scan(body, where, FEED_SHAPE)
    ids = [values.get(f"{{{ATOM}}}id", "") for values in found.values]
    for ident, values, line in zip(ids, found.values, found.lines):
        if "/api/errors" in ident:
            raise ReadError(where, f"the arXiv API answered with an error: {values.get(f'{{{ATOM}}}summary', '')}", line)
    total = found.top.get(f"{{{OPENSEARCH}}}totalResults", "")
    return Page(body[:found.head_end], found.records(body), ids,
                [values.get(f"{{{ATOM}}}published", "") for values in found.values], body[found.tail_start:],
                int(total) if total.isdigit() else None)
