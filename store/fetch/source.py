"""One interface for every source, and the fetch that runs one: pages asked for, new records kept,
one dated file written.

A `Source` says how to ask for its pages since a point (`pages`), how to read a page or a saved
file into its records (`scan`: each record's id, its time stamp and its bytes as the source sent
them), and how records make one file again (`combine`: the first page's head, the records, its
tail): the readers read that file as they read any list. `fetch` runs a source: it reads the
latest file saved for the feed (`saved`), asks only for what came since its newest record, keeps
the records not seen before, and writes today's file whole (today's earlier records and the new
ones), even when a page fails half-way: what came is kept and said (`Outcome.fault`)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from store.common.errors import ReadError
from store.fetch import saved
from store.fetch.client import Client


@dataclass(slots=True)
class Page:
    """A page of a source's answer (or a whole saved file), read."""

    head: bytes
    """What comes before the first record (the feed's or document's start)."""
    records: list[bytes]
    """Each record as the source sent it."""
    ids: list[str]
    stamps: list[object]
    """Each record's time stamp, comparable with `max` (what a later fetch asks from)."""
    tail: bytes
    """What comes after the last record."""
    total: int | None = None
    """How many records the whole answer has, when the source says."""


class Source(Protocol):
    name: str
    """The feed's part of the saved file's name: `arxiv-cs.LG`, `openreview-ICLR.cc_2025_Conference`."""
    suffix: str
    """The saved file's extension, one the readers know (`.atom`, `.jsonl`, `.bib`)."""

    def pages(self, client: Client, since: object | None) -> Iterator[Page]:
        """The pages of the answer, oldest records first, from `since` (None: the source's default)."""
        ...

    def scan(self, body: bytes, where: str) -> Page:
        """A page or a saved file read; ReadError naming `where` (and the line) when it is malformed."""
        ...

    def combine(self, head: bytes, records: list[bytes], tail: bytes) -> bytes:
        """One file of `records` between `head` and `tail`, as the readers read it."""
        ...


@dataclass
class Progress:
    """How far a fetch is, as it goes (given to the `progress` callback after each page)."""

    pages: int = 0
    records: int = 0
    """Records received so far (new or not)."""
    total: int | None = None
    started: float = field(default_factory=time.monotonic)


@dataclass
class Outcome:
    path: Path | None
    """The file written (None when nothing new came)."""
    new: int
    """Records new to this feed."""
    received: int
    total: int | None
    fault: ReadError | None = None
    """What stopped the fetch before its end (what came before it is in `path`)."""

    def summary(self) -> str:
        """`1,200 of 2,300 fetched; run again to resume` after a fault, else what was saved where."""
        if self.fault is not None:
            of = f" of {self.total:,}" if self.total is not None else ""
            kept = f" (kept in {self.path})" if self.path else ""
            return f"{self.received:,}{of} fetched{kept}; run again to resume"
        if self.path is None:
            return "nothing new since the last fetch"
        return f"{self.new:,} new papers saved in {self.path}"


def fetch(source: Source, client: Client, folder: Path, since: object | None = None,
          progress: Callable[[Progress], None] | None = None) -> Outcome:
    """Run `source` (see the module's docstring); `since` overrides the point the last file gives."""
    last = saved.latest(folder, source.name, source.suffix)
    before = source.scan(saved.read(last), str(last)) if last else None  # (a damaged file: ReadError, nothing written)
    if since is None and before is not None and before.stamps:
        since = max(before.stamps)
    known = set(before.ids) if before else set()
    today = saved.dated(folder, source.name, source.suffix)
    head, tail, records = (before.head, before.tail, list(before.records)) if before and last == today else (None, None, [])
    state = Progress()
    new = 0
    fault = None
    try:
        for page in source.pages(client, since):
            if head is None:
                head, tail = page.head, page.tail
            state.pages += 1
            state.records += len(page.records)
            state.total = page.total
            for ident, record in zip(page.ids, page.records):
                if ident not in known:
                    known.add(ident)
                    records.append(record)
                    new += 1
            if progress:
                progress(state)
    except ReadError as exc:  # (FetchError too: the network; a malformed page)
        fault = exc
    path = None
    if new and head is not None and tail is not None:
        saved.write(today, source.combine(head, records, tail))
        path = today
    return Outcome(path, new, state.records, state.total, fault)
