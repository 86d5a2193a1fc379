"""Work run on an executor a few items ahead of its use: the results in order, each as soon as it is asked for,
and only so many items taken and waiting at once (not all: every item, and every result, would wait in memory).
A long list's parse sends its next chunks to worker processes this way (`store.readers.records`).
No numpy here: a worker process that imports its caller's module need not load it."""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from typing import TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")

AHEAD = 4
"""Items given to the executor beyond the one whose result is waited for."""


def in_order(pool: Executor, work: Callable[[_T], _R], items: Iterable[_T]) -> Iterator[_R]:
    """work(item) for each of `items`, in order, run on `pool` `AHEAD` items ahead. When the caller stops early or
    taking an item fails (a file that cannot be read on), what was given to `pool` and not begun is cancelled."""
    pending: deque[Future[_R]] = deque()
    try:
        for item in items:
            pending.append(pool.submit(work, item))
            if len(pending) > AHEAD:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
