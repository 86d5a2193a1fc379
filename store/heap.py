"""How this process hands the memory it freed back to the system (glibc's malloc; elsewhere nothing).

glibc serves a block of 128 KB or more with a mapping of its own, unmapped when freed, but raises
that threshold to the size of each such block freed, up to 32 MB: after the first few, the index
build's temporary arrays (a few MB each, made on several threads) come from the heap and the
threads' arenas, which keep the room once freed. At 100,000 abstracts a build left ~400 MB more
resident than it held (966 MB, 568 once trimmed; peak 974). `keep_large_apart` fixes the threshold
(peak 858, 695 resident after the build), `give_back` returns every arena's free pages after work
that freed much (~550).
"""
from __future__ import annotations

import ctypes
import platform
from functools import cache

_M_MMAP_THRESHOLD = -3  # mallopt's parameter (malloc.h)
_THRESHOLD = 128 * 1024  # glibc's own starting value, kept


@cache
def _libc() -> ctypes.CDLL | None:
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


@cache
def keep_large_apart() -> None:
    """From now on every block of 128 KB or more is mapped alone and unmapped when freed (once a
    process: the threshold glibc would otherwise raise stays fixed)."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(_M_MMAP_THRESHOLD, _THRESHOLD)


def give_back() -> None:
    """Return the free pages of every malloc arena to the system (a few ms)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
