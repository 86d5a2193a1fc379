"""Writing a list's parse entry and texts entry a chunk of papers at a time (`Writer`; `store.readers.cache` reads them).

A long list's parse hands its papers here as they are made (`store.readers.uniques.streaming`) and keeps none of them:
each chunk of `SIZE` papers has its texts and fields compressed into the texts entry (`store.readers.texts_entry`) and
each of its columns marshalled into the parse entry as it comes (before, the whole list was parsed into memory first:
16 GB at 2,700,000 arXiv papers). The parse entry's slices are laid chunk after chunk (a column's slices are found by
their places, not their order: `store.common.sliced.taken`), and what says where they are (the directory) follows them,
its length last: nothing written is written again, and the entry's CRC, summed as it is written, goes in its header at
the end.

By field rather than by paper: a field with one value for every paper (the source, often the venue, the year, the
authors...) is stored once (`same`), a field of few distinct values (`SHARED`) each of them once with each paper's
index of them, and arXiv links and PDF links as the ids (`KEPT`). How a field is kept is known only at the end: each
field's distinct values are followed as the chunks come (`_Followed`), up to `DISTINCT_MOST` of them (`SHARED`) or one
(the others); a field that has more is written a slice a chunk from then on (`store.common.sliced.indexed`: its
earlier chunks' made from what was followed)."""
from __future__ import annotations

import marshal
from array import array
from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter
from typing import BinaryIO

from store.common.checksum import crc32
from store.common.sliced import indexed, sliced
from store.papers.chunked import SIZE
from store.papers.model import Collection, Paper, kept_links, kept_pdf, kept_plain
from store.papers.rows import Lookup, stable_hash
from store.readers import texts_entry
from store.readers.entry_papers import COLUMNS
from store.readers.sealed import HEAD, header
from store.readers.uniques import Taken, Uniques, Unstreamable

SHARED = ("name", "venue", "year", "authors", "area", "track", "keywords")
"""The fields an entry keeps each distinct value of once when at most half are distinct: a reopened list's papers then
share them (at 100,000 arXiv papers: ~55 MB of categories and authors)."""
DISTINCT_MOST = 1 << 16
"""The most distinct values of a `SHARED` field followed (more: the field is kept a value a paper)."""
KEPT = {"links": kept_links, "pdf": kept_pdf}
"""What an entry keeps of those fields a paper may keep as less (an arXiv paper's links and PDF link: its id)."""
LOOKUPS = ("id", "arxiv")
"""The columns whose rows by value a long list's entry keeps (`store.papers.rows.Lookup`): its papers are found by id,
and by arXiv id (`store.library.identity`), without a pass over them when it is reopened."""
LOOKUPS_FROM = 50_000
"""A list of this many papers keeps its `LOOKUPS` (a shorter one's are made in milliseconds when first asked for, and
its entry is written without numpy)."""


class _Followed:
    """A field's distinct values as the chunks come (in the order first seen), and each paper's index of them (of a
    `SHARED` field, hashable); of another, whether all are its first (`most` 1). `add` says False once there are more
    than `most`."""

    __slots__ = ("distinct", "indices", "most", "_at")

    def __init__(self, most: int) -> None:
        self.distinct: list = []
        self.indices = array("I")
        self.most = most
        self._at: dict[object, int] = {}

    def add(self, values: list) -> bool:
        if self.most == 1:
            self.distinct = self.distinct or values[:1]
            return values.count(self.distinct[0]) == len(values)
        at = self._at
        for value in dict.fromkeys(values):
            if value not in at:
                at[value] = len(self.distinct)
                self.distinct.append(value)
        if len(self.distinct) > self.most:
            return False
        self.indices.extend(map(at.__getitem__, values))
        return True

    def chunks(self, count: int) -> Iterator[list]:
        """The values of each chunk of the `count` papers followed."""
        for start in range(0, count, SIZE):
            stop = min(count, start + SIZE)
            yield [self.distinct[0]] * (stop - start) if self.most == 1 \
                else [self.distinct[at] for at in self.indices[start:stop]]


