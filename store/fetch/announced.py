"""arXiv's daily announcements: the RSS feed of some categories (`rss.arxiv.org/rss/cs.LG+cs.CL`), the
papers announced that day, each an `<item>` whose `arxiv:announce_type` says how: `new`, `cross`
(cross-listed from another category), `replace` or `replace-cross` (a new version). One request a
day's worth; the feed is empty on the days arXiv announces nothing (weekends, holidays).

Saved as the feed came (its channel, every item of the day, a later fetch adding items not seen
before), a `.rss` file `store.readers.rss` reads."""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from store.fetch.client import Client
from store.fetch.saved import feed_name
from store.fetch.source import Page
from store.fetch.xml_records import Shape, combined, scan

FEED = "https://rss.arxiv.org/rss/"
DELAY = 3.0
SHAPE = Shape("an RSS feed", "rss", ("channel", "item"), ("guid", "link", "pubDate"))


def endpoint(option: str | None = None) -> str:
    return option or os.environ.get("TRIAGE_ARXIV_FEED") or FEED


@dataclass
class Announced:
    categories: list[str]
    api: str = FEED
    """The feed's base address: the categories joined by + follow it."""
    suffix: str = ".rss"

    @property
    def name(self) -> str:
        return feed_name("arxiv-new", "+".join(self.categories))

    @property
    def url(self) -> str:
        return self.api.rstrip("/") + "/" + "+".join(self.categories)

    def pages(self, client: Client, since: object | None) -> Iterator[Page]:
        yield self.scan(client.get(self.url), self.url)

    def scan(self, body: bytes, where: str) -> Page:
        found = scan(body, where, SHAPE)
        ids = [values.get("guid") or values.get("link", "") for values in found.values]
        return Page(body[:found.head_end], found.records(body), ids, [values.get("pubDate", "") for values in found.values],
                    body[found.tail_start:], len(ids))

    def combine(self, head: bytes, records: list[bytes], tail: bytes) -> bytes:
        return combined(head, records, tail)
