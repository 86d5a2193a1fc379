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
