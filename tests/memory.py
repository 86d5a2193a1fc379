"""How much memory reading a list takes: its parse alone, the peak of what Python allocated meanwhile."""
from __future__ import annotations

import tracemalloc
from pathlib import Path

from store.papers.model import Paper
from store.readers import read_path


def read_alone(path: Path, monkeypatch) -> tuple[list[Paper], int]:
    """The papers of the list `path` and the peak bytes allocated while it was read (no parse cache written: its
    entries would add theirs)."""
    nowhere = path.parent / "not-a-folder"
    nowhere.write_text("")
    monkeypatch.setenv("TRIAGE_CACHE", str(nowhere))
    tracemalloc.start()
    try:
        papers = read_path(path).papers
        return papers, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
