"""A display text kept as a patch over its text (`store.papers.model.Paper.plain`): where the two differ in a few
places (the markup of a few words, a symbol), what makes the display text of the text. `store.papers.text.plain_form`
makes a patch, `patched` reads it.
"""
from __future__ import annotations

import struct
from collections.abc import Callable
from functools import lru_cache

_COUNT = struct.Struct("<I")


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


@lru_cache(maxsize=128)
def _numbers(count: int) -> Callable[[bytes, int], tuple[int, ...]]:
    return struct.Struct(f"<{3 * count}I").unpack_from
