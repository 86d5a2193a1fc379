"""The installed version of a library, as the caches' keys name it (`store.readers.cache`,
`store.interest.features_cache`): what `importlib.metadata.version` gives, found without importing it (it pulls in
email, socket and more: ~20 ms of every CLI call that reads a cache). The first `*.dist-info` folder of that name
on `sys.path`, in its order (as importlib.metadata looks), gives the `Version:` of its METADATA."""
from __future__ import annotations

import os
import re
import sys
from functools import cache


@cache
def version(library: str) -> str | None:
    """The version of the installed distribution `library` (any spelling: `scikit-learn`, `scikit_learn`); None when
    none is installed."""
    found = _installed().get(_normal(library))
    return None if found is None else _metadata_version(found)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@cache
def _installed() -> dict[str, str]:
    """Each distribution's METADATA file (normalised name → path), the first found on `sys.path` winning."""
    found: dict[str, str] = {}
    for folder in sys.path:
        try:
            names = sorted(entry.name for entry in os.scandir(folder or ".") if entry.name.endswith(".dist-info"))
        except OSError:
            continue
        for name in names:
            library = _normal(name.removesuffix(".dist-info").rpartition("-")[0])
            if library and library not in found:
                found[library] = os.path.join(folder or ".", name, "METADATA")
    return found


def _metadata_version(path: str) -> str | None:
    """The `Version:` header of the METADATA file at `path` (None: unreadable, or none)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            for line in file:
                if not line.strip():
                    return None  # (the headers end at the first blank line)
                if line.startswith("Version:"):
                    return line.removeprefix("Version:").strip()
    except OSError:
        pass
    return None
