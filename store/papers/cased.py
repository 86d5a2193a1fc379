"""How a paper keeps its text as less than a string of its own (`store.papers.model` reads them out).

A patch says how a text and its display text differ: `patched` makes the text of the display text, `unpatched` the
patch back (`store.papers.text.plain_form` makes them). `Cased` keeps a text as its display text's line of the lower-cased
phrase texts (`store.search.phrases.Lowered`), where its capitals are, and such a patch.
"""
from __future__ import annotations

import struct
from collections.abc import Callable
from functools import lru_cache

_COUNT = struct.Struct("<I")
_SPAN = struct.Struct("<II")


def patched(text: str, patch: bytes) -> str:
    """`text` with the stretches a patch names replaced. A patch (`store.papers.text.plain_form` makes them)
    is little-endian uint32s: how many stretches, then each one's start, end and how many characters
    replace it; then the replacing characters, all of them, in UTF-8."""
    count = _COUNT.unpack_from(patch)[0]
    numbers = _numbers(count)(patch, 4)
    inserts = patch[4 + 12 * count :].decode("utf-8", "surrogatepass")
    out, pos, at = [], 0, 0
    for k in range(0, 3 * count, 3):
        start, end, size = numbers[k], numbers[k + 1], numbers[k + 2]
        out.append(text[pos:start])
        out.append(inserts[at : at + size])
        pos, at = end, at + size
    out.append(text[pos:])
    return "".join(out)


def unpatched(text: str, patch: bytes) -> bytes:
    """The patch that makes `text` again of `patched(text, patch)`."""
    count = _COUNT.unpack_from(patch)[0]
    numbers = _numbers(count)(patch, 4)
    back, pieces, shift = [], [], 0
    for k in range(0, 3 * count, 3):
        start, end, size = numbers[k], numbers[k + 1], numbers[k + 2]
        back += (start + shift, start + shift + size, end - start)
        pieces.append(text[start:end])
        shift += size - (end - start)
    return _COUNT.pack(count) + struct.pack(f"<{3 * count}I", *back) + "".join(pieces).encode("utf-8", "surrogatepass")


@lru_cache(maxsize=128)
def _numbers(count: int) -> Callable[[bytes, int], tuple[int, ...]]:
    return struct.Struct(f"<{3 * count}I").unpack_from


class Cased:
    """A text kept as its display text's line of lower-cased texts (UTF-8) that are kept
    anyway (a batch of `store.search.phrases.Lowered`, shared), where its capitals are, and what makes the text of
    the display text where they differ (a patch, as `patched` reads it; None where they do not): ~100 bytes of
    its own instead of the text's ~1,500 (`Paper.text` reads it out, ~3 µs). `places`: the line's start and end
    in `lines` (uint32s), then each capital's place in the line (uint16s), all little-endian."""

    __slots__ = ("lines", "places", "patch")

    def __init__(self, lines: bytes, places: bytes, patch: bytes | None = None) -> None:
        self.lines = lines
        self.places = places
        self.patch = patch

    @classmethod
    def at(cls, lines: bytes, start: int, end: int, capitals: bytes, patch: bytes | None) -> Cased:
        """The display text that is `lines[start:end]` with the letters at `capitals` (uint16s) made capitals,
        and the text `patch` makes of it."""
        return cls(lines, _SPAN.pack(start, end) + capitals, patch)

    def display(self) -> str:
        start, end = _SPAN.unpack_from(self.places)
        out = bytearray(memoryview(self.lines)[start:end])
        for at in memoryview(self.places)[_SPAN.size :].cast("H"):
            out[at] -= 32  # (A-Z: a capital is its small letter less 32)
        return out.decode("utf-8", "surrogatepass")

    def text(self) -> str:
        shown = self.display()
        return shown if self.patch is None else patched(shown, self.patch)
