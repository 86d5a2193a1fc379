"""The texts entry of a list: its abstracts, written once beside its parse entry (`store.readers.cache`), which a
reopened list reads only when a paper's text is asked for (a row, the detail pane, an export), not at its open.

The file is `MAGIC`, the texts in chunks of `store.readers.records.CHUNK`, each compressed as one
(`store.papers.packed.Chunk`; a cold parse's own chunks are written as they are), and the fields of their papers
(`_pairs`) so, a few chunks of each at a time as a parse makes them (`Writing`: which is where, the table says), then
a token (a hash of the chunks: `TOKEN` bytes of BLAKE2b). The parse entry keeps the token, the file's size and each chunk's offset, length,
CRC-32 and text ends (its `Table`), sealed with the rest of it. A reopened paper keeps its text as its place in a `store.papers.packed.Stored` chunk, which reads its bytes from the
file when first asked (`Place.read`) and keeps them through the machinery of packed texts (the last `KEEP`).

Checks: the file is opened once, at the list's open, never through a link, and must be a regular file of the size
and token its parse entry holds (else the open parses the list again); the file then open is the one read from, so a
newer entry renamed over it changes nothing. A chunk whose bytes fail their CRC (the file damaged in place since,
truncated) is never served: the list is parsed again (`SideFile.recovered`: the texts matched to the papers by their
ids), its damaged entries removed, and `tell` says so in one line. Where it cannot be (the list gone or unreadable
since, or changed so that a paper of the chunk is no longer in it), reading the text raises `ReadError` saying so in
one line, at once for every later text of the list that needs it (the list is not read again). That parse takes
seconds at 100,000 papers: the app asks `store.papers.model.at_hand` first and reads on a worker (`tui.rereading`). At 100,000
arXiv abstracts (145 M characters) the file is ~56 MB and a reopened list holds ~10 MB for its texts, not ~170 MB of
strings.

Why every text, not only those the list file does not hold as they are (its JSON strings with escapes, its wrapped
paragraphs: the parse entry used to keep the others as places in the list file and read them all back at the open):
on make_corpus.py's 30,000 bare abstracts (43.7 MB, every text found in the file) the texts entry costs 16 MB of disk,
and a reopen holds 57 MB, not 101, in 0.3 s of CPU, not 0.5; a text read from the list file when asked would save that
disk but keep the list file open, its status checked at every read, and lose the texts of a list written after its
open (a daily list a fetch appends to), where the texts entry is the list as it was opened.

Each paper's other fields (`Paper.fields`: what the detail pane shows, what a citation writes back) are kept the same
way, as JSON in chunks beside the texts' (`_pairs`).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import weakref
from array import array
from collections.abc import Callable, Sequence
from contextlib import suppress
from itertools import repeat
from pathlib import Path
from typing import BinaryIO

from store.common.checksum import crc32
from store.common.errors import ReadError
from store.common.files import open_regular
from store.papers.model import Collection, Paper, kept_text
from store.papers.packed import Chunk, Packed, Stored
from store.readers.records import CHUNK

MAGIC = b"PTt1"
"""The start of a texts entry."""
TOKEN = 16
Table = tuple[bytes, int, list[tuple[int, int, int]], list[bytes]]
"""What the parse entry keeps of its texts entry: the token, the file's size, each chunk's (offset, length, CRC-32)
and its text ends (`array("Q")` bytes)."""
_AT = list(range(CHUNK))
"""A text's place in its chunk: the same int objects for every chunk (not two more of 28 bytes a paper: ~55 MB at
1,000,000 papers)."""


def say(line: str) -> None:
    """Where `tell` sends a line but in the app: stderr, as the command line says what went wrong."""
    print(f"triage: {line}", file=sys.stderr)


tell: Callable[[str], None] = say
"""Where the one line saying a texts entry was found damaged goes (the app shows it as a notice while it runs)."""


def _chunks(papers: Sequence[Paper]) -> tuple[list[Chunk], list[Chunk]]:
    """The texts of `papers` in chunks of `CHUNK`: a cold parse's own where a chunk's papers keep their places in one
    in order (compressed once, by the parse's workers), else compressed now; and their fields (`_pairs`) so."""
    texts = []
    for start in range(0, len(papers), CHUNK):
        part = papers[start : start + CHUNK]
        first = kept_text(part[0])
        chunk = first.chunk if type(first) is Packed else None
        if not (type(chunk) is Chunk and len(chunk.ends) == len(part)
                and all(type(kept := kept_text(paper)) is Packed and kept.chunk is chunk and kept.at == at
                        for at, paper in enumerate(part))):
            chunk = Chunk.of([paper.text for paper in part])
        texts.append(chunk)
    return texts, [Chunk.of([_pairs(paper.fields) for paper in papers[start : start + CHUNK]])
                   for start in range(0, len(papers), CHUNK)]


def _pairs(fields: tuple[tuple[str, str], ...]) -> str:
    """A paper's fields as the texts entry keeps them (what `store.papers.packed.Packed.fields` reads): JSON, or ''."""
    return json.dumps(fields, ensure_ascii=False) if fields else ""


class Writing:
    """A texts entry written to `out` a few papers at a time (`add`: a multiple of `CHUNK` of them but the last), each
    chunk of their texts and of their fields as it comes (the table says which is where); `table` ends it."""

    def __init__(self, out: BinaryIO) -> None:
        out.write(MAGIC)
        self._out = out
        self._offset = len(MAGIC)
        self._places: tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]] = ([], [])
        self._ends: tuple[list[bytes], list[bytes]] = ([], [])
        self._token = hashlib.blake2b(digest_size=TOKEN)

    def add(self, papers: Sequence[Paper]) -> None:
        for column, chunks in enumerate(_chunks(papers)):
            for chunk in chunks:
                self._out.write(chunk.packed)
                self._token.update(chunk.packed)
                self._places[column].append((self._offset, len(chunk.packed), crc32(chunk.packed)))
                self._ends[column].append(chunk.ends.tobytes())
                self._offset += len(chunk.packed)

    def table(self) -> Table:
        """Write the end of the entry; what the parse entry keeps of it."""
        token = self._token.digest()
        self._out.write(token)
        return token, self._offset + TOKEN, self._places[0] + self._places[1], self._ends[0] + self._ends[1]


