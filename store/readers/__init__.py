"""Readers: one module per input format, each turning a file into a `Collection`."""
from __future__ import annotations

import os
from pathlib import Path

from store.errors import ReadError
from store.model import Collection
from store.readers import seed


def read_path(path: str | os.PathLike[str]) -> Collection:
    """Read one file into a `Collection`; raise `ReadError` naming the file when it cannot be read."""
    p = Path(path)
    if not p.exists():
        raise ReadError(str(path), "no such file")
    if p.is_dir():
        raise ReadError(str(path), "is a directory")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ReadError(str(path), exc.strerror or str(exc)) from None
    return seed.parse(data, str(path))
