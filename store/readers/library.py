"""The library as a list: the kept record of every marked paper (`store.library`) made a paper by the jsonl
reader (`store.readers.tabular`), so a record passes the same inert boundary as any list's record, and keeps
the id its marks are under."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from store.common.errors import ReadError
from store.papers.model import Collection, replaced
from store.readers.tabular import collect

HEADER = "your library"


def library_collection(records: Mapping[str, Mapping[str, Any]], source: str) -> Collection:
    """The papers of `records` (paper id → record), in the order given, each under its paper id; `source`
    names the records file (what a paper's source and the list's session are)."""
    pids = list(records)
    warnings: list[str] = []
    try:
        made = collect(((n, f"{source}: paper {pid}", dict(records[pid])) for n, pid in enumerate(pids, 1)), source, warnings)
    except ReadError:  # no record with a title or abstract: an empty library
        made = Collection([], sources=[source])
    papers = [paper if paper.id == pids[paper.line - 1] else replaced(paper, id=pids[paper.line - 1]) for paper in made.papers]
    return Collection(papers, header=HEADER, sources=[source], warnings=warnings)
