"""How this process hands the memory it freed back to the system (glibc's malloc; elsewhere nothing).

glibc serves a block of 128 KB or more with a mapping of its own, unmapped when freed, but raises
that threshold to the size of each such block freed, up to 32 MB: after the first few, the index
build's temporary arrays (a few MB each, made on several threads) come from the heap and the
threads' arenas, which keep the room once freed. At 100,000 abstracts a build left ~400 MB more
resident than it held (966 MB, 568 once trimmed; peak 974). `large_apart` fixes the threshold for
the build (peak 858, 695 resident after it), `give_back` returns every arena's free pages after work
that freed much (~550). `one_arena` keeps every thread's blocks in one heap.
"""
from __future__ import annotations

import ctypes
import platform
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

_M_MMAP_THRESHOLD = -3  # mallopt's parameters (malloc.h)
_M_ARENA_MAX = -8
_THRESHOLD = 128 * 1024  # glibc's own starting value, kept
_RAISED = 32 * 1024 * 1024  # the most glibc raises it to by itself (64-bit)


@cache
def _libc() -> ctypes.CDLL | None:
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


@contextmanager
def large_apart() -> Iterator[None]:
    """Within the block, every block of 128 KB or more is mapped alone and unmapped when freed (the
    threshold glibc would otherwise raise is fixed); after it, such blocks come from the heap, as
    glibc's raised threshold would have them (a search's arrays of a number a paper, reused rather
    than mapped and faulted in anew: at 100,000 papers `"n` took 30 ms kept apart, 20 ms not), and
    the free pages the block left go back (`give_back`)."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(_M_MMAP_THRESHOLD, _THRESHOLD)
    try:
        yield
    finally:
        if libc is not None:
            libc.mallopt(_M_MMAP_THRESHOLD, _RAISED)
        give_back()


def one_arena() -> None:
    """From now on, threads this process starts allocate from the heap its first thread does (glibc would give them
    heaps of their own, up to 8 a core): a long list's open runs on several threads in turn (the read, the index,
    the cache writers, the phrase texts' batches, the citation keys), and what each freed stayed in its own heap,
    where the others could not reuse it. At 100,000 abstracts the app once open held ~10 MB less (458 MB, not
    467-472). Python's threads take turns anyway (the GIL); those holding none (zstd, numpy) rarely allocate."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(_M_ARENA_MAX, 1)


def give_back() -> None:
    """Return the free pages of every malloc arena to the system (a few ms)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
