"""The one error type `store` raises for bad input: it names the file and, when known, the line."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from threading import Event
from typing import TypeVar

T = TypeVar("T")


class ReadError(Exception):
    """Input that cannot be read. `str()` is the one line a user sees."""

    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")


class Locked(Exception):
    """Another process held the database's lock for longer than the wait allowed: nothing was done.

    `pid` is the holder's process id when it is known (it wrote it into the lock file); `str()`
    is the one line a user sees."""

    def __init__(self, path: str, waited: float, pid: int | None = None, command: str = "") -> None:
        self.path = path
        self.pid = pid
        who = f"process {pid}" + (f" (running {command!r})" if command else "") if pid else "another process"
        hint = f" (if that process is stopped, kill -CONT {pid} resumes it)" if pid else ""
        super().__init__(f"the database {path} is locked by {who}; waited {waited:g} s{hint}")


class NotSaved(Exception):
    """A change that could not be written (a read-only database, a full disk): none of it was stored.
    `str()` is the one line a user sees."""


class Stopped(Exception):
    """Work given up half-way because it was asked to stop (`unless_stopped`: the app is quitting); what it
    stores is stored whole or not at all, and worked out again the next time."""


def unless_stopped(items: Iterable[T], stop: Event | None, every: int = 1000) -> Iterator[T]:
    """`items`, raising `Stopped` once `stop` is set (looked at every `every` items)."""
    for n, item in enumerate(items):
        if stop is not None and n % every == 0 and stop.is_set():
            raise Stopped
        yield item
