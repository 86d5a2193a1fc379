"""Writing a set of papers with their triage state: BibTeX, a Markdown reading list, CSV, JSON Lines.

`write()` never replaces an existing file unless told to, and never leaves a half-written one.
"""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from store import cite
from store.errors import ReadError
from store.model import Paper, Triage
from store.text import inert

FORMATS = ("bibtex", "markdown", "csv", "jsonl")
SUFFIXES = {".bib": "bibtex", ".md": "markdown", ".csv": "csv", ".jsonl": "jsonl"}
COLUMNS = ("id", "key", "title", "name", "authors", "venue", "year", "links",
           "read", "starred", "priority", "note", "tags", "text")
_NO_STATE = Triage()


def format_for(path: str | os.PathLike[str] | None, default: str = "bibtex") -> str:
    """The export format a file name asks for by its extension (`.bib`, `.md`, `.csv`, `.jsonl`)."""
    return SUFFIXES.get(Path(path or "").suffix.lower(), default)


def row(paper: Paper, state: Triage, key: str) -> dict:
    """One paper and its state as a flat record (the jsonl row; csv joins the lists)."""
    return {
        "id": paper.id, "key": key, "title": paper.title, "name": paper.name, "authors": list(paper.authors),
        "venue": paper.venue, "year": paper.year, "links": list(paper.links), **state.marks(),
        "text": paper.text,
    }


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A CSV cell that a spreadsheet shows as text: a leading `=`, `+`, `-` or `@` gets a `'` so it is never a formula."""
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA) else value


def _csv(records: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for record in records:
        flat = {
            **record,
            "authors": "; ".join(record["authors"]), "links": " ".join(record["links"]),
            "tags": "; ".join(record["tags"]), "year": record["year"] or "",
        }
        writer.writerow({column: _cell(value) for column, value in flat.items()})
    return out.getvalue()


def _priority_heading(priority: int) -> str:
    return f"## Priority {priority}" if priority else "## No priority"


def reading_list(papers: Sequence[Paper], states: Mapping[str, Triage], keys: Mapping[str, str]) -> str:
    """Markdown grouped by priority (1 first, unprioritised last), with read boxes, stars, notes and tags."""
    lines = ["# Reading list", ""]
    by_priority = sorted(papers, key=lambda p: (states.get(p.id, _NO_STATE).priority or 99))
    current = None
    for paper in by_priority:
        state = states.get(paper.id, _NO_STATE)
        if state.priority != current:
            if current is not None:
                lines.append("")
            current = state.priority
            lines += [_priority_heading(current), ""]
        box = "[x]" if state.read else "[ ]"
        star = "★ " if state.starred else ""
        lines.append(f"- {box} {star}{cite.markdown(paper)} `{keys[paper.id]}`")
        lines += [f"  > {line}" if line.strip() else "  >" for line in inert(state.note).strip().splitlines()]
        if state.tags:
            lines.append("  tags: " + ", ".join(inert(t) for t in state.tags))
    return "\n".join(lines) + "\n"


def render(
    papers: Sequence[Paper],
    fmt: str,
    states: Mapping[str, Triage] | None = None,
    keys: Mapping[str, str] | None = None,
    abstract: bool = False,
) -> str:
    """`papers` (in the order given) as export format `fmt`. `keys` should be assigned over the whole
    collection (`cite.citation_keys`) so a paper keeps its key in every export."""
    states = states or {}
    keys = keys if keys is not None else cite.citation_keys(papers)
    if fmt == "bibtex":
        return cite.bibtex(papers, keys, abstract)
    if fmt == "markdown":
        return reading_list(papers, states, keys)
    records = [row(p, states.get(p.id, _NO_STATE), keys[p.id]) for p in papers]
    if fmt == "csv":
        return _csv(records)
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    raise ValueError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")


def write(path: str | os.PathLike[str], text: str, force: bool = False) -> None:
    """Write `text` to `path` whole or not at all. An existing file is kept unless `force`:
    ReadError naming the file then."""
    target = Path(path)
    if target.is_dir():
        raise ReadError(str(path), "is a directory")
    if target.exists() and not force:
        raise ReadError(str(path), "already exists (pass --force to overwrite)")
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise ReadError(str(path), exc.strerror or str(exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if force:
            os.replace(tmp, target)
        else:
            os.link(tmp, target)  # fails, rather than replaces, if the file appeared meanwhile
    except FileExistsError:
        raise ReadError(str(path), "already exists (pass --force to overwrite)") from None
    except OSError as exc:
        raise ReadError(str(path), exc.strerror or str(exc)) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
