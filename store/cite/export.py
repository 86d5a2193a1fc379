"""Writing a set of papers with their triage state: BibTeX, RIS, CSL-JSON (`interop`), a Markdown reading list,
CSV, JSON Lines.

`write()` never replaces an existing file unless told to, and never leaves a half-written one;
a new file gets the mode the umask gives (0644 under the usual 022), an overwritten one keeps its mode.
"""
from __future__ import annotations

import csv
import os
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from types import SimpleNamespace

from store.cite import citations as cite
from store.cite.keys import citation_keys
from store.common.errors import ReadError
from store.papers.inert import inert
from store.common.json_out import dumps
from store.papers.model import Paper, Triage, texts

FORMATS = ("bibtex", "ris", "csl-json", "markdown", "csv", "jsonl")
SUFFIXES = {".bib": "bibtex", ".ris": "ris", ".json": "csl-json", ".md": "markdown", ".csv": "csv", ".jsonl": "jsonl"}
COLUMNS = ("id", "key", "title", "name", "authors", "venue", "year", "track", "keywords", "area", "tldr", "doi",
           "arxiv", "pdf", "links", "read", "starred", "priority", "dismissed", "note", "tags", "text")
MARKED = frozenset({"markdown", "csv", "jsonl"})
"""The formats that write a paper's marks (BibTeX, RIS and CSL-JSON write the papers alone)."""
_LISTS = ("authors", "keywords", "tags")
"""Columns whose values are lists: a CSV cell joins them with "; " (as the CSV reader splits them)."""
_NO_STATE = Triage()


class Exists(ReadError):
    """The file to write exists and overwriting was not asked for (the caller says how to ask)."""


def format_for(path: str | os.PathLike[str]) -> str:
    """The export format a file name asks for by its extension (`.bib`, `.ris`, `.json`, `.md`, `.csv`, `.jsonl`);
    ReadError naming the file for any other extension (`list.txt` must not silently be BibTeX)."""
    suffix = Path(path).suffix.lower()
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    what = f"unknown extension {suffix}" if suffix else "no extension"
    *others, last = SUFFIXES
    raise ReadError(str(path), f"{what}: name it {', '.join(others)} or {last}")


