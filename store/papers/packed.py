"""Texts kept compressed while nothing reads them: a long list's abstracts, from its parse on.

A parse on worker processes within `store.readers.records.packing` (the app's read behind its first rows) has
each worker compress the texts of its chunk (`Chunk.of`: zstd's level 1, ~2.7 times smaller, ~10 ms a chunk of
2,048: level 3, ~3.5 times, took the two workers ~1.5 s more of CPU at 100,000 abstracts, the read ~1 s longer),
and the papers made of them keep their texts as places in it (`Packed`, `store.papers.model.keep_text`), read out when
asked (`Paper.text`): the chunk decompressed (~2.5 ms), the last `KEEP` of them kept so, then the text's bytes
decoded. At 100,000 abstracts the app then holds ~55 MB of them through the read, the index and the titles,
not ~150 MB of strings: a cold open's peak, with its worker processes, was over 500 MB.
"""
from __future__ import annotations

import re
import threading
from array import array
from collections import deque
from functools import lru_cache
from itertools import accumulate

KEEP = 2
"""Chunks kept decompressed (the last read): a pass over the papers in order, or the rows on screen, decompresses
each chunk once."""
_LEVEL = 1
_open: deque[Chunk] = deque()
_lock = threading.Lock()


class Chunk:
    """The texts of a chunk of papers, compressed as one: their UTF-8 one after another, and where each ends."""

    __slots__ = ("packed", "ends", "_raw", "_named")

    def __init__(self, packed: bytes, ends: array) -> None:
        self.packed = packed
        self.ends = ends
        self._raw: bytes | None = None
        """The texts decompressed, while this chunk is one of the last `KEEP` read."""
        self._named: dict[frozenset[str], bool] | None = None
        """Names → whether some of its texts (pairs' JSON) may name one of them (`may_name`), once asked."""

    def __getstate__(self) -> tuple[bytes, array]:
        return self.packed, self.ends

    def __setstate__(self, state: tuple[bytes, array]) -> None:
        self.packed, self.ends = state
        self._raw = self._named = None

    @classmethod
    def of(cls, texts: list[str]) -> Chunk:
        import zstandard  # (here: reading a cached list compresses nothing)

        encoded = [text.encode("utf-8", "surrogatepass") for text in texts]
        return cls(zstandard.ZstdCompressor(level=_LEVEL).compress(b"".join(encoded)), array("Q", accumulate(map(len, encoded))))

    def text(self, at: int) -> str:
        """The `at`th text."""
        raw = self._raw
        if raw is None:
            raw = self._unpacked()
        return raw[self.ends[at - 1] if at else 0 : self.ends[at]].decode("utf-8", "surrogatepass")

    def may_name(self, at: int, names: frozenset[str]) -> bool:
        """Whether the `at`th text, pairs' JSON, may name one of `names` (`Packed.may_name`): looked for in all its
        texts at once first (an arXiv list's: none in any), then in that one alone when some may."""
        named = self._named
        if named is None:
            named = self._named = {}
        some = named.get(names)
        if some is None:
            raw = self._raw
            some = named[names] = _naming(names, bytes).search(self._unpacked() if raw is None else raw) is not None
        return some and _naming(names, str).search(self.text(at)) is not None

    def _compressed(self) -> bytes:
        """The texts compressed (a `Stored` chunk reads them from its file)."""
        return self.packed

    def at_hand(self) -> bool:
        """Whether its texts can be read out now, without reading them again some other way (`Stored`)."""
        return True

    def _unpacked(self, packed: bytes | None = None) -> bytes:
        import zstandard

        raw = zstandard.ZstdDecompressor().decompress(self._compressed() if packed is None else packed)
        with _lock:  # (any thread reads texts: the UI's, the open's, the cache writer's)
            self._raw = raw
            _open.append(self)
            while len(_open) > KEEP:
                _open.popleft()._raw = None
        return raw


class Stored(Chunk):
    """A chunk whose compressed texts stay in a file (a reopened list's texts entry, `store.readers.texts_entry`) until
    asked: `place.read()` gives them, checked, or None when they fail their check; then `place.recovered()` gives the
    chunk's texts read again some other way (the list parsed again), which the chunk keeps compressed from then on."""

    __slots__ = ("place",)

    def __init__(self, place: object, ends: array) -> None:
        super().__init__(b"", ends)
        self.place: object | None = place

    def __reduce__(self) -> tuple[type[Chunk], tuple[bytes, array]]:
        """Pickled (sent to a worker process), a chunk of the texts it holds, whatever the file does next."""
        packed = self._compressed()
        return Chunk, (packed, self.ends)

    def at_hand(self) -> bool:
        """Whether its texts can be read out now: held, or their bytes in the file pass their check, or the list was
        read again already (then they are read out and kept, as a text asked for keeps them; or what
        `place.recovered()` raises when they could not be had, the list gone since); False when reading them would
        read the list again (a parse: seconds at 100,000 papers)."""
        place = self.place
        if place is None or self._raw is not None:
            return True
        packed = place.read()  # type: ignore[attr-defined]
        if packed is None:
            if not place.read_again():  # type: ignore[attr-defined]
                return False
            packed = self._compressed()
        self._unpacked(packed)
        return True

    def _compressed(self) -> bytes:
        place = self.place
        if place is None:
            return self.packed
        packed = place.read()  # type: ignore[attr-defined]
        if packed is not None:
            return packed
        again = Chunk.of(place.recovered())  # type: ignore[attr-defined]
        with _lock:
            self.packed, self.ends, self.place, self._named = again.packed, again.ends, None, None
        return again.packed


class Packed:
    """A paper's text kept as its place in a `Chunk` (and its display text so, when that is the very text)."""

    __slots__ = ("chunk", "at")

    def __init__(self, chunk: Chunk, at: int) -> None:
        self.chunk = chunk
        self.at = at

    def text(self) -> str:
        return self.chunk.text(self.at)

    def __bool__(self) -> bool:
        """Whether the text is not empty, without reading it out (what `store.papers.model.has_text` asks)."""
        ends = self.chunk.ends
        return ends[self.at] > (ends[self.at - 1] if self.at else 0)

    display = text  # (what `Paper.plain` reads of a display text kept so: the text)

    def fields(self) -> tuple[tuple[str, str], ...]:
        """What `Paper.fields` reads of pairs kept so (a reopened list's: `store.readers.texts_entry`), their text
        being their JSON."""
        import json

        return tuple(map(tuple, json.loads(self.text()))) if self else ()

    def may_name(self, names: frozenset[str]) -> bool:
        """Whether a pair kept so may be named one of `names` (`store.papers.model.may_name`), told from their JSON
        without decoding it."""
        return bool(self) and self.chunk.may_name(self.at, names)


@lru_cache(maxsize=8)
def _naming(names: frozenset[str], kind: type[str] | type[bytes]) -> re.Pattern:
    """What finds a pair named one of `names` (lower-case) in pairs' JSON: in JSON a `"` inside a string is always
    escaped, so a name is a string right after a `[`. It may find one that is not (a `[` that ends a value: the caller
    then decodes the pairs and looks), never misses one: a name of letters of another case matches, and one holding
    an escape or a character other than printable ASCII (which may case-fold to one of `names`: 'ﬁle') is taken to."""
    pattern = r'\[\s*"(?:(?:' + "|".join(map(re.escape, sorted(names))) + r')"|[^"\\]*(?:\\|[^\x20-\x7e]))'
    return re.compile(pattern if kind is str else pattern.encode(), re.IGNORECASE)  # (bytes: of texts as UTF-8)