class SideFile:
    """A texts entry open for a reopened list: its file (closed when no chunk of it is left), and how its texts are
    read again when a chunk fails its check."""

    def __init__(self, fd: int, name: str, ids: Sequence[str], parse: Callable[[], Collection] | None,
                 damaged: Sequence[Path]) -> None:
        self.fd = fd
        self.name = name
        self._ids = ids
        self._parse = parse
        self._damaged = damaged
        self._lock = threading.Lock()
        self._again: tuple[list[str | None], list[str | None]] | ReadError | None = None
        """The list read again (None for a paper no longer in it), or why it could not be."""
        weakref.finalize(self, os.close, fd)

    @property
    def read_again(self) -> bool:
        """Whether the list was read again already, or could not be."""
        return self._again is not None

    def recovered(self, column: int, first: int, count: int) -> list[str]:
        """The texts (`column` 0) or fields (1, `_pairs`) of the papers `first`..`first + count` (of the entry's
        order), the list read again for them once; `ReadError` when it cannot be (said once: the same error then
        at once, the list not read again) or no longer holds one of them (changed since: its id gone)."""
        with self._lock:
            if self._again is None:
                self._again = self._read_again()
        if isinstance(self._again, ReadError):
            raise self._again.with_traceback(None)  # (the same one line, not a traceback growing at each raise)
        part = self._again[column][first : first + count]
        gone = part.count(None)
        if gone:
            raise ReadError(self.name, f"its cached texts are damaged and it changed since it was opened: {gone} of its "
                                       "papers are no longer in it, their texts are not available until it is opened again")
        return part  # type: ignore[return-value]

    def _read_again(self) -> tuple[list[str | None], list[str | None]] | ReadError:
        for entry in self._damaged:  # (the next open parses and writes them again)
            with suppress(OSError):
                entry.unlink()
        try:
            if self._parse is None:
                raise ValueError("not read here")
            by_id = {paper.id: paper for paper in self._parse().papers}
        except Exception as exc:  # (the list gone or unreadable since: never another text than the paper's)
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc.message \
                if isinstance(exc, ReadError) else str(exc)
            return ReadError(self.name, f"its cached texts are damaged and it cannot be read again ({why}): "
                                        "its texts are not available until it is opened again")
        found = [by_id.get(pid) for pid in self._ids]
        if None not in found:  # (else the texts asked of a paper no longer in it are the one line: `recovered`)
            tell(f"{self.name}: its cached texts were damaged: read again from the list")
        return ([paper.text if paper else None for paper in found], [_pairs(paper.fields) if paper else None for paper in found])