def row(paper: Paper, state: Triage, key: str, text: str) -> dict:
    """One paper and its state as a flat record (the jsonl row; csv joins the lists)."""
    return {"id": paper.id, "key": key, **paper.record(), **state.marks(), "text": text}


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A CSV cell that a spreadsheet shows as text: a leading `=`, `+`, `-` or `@` gets a `'` so it is never a formula."""
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA) else value


def _csv(records: Iterable[dict]) -> Iterator[str]:
    """The CSV of `records`: a header row, then a row each, a part each (the writer's one write of a row, kept)."""
    rows: list[str] = []
    writer = csv.writer(SimpleNamespace(write=rows.append), lineterminator="\n")
    writer.writerow(COLUMNS)
    yield rows.pop()
    for record in records:
        flat = {
            **record, **{column: "; ".join(record[column]) for column in _LISTS},
            "links": " ".join(record["links"]), "year": record["year"] or "",
        }
        writer.writerow([_cell(flat[column]) for column in COLUMNS])
        yield rows.pop()


def _priority_heading(priority: int) -> str:
    return f"## Priority {priority}" if priority else "## No priority"


def _group(state: Triage) -> tuple[int, str]:
    """Where a paper goes in the reading list: by priority (1 first, none after), then those not for me."""
    if state.dismissed:
        return 100, "## Not for me"
    return state.priority or 99, _priority_heading(state.priority)


def reading_list(papers: Sequence[Paper], states: Mapping[str, Triage], keys: Mapping[str, str]) -> str:
    """Markdown grouped by priority (1 first, unprioritised next), the papers marked not for me last,
    with read boxes, stars, notes and tags."""
    lines = ["# Reading list", ""]
    by_priority = sorted(papers, key=lambda p: _group(states.get(p.id, _NO_STATE))[0])
    current = None
    for paper in by_priority:
        state = states.get(paper.id, _NO_STATE)
        heading = _group(state)[1]
        if heading != current:
            if current is not None:
                lines.append("")
            current = heading
            lines += [heading, ""]
        box = "[x]" if state.read else "[ ]"
        star = "★ " if state.starred else ""
        lines.append(f"- {box} {star}{cite.markdown(paper)} `{keys[paper.id]}`")
        lines += [f"  > {line}" if line.strip() else "  >" for line in inert(state.note).strip().splitlines()]
        if state.tags:
            lines.append("  tags: " + ", ".join(inert(t) for t in state.tags))
    return "\n".join(lines) + "\n"


def render(papers: Sequence[Paper], fmt: str, states: Mapping[str, Triage] | None = None,
           keys: Mapping[str, str] | None = None, abstract: bool = False) -> str:
    """`papers` (in the order given) as export format `fmt` (`parts`, joined)."""
    return "".join(parts(papers, fmt, states, keys, abstract))


def parts(
    papers: Sequence[Paper],
    fmt: str,
    states: Mapping[str, Triage] | None = None,
    keys: Mapping[str, str] | None = None,
    abstract: bool = False,
    titles: Sequence[str] | None = None,
) -> Iterator[str]:
    """`papers` (in the order given) as export format `fmt`, in parts to be written one after the other (`write`): an
    export of 100,000 papers is never held whole. `keys` should be assigned over the whole collection
    (`store.cite.keys.citation_keys`) so a paper keeps its key in every export; `titles`: their BibTeX titles
    (`cite.bibtex_titles`), when the caller has them."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")
    states = states or {}
    keys = keys if keys is not None else citation_keys(papers)
    if fmt == "bibtex":
        yield from cite.bibtex_parts(papers, keys, abstract, titles)
    elif fmt in ("ris", "csl-json"):
        from store.cite import interop

        yield from interop.ris(papers, keys) if fmt == "ris" else interop.csl_json(papers, keys)
    elif fmt == "markdown":
        yield reading_list(papers, states, keys)
    else:
        records = (row(p, states.get(p.id, _NO_STATE), keys[p.id], text) for p, text in zip(papers, texts(papers)))
        yield from _csv(records) if fmt == "csv" else (dumps(r) + "\n" for r in records)


def joined(parts: Iterable[str]) -> Iterator[str]:
    """`parts` (an entry or a row each) a thousand at a time, joined: a write for a thousand entries rather than one each."""
    parts = iter(parts)
    while batch := list(islice(parts, 1000)):
        yield "".join(batch)


def _create_temporary(target: Path) -> tuple[int, Path]:
    """A new hidden file beside `target`, open for writing, with the mode the umask gives
    (`tempfile.mkstemp` would make it 0600, and the export with it)."""
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")


def write(path: str | os.PathLike[str], text: str | Iterable[str], force: bool = False) -> None:
    """Write `text` (or its parts, one after the other: `parts`) to `path` whole or not at all. An existing file is
    kept unless `force` (`Exists` then); with `force` it is replaced and keeps its mode. Other failures: ReadError."""
    target = Path(path)
    if target.is_dir():
        raise ReadError(str(path), "is a directory")
    if target.exists() and not force:
        raise Exists(str(path), "already exists")
    try:
        fd, tmp = _create_temporary(target)
    except OSError as exc:
        raise ReadError(str(path), exc.strerror or str(exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            if force and target.exists():
                os.fchmod(out.fileno(), target.stat().st_mode & 0o7777)
            for batch in [text] if isinstance(text, str) else joined(text):
                out.write(batch)
            out.flush()
            os.fsync(out.fileno())
        if force:
            os.replace(tmp, target)
        else:
            os.link(tmp, target)  # fails, rather than replaces, if the file appeared meanwhile
    except FileExistsError:
        raise Exists(str(path), "already exists") from None
    except OSError as exc:
        raise ReadError(str(path), exc.strerror or str(exc)) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
