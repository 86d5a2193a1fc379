"""The one error type `store` raises for bad input: it names the file and, when known, the line."""
from __future__ import annotations


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