class Place:
    """Where a `Stored` chunk's bytes are in its texts entry, and what they must be."""

    __slots__ = ("side", "offset", "length", "crc", "column", "first", "count")

    def __init__(self, side: SideFile, offset: int, length: int, crc: int, column: int, first: int, count: int) -> None:
        self.side, self.offset, self.length, self.crc = side, offset, length, crc
        self.column, self.first, self.count = column, first, count

    def read(self) -> bytes | None:
        """The chunk's bytes as written, or None when the file no longer gives them."""
        try:
            packed = os.pread(self.side.fd, self.length, self.offset)
        except OSError:
            return None
        return packed if len(packed) == self.length and crc32(packed) == self.crc else None

    def recovered(self) -> list[str]:
        return self.side.recovered(self.column, self.first, self.count)

    def read_again(self) -> bool:
        """Whether the list was read again already (`recovered` then answers at once)."""
        return self.side.read_again


def opened(path: Path, table: Table, name: str, ids: Sequence[str], parse: Callable[[], Collection] | None,
           damaged: Sequence[Path]) -> tuple[list[Stored], list[Stored]]:
    """The chunks of the texts entry at `path` (never through a link) that `table` describes, their bytes left in the
    file: of the texts, and of the fields; ValueError (or OSError) when it is not the file written with that table.
    `ids`: the entry's papers' ids, `parse` what reads the list `name` again, `damaged` the entries removed when a
    chunk fails its check."""
    token, size, places, ends = table
    with open_regular(path, size, "a texts entry") as file:  # (never a FIFO, which would hang the open, nor a link)
        fd = os.dup(file.fileno())
    try:
        info = os.fstat(fd)
        if info.st_size != size or os.pread(fd, len(MAGIC), 0) != MAGIC \
                or os.pread(fd, TOKEN, size - TOKEN) != token \
                or len(places) != len(ends) or len(places) != 2 * -(-len(ids) // CHUNK):
            raise ValueError("not the texts entry of this parse entry")
    except BaseException:
        os.close(fd)
        raise
    side = SideFile(fd, name, ids, parse, damaged)
    chunks = []
    per_column = len(places) // 2
    for k, ((offset, length, crc), at) in enumerate(zip(places, ends)):
        stops = array("Q")
        stops.frombytes(at)
        column, first = divmod(k, per_column)
        if len(stops) != min(CHUNK, len(ids) - first * CHUNK):
            raise ValueError("damaged cache entry")
        chunks.append(Stored(Place(side, offset, length, crc, column, first * CHUNK, len(stops)), stops))
    return chunks[:per_column], chunks[per_column:]


def kept(chunks: Sequence[Stored], chosen: Sequence[int]) -> list[Packed]:
    """The places of the texts at `chosen` (indices in the entry's order) in `chunks`: for every paper (`chosen` all
    of them, in order: a list's open) made a chunk at a time, ~2x as fast."""
    if chosen == range(len(chosen)):
        places: list[Packed] = []
        for chunk in chunks:
            places += map(Packed, repeat(chunk, len(chunk.ends)), _AT)
        return places
    return [Packed(chunks[at // CHUNK], _AT[at % CHUNK]) for at in chosen]
