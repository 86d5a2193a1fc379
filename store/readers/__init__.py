"""Readers: one module per input format, each turning a file into a `Collection`.

`read_path` reads one file, choosing the format by extension and, for `.txt` and unknown
extensions, by content, and keeps what it parsed in the parse cache (`cache`) so that an
unchanged file opens again at once. `library` makes the papers of the records the database keeps (the library). `read_paths` reads files and directories (recursively, files with a
known extension, hidden ones skipped) into one collection where the same abstract in two
files is one paper.

Imports `search` (a list's search engine folder is kept beside its parse entry: `engine_cache`), `papers` and
`common`."""
from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from pathlib import Path

from store.papers.boundary import inert_collection
from store.common.errors import ReadError
from store.common.files import not_regular
from store.papers.model import Collection, Origin
from store.readers import atom, cache, ids, ris, rss, seed, tabular
from store.readers.records import report
from store.readers.uniques import NOTHING_LEFT, unique

Parser = Callable[[str, str], Collection]


def _bibtex(text: str, path: str) -> Collection:
    from store.readers import bibtex  # bibtexparser, only when a list is parsed as BibTeX (~40 ms to import)

    return bibtex.parse(text, path)


PARSERS: dict[str, Parser] = {
    ".bib": _bibtex,
    ".bibtex": _bibtex,
    ".json": tabular.parse_json,
    ".jsonl": tabular.parse_jsonl,
    ".ndjson": tabular.parse_jsonl,
    ".csv": tabular.parse_csv,
    ".tsv": tabular.parse_csv,
    ".ris": ris.parse,
    ".atom": atom.parse_atom,
    ".xml": atom.parse_atom,
    ".rss": rss.parse_rss,
}
KNOWN_EXTENSIONS = (".txt", *PARSERS)


def _by_content(text: str, path: str) -> Collection:
    """A `.txt` or unknown file: JSON, JSONL, an Atom or RSS feed, RIS or BibTeX when it reads as such, else the seed format."""
    from store.readers import bibtex

    start = text.lstrip()[:1]
    guesses: list[Parser] = []
    if start == "[":
        guesses.append(tabular.parse_json)
    elif start == "{":
        guesses += [tabular.parse_jsonl, tabular.parse_json]
    elif start == "<":
        guesses += [atom.parse_atom, rss.parse_rss]
    elif ris.looks_like_ris(text[:65536]):
        guesses.append(ris.parse)
    elif bibtex.looks_like_bibtex(text[:65536]):
        guesses.append(_bibtex)
    for parse in guesses:
        try:
            collection = parse(text, path)
        except ReadError:
            continue
        if not collection.warnings:
            return collection
    return seed.parse(text, path)


def _pieces(name: str, p: Path) -> Iterator[str]:
    """The text of the UTF-8 file `p` a piece at a time (`store.readers.encoding.utf8_pieces`: `NotPlainUtf8` for a
    file to decode whole); `ReadError` naming it when it cannot be read."""
    from store.readers.encoding import utf8_pieces

    try:
        with p.open("rb") as source:
            yield from utf8_pieces(source)
    except OSError as exc:
        raise ReadError(name, exc.strerror or str(exc)) from None


def _seed_pieces(name: str, p: Path) -> Collection | None:
    """A `.txt` or unknown file in UTF-8 that `_by_content` would read in the seed format, read a piece at
    a time (a long list is never one string); None for any other file (read whole)."""
    from store.readers import bibtex
    from store.readers.encoding import NotPlainUtf8, checked

    def seed_format(head: str) -> bool:
        checked(head, name)  # (what decoding the whole checks, in the same characters)
        return head.lstrip()[:1] not in "[{<" and not ris.looks_like_ris(head) and not bibtex.looks_like_bibtex(head[: seed.HEAD])

    try:
        return seed.parse_pieces(_pieces(name, p), name, seed_format)
    except NotPlainUtf8:
        return None


def _jsonl_pieces(name: str, p: Path, sniffed: bool) -> Collection | None:
    """A JSON Lines file in UTF-8 read a piece at a time, each line parsed as it is read (neither the file nor its
    records held whole: the arXiv snapshot is GBs); `sniffed`: a `.json` file, read so only when it is JSON Lines
    (`tabular.json_lines`). None for any other file (read whole)."""
    from store.readers.encoding import CHECKED, NotPlainUtf8, checked

    pieces = _pieces(name, p)
    head = ""
    try:
        for piece in pieces:  # (as much as decoding the whole checks, and two lines that are not blank)
            head += piece
            if len(head) >= CHECKED and sum(1 for line in head.split("\n", 1024) if line.strip()) > 2:
                break
        checked(head, name)  # (what decoding the whole checks, in the same characters)
        if sniffed and not tabular.json_lines(head):
            return None
        return tabular.parse_jsonl_pieces(chain([head], pieces), name)
    except NotPlainUtf8:
        return None
    finally:
        pieces.close()  # (the file, when it is read whole instead)