class Writer:
    """A list's parse entry written to `out` and its texts entry to `texts`, a chunk of papers at a time (`add`), under
    `key` (`store.readers.cache.parse_key`); `finish` ends both. `first`: the first chunk's papers (what a head entry
    shows: `store.readers.cache.head`)."""

    def __init__(self, key: tuple, out: BinaryIO, texts: BinaryIO) -> None:
        self._key = key
        self._out = out
        self._texts = texts_entry.Writing(texts)
        out.write(bytes(HEAD))  # (the header, written last: `finish`)
        self._size = 0  # (the bytes laid after it)
        self._crc = 0
        self.count = 0
        self._followed: dict[str, _Followed] = {name: _Followed(DISTINCT_MOST if name in SHARED else 1)
                                                for name in COLUMNS if name != "id"}
        self._slices: dict[str, list[tuple[int, int]]] = {name: [] for name in (*COLUMNS, "plain")}
        self._ends: dict[str, list[tuple[int, int]]] = {name: [] for name in (*COLUMNS, "plain") if name != "id"}
        self._hashes = {name: array("I") for name in LOOKUPS}
        self.first: Sequence[Paper] = ()

    def _laid(self, pieces: Sequence[bytes | bytearray]) -> list[tuple[int, int]]:
        places = []
        for piece in pieces:
            self._out.write(piece)
            self._crc = crc32(piece, self._crc)
            places.append((self._size, len(piece)))
            self._size += len(piece)
        return places

    def _indexed(self, name: str, values: list) -> None:
        slices, ends = indexed(values)
        self._slices[name] += self._laid(slices)
        self._ends[name] += self._laid(ends)

    def add(self, papers: Sequence[Paper]) -> None:
        """Write the next `papers` (`SIZE` of them, fewer only for the last), numbered in order from 0."""
        if not 0 < len(papers) <= SIZE or self.count % SIZE or papers[0].position != self.count \
                or papers[-1].position != self.count + len(papers) - 1:
            raise ValueError("papers out of order")
        self.first = self.first or papers
        self._texts.add(papers)
        for name in COLUMNS:
            values = list(map(KEPT.get(name) or attrgetter(name), papers))
            if name in self._hashes:
                self._hashes[name].extend(map(stable_hash, values))
            followed = self._followed.get(name)
            if name == "id":
                self._slices[name] += self._laid(sliced(values))
            elif followed is None:
                self._indexed(name, values)
            elif not followed.add(values):  # (more distinct values than followed: a value a paper from now on)
                del self._followed[name]
                for before in followed.chunks(self.count):
                    self._indexed(name, before)
                self._indexed(name, values)
        # A display text as the paper keeps it: None for the text itself, False for one worked out when asked.
        self._indexed("plain", [None if kept_form is text or kept_form == text else False if kept_form is None else kept_form
                                for text, kept_form in zip(map(attrgetter("text"), papers), map(kept_plain, papers))])
        self.count += len(papers)

    def finish(self, collection: Collection, rest: Sequence[Paper]) -> None:
        """Write `rest`, the last of `collection`'s papers (a chunk at a time), and end both entries with what the parse
        entry keeps of `collection` but its papers."""
        for start in range(0, len(rest), SIZE):
            self.add(rest[start : start + SIZE])
        meta = (collection.header, collection.venue, collection.year, list(collection.sources), list(collection.warnings))
        same = {}
        for name, followed in self._followed.items():
            if len(followed.distinct) == 1:
                same[name] = followed.distinct[0]
                del self._slices[name], self._ends[name]
            elif name in SHARED and len(followed.distinct) <= self.count // 2:
                self._slices[name] = (self._laid(sliced(followed.distinct)), self._laid([followed.indices.tobytes()]))
                del self._ends[name]
            else:
                for values in followed.chunks(self.count):
                    self._indexed(name, values)
        lookups = {}
        if self.count >= LOOKUPS_FROM:
            for name, hashes in self._hashes.items():
                lookup = Lookup.hashed(hashes)
                lookups[name] = self._laid([lookup.hashes.tobytes(), lookup.rows.tobytes()])
        directory = marshal.dumps((self._key, meta, self.count, self._slices, same, self._texts.table(), self._ends, lookups))
        self._laid([directory, len(directory).to_bytes(8, "big")])
        self._out.seek(0)
        self._out.write(header(self._crc))


class Stream:
    """A long parse's papers written to its entries as they are made (the sink of `store.readers.uniques.streaming`),
    once there are `most` of them: `opened()` gives the files of its parse entry and its texts entry then (both, or
    an OSError and neither: the cache cannot be written, and the parse goes on in memory, as a short one's)."""

    def __init__(self, key: tuple, most: int, opened: Callable[[], tuple[BinaryIO, BinaryIO]]) -> None:
        self._key, self._most, self._opened = key, most, opened
        self.writer: Writer | None = None
        self._uniques: Uniques | None = None
        self._unwritable = False

    def __call__(self, uniques: Uniques) -> None:
        if uniques is not self._uniques:  # (a file tried as one format, then another)
            if self.writer is not None:
                raise Unstreamable("a second parse")
            self._uniques = uniques
        if self.writer is None:
            if self._unwritable or len(uniques) < self._most:
                return
            try:
                files = self._opened()
            except OSError:  # (a read-only or forbidden cache folder: nothing taken yet)
                self._unwritable = True
                return
            self.writer = Writer(self._key, *files)
        try:
            while len(uniques.papers) >= SIZE:
                self.writer.add(uniques.take(SIZE))
        except OSError as error:
            raise Unstreamable(str(error)) from error

    def finish(self, collection: Collection) -> bool:
        """End the entries of `collection` (what the parse gave: `store.readers.uniques.Taken`), when it was written as
        it was made; whether it was."""
        if self.writer is None:
            return False
        papers = collection.papers
        try:
            self.writer.finish(collection, papers.rest if isinstance(papers, Taken) else papers)
        except OSError as error:
            raise Unstreamable(str(error)) from error
        return True
