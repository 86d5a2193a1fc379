"""Texts kept as where they are in their list file: what lets the parse cache (`store.readers.cache`)
leave a list's abstracts out of its entry and read them back from the file itself.

`locate` finds each text, encoded with the codec the file was read with, in the file's bytes, in
order: a text found there is kept as a place (its offset and length in bytes), any other (a
hard-wrapped paragraph joined into one line, a JSON string with escapes, a BibTeX abstract with
its spacing made even, a text changed by `store.papers.boundary`) in full. Where a text is found its
bytes are its encoding, and those bytes decode to it exactly (checked), so `read` gives every text
back as it was, as long as the file is the one the places were found in: the caller checks that
on the open file (size, times, inode) before and after reading, and a place beyond the end or
bytes that do not decode mean the entry is not believed. Both read the file a chunk at a time:
a long list's bytes are never all in memory at once.
"""
from __future__ import annotations

import codecs
import os
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from typing import BinaryIO

CHUNK = 16 << 20
"""How much of the file is read at once."""
WINDOW = 64 << 10
"""How far past the end of the last text found the next one is looked for: past a record's other
fields (a JSON line's title and authors, a BibTeX entry's fields)."""
_RESYNC = 8
"""After this many texts in a row not found, the next ones are looked for only at the 8th, 16th,
32nd... miss (in a wider window): a file where no text is itself (every JSON string escaped) costs
a few looks, not one per text."""
_REACH = 8 << 20
"""The widest window a look after misses takes."""


_EXACT = ("utf-8", "utf-16-le", "utf-16-be")
"""Codecs whose strict encoding always decodes back to the very text (no need to check each)."""


def _encoded(text: str, encode: Callable, decode: Callable | None) -> bytes | None:
    """`text` in the file's codec when that decodes to exactly `text` again; else None."""
    try:
        raw = encode(text)[0]
    except UnicodeError:  # (a lone surrogate in UTF-8, a character the legacy codec lacks)
        return None
    return raw if decode is None or decode(raw)[0] == text else None


def _find(buffer: bytes, raw: bytes, start: int, end: int) -> int:
    """`buffer.find(raw, start, end)`, quicker for a long `raw` close to `start` (the next abstract):
    where its first bytes are, then whether all of it is there."""
    head = raw[:64]
    at = buffer.find(head, start, end)
    while at >= 0 and not buffer.startswith(raw, at, end):
        at = buffer.find(head, at + 1, end)
    return at


def locate(source: BinaryIO, codec: str, texts: Iterable[str]) -> tuple[bytes, list[str]]:
    """Where each of `texts` is in `source` (open at its start), read as `codec`: the places, an
    offset and a length in bytes for each text (`array("q")` bytes), -1 and 0 for a text not
    found, and the texts not found, in order. Each is looked for after the last one found."""
    encode, decode = codecs.getencoder(codec), None if codec in _EXACT else codecs.getdecoder(codec)
    places = array("q")
    kept: list[str] = []
    buffer, base, cursor, ended = b"", 0, 0, False  # `buffer` holds the file's bytes from `base`
    missed = behind = 0  # texts in a row not found, and their length in bytes
    for text in texts:
        raw = _encoded(text, encode, decode) if text else None
        at = -1
        if raw is not None and (missed < _RESYNC or missed & (missed - 1) == 0):
            reach = cursor + len(raw) + WINDOW + min(2 * behind, _REACH)
            if base + len(buffer) < reach and not ended:
                buffer, base = buffer[cursor - base :], cursor
                more = source.read(max(CHUNK, reach - base - len(buffer)))
                ended = not more
                buffer += more
            at = _find(buffer, raw, cursor - base, reach - base)
        if at < 0:
            places.extend((-1, 0))
            kept.append(text)
            missed += 1
            behind += len(raw) if raw is not None else len(text)
        else:
            cursor = base + at + len(raw)
            places.extend((base + at, len(raw)))
            missed = behind = 0
    return places.tobytes(), kept


def absent(count: int) -> bytes:
    """The places of `count` texts none of which is looked for in a file (all kept in full)."""
    return array("q", (-1, 0) * count).tobytes()


def chosen(places: bytes, kept: Sequence[str], chosen: Sequence[int]) -> tuple[bytes, list[str]]:
    """The places and the texts kept (`locate`) of the texts at `chosen` (ascending indices) alone: what `read`
    reads of those texts only."""
    at = array("q")
    at.frombytes(places)
    starts = at[0::2]
    kept_at = list(compress(range(len(starts)), map((0).__gt__, starts)))  # (the index of each text kept)
    picked = array("q")
    texts = []
    for index in chosen:
        picked.extend(at[2 * index : 2 * index + 2])
        if starts[index] < 0:
            texts.append(kept[bisect_left(kept_at, index)])
    return picked.tobytes(), texts


def read(source: BinaryIO, codec: str, places: bytes, kept: Sequence[str]) -> list[str]:
    """The texts `locate` found at `places` in `source` (the same file, unchanged: the caller checks),
    and `kept` for the others, in order. ValueError (UnicodeDecodeError among them) when a place is
    not in the file or its bytes do not decode: the file is not the one the places were found in."""
    if codec:
        codecs.lookup(codec)  # (LookupError for a codec this Python lacks)
    at = array("q")
    at.frombytes(places)
    starts, sizes = at[0::2], at[1::2]
    count = len(starts)
    texts: list[str] = []
    others = iter(kept)
    fd = source.fileno()
    buffer = bytearray()  # (one buffer for every chunk: fresh memory for each would cost a page fault per 4 kB)
    k = 0
    while k < count:
        start = starts[k]
        if start < 0:
            text = next(others, None)
            if text is None:
                raise ValueError("more places than texts kept")
            texts.append(text)
            k += 1
            continue
        # The texts found one after the other from here, as far as a chunk reaches.
        end = start + sizes[k]
        j = k + 1
        while j < count and end <= starts[j] and starts[j] + sizes[j] - start <= CHUNK:
            end = starts[j] + sizes[j]
            j += 1
        if len(buffer) < end - start:
            buffer = bytearray(end - start)
        view = memoryview(buffer)[: end - start]
        if os.preadv(fd, [view], start) != end - start or not codec:
            raise ValueError("a text beyond the end of the file")
        texts += [str(view[starts[i] - start : starts[i] + sizes[i] - start], codec) for i in range(k, j)]
        view.release()
        k = j
    if next(others, None) is not None:
        raise ValueError("more texts kept than places")
    return texts