def read_path(path: str | os.PathLike[str]) -> Collection:
    """Read one file into a `Collection`; raise `ReadError` naming the file when it cannot be read."""
    name = str(path)
    p = Path(path)
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise ReadError(name, "no such file") from None
    except OSError as exc:
        raise ReadError(name, exc.strerror or str(exc)) from None
    if stat.S_ISDIR(mode):
        raise ReadError(name, "is a directory")
    if not stat.S_ISREG(mode):  # a FIFO would block for ever, a device never end (lists may be GBs: no cap)
        raise ReadError(name, not_regular(mode))
    report(name, 0)
    return cache.cached(name, p, lambda: _parse(name, p), ids.save_beside)


def _parse(name: str, p: Path) -> Collection:
    from store.readers.encoding import decoded  # charset detection: not needed for a list read from the cache

    parser = PARSERS.get(p.suffix.lower())
    if parser is None:
        found = _seed_pieces(name, p)
    elif parser in (tabular.parse_jsonl, tabular.parse_json):
        found = _jsonl_pieces(name, p, sniffed=parser is tabular.parse_json)
    else:
        found = None
    if found is None:
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise ReadError(name, exc.strerror or str(exc)) from None
        text, _ = decoded(data, name)
        del data  # a long list's bytes need not stay in memory while it is parsed
        found = (parser or _by_content)(text, name)
    collection = inert_collection(found)
    if not collection.papers:
        raise ReadError(name, NOTHING_LEFT)
    if parser is None and len(collection.papers) == 1 and not _SENTENCE.search(collection.papers[0].text):  # /etc/passwd
        collection.warnings.append(f"{name}: read as one abstract without a sentence: {NOT_A_LIST}")
    return collection


NOT_A_LIST = "is it a list of abstracts?"
"""How a warning ends that doubts a file is a list at all (one says so on its own, not as a record skipped)."""
_SENTENCE = re.compile(r"[^\W\d_]{2,}[.!?](?:\s|$)")
"""A word ending a sentence: what any abstract has (`We propose a method.`), a password file or a table of numbers not."""


def _files(directory: Path) -> tuple[list[Path], list[str]]:
    """The files in `directory` (and its folders, hidden ones left out) of a known extension, and the names of the others."""
    found, others = [], []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(f for f in files if not f.startswith(".")):
            if Path(name).suffix.lower() in KNOWN_EXTENSIONS:
                found.append(Path(root, name))
            else:
                others.append(name)
    return found, others


def files_of(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The list files `read_paths(paths)` reads, named as it names them (a directory's as `_files` finds them)."""
    return [name for path in paths
            for name in (map(str, _files(Path(path))[0]) if os.path.isdir(path) else [str(path)])]


def read_paths(paths: Iterable[str | os.PathLike[str]]) -> Collection:
    """Read files and directories into one `Collection`, papers deduplicated by id in reading order.

    A named file that cannot be read raises `ReadError`. A file found inside a directory that
    cannot be read is skipped with a warning; a directory that yields no paper raises `ReadError`.
    Warnings of all files (skipped records, broken entries) are collected in order."""
    parts: list[Collection] = []
    warnings: list[str] = []
    for path in paths:
        p = Path(path)
        if not os.path.isdir(p):  # (a file, or anything reading it will say what is wrong with)
            part = read_path(path)
            parts.append(part)
            warnings += part.warnings
            continue
        found, skipped = 0, []
        files, others = _files(p)
        for file in files:
            try:
                part = read_path(file)
            except ReadError as exc:
                skipped.append(str(exc))
                warnings.append(f"skipped {exc}")
                continue
            parts.append(part)
            warnings += part.warnings
            found += 1
        if not found:
            kinds = f"{len(others)} file{'s' if len(others) > 1 else ''} of another kind ({', '.join(others[:3])}{', …' if len(others) > 3 else ''})"
            why = "; ".join([*(f"skipped {reason}" for reason in skipped), *([kinds] if others else [])])
            raise ReadError(str(path), f"no readable lists in this directory ({', '.join(KNOWN_EXTENSIONS)})" + (f": {why}" if why else ""))
    if len(parts) == 1:
        only = parts[0]
        return Collection(only.papers, only.header, only.venue, only.year, only.sources, warnings, origin=only.origin,
                          ids=only.ids)
    venues = {(part.venue, part.year) for part in parts}
    venue, year = venues.pop() if len(venues) == 1 else ("", None)
    papers = unique(paper for part in parts for paper in part.papers)
    origins = [part.origin for part in parts]
    return Collection(
        papers=papers,
        venue=venue,
        year=year,
        sources=[source for part in parts for source in part.sources],
        warnings=warnings,
        # (the files' parses, merged by this code: their keys pin the merged papers too)
        origin=Origin(tuple(key for o in origins for key in o.keys), tuple(papers))
        if all(o is not None and o.of(part.papers) for o, part in zip(origins, parts)) else None,
    )


def describe_skipped(warnings: list[str], limit: int = 3) -> str:
    """One line saying how many records were skipped and why: the first `limit` reasons, then a count; before
    them, each file doubted to be a list (`NOT_A_LIST`)."""
    doubts = [warning for warning in warnings if warning.endswith(NOT_A_LIST)]
    warnings = [warning for warning in warnings if not warning.endswith(NOT_A_LIST)]
    shown = "; ".join(warnings[:limit])
    more = f" (and {len(warnings) - limit} more)" if len(warnings) > limit else ""
    return "; ".join([*doubts, *([f"{len(warnings)} skipped: {shown}{more}"] if warnings else [])])
