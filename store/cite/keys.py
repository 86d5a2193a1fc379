"""Citation keys: readable (`iclr2024hdgnn`: the first author's surname or the venue, the year, the method's name or
the title's first word), unique within the papers they are assigned over (`citation_keys`: a paper keeps its key in
every export), and whether keys kept beside a list can be what that assigns (`citable`). Imports `papers` and `common`."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from operator import eq
from threading import Event
from typing import NamedTuple

from store.common.errors import unless_stopped
from store.papers.chunked import ids_of, values_of
from store.papers.model import Paper

_STOPWORDS = frozenset("a an the on of in for to and with via from towards toward we this is are our".split())
_NOT_SLUG = re.compile(r"[^a-z0-9]")
_KEY_CHARS = re.compile(r"[^\s,{}()\"#%'=~\\]+")


@lru_cache(maxsize=1 << 14)
def _slug(text: str) -> str:
    """Lower-case ASCII letters and digits only: 'Müller' → 'muller'."""
    return _NOT_SLUG.sub("", unicodedata.normalize("NFKD", text.casefold()))


_LETTERS = re.compile(r"[A-Za-z]+")


def _venue_slug(paper: Paper) -> str:
    return venue_word(paper.venue) if paper.venue else ""


@lru_cache(maxsize=1 << 10)
def venue_word(venue: str) -> str:
    """The first word of a venue, slugged (one for most papers of a list)."""
    word = _LETTERS.search(venue)
    return _slug(word.group()) if word else ""


def base_key(paper: Paper) -> str:
    """The readable key before de-duplication: venue, year and the method's name or first title word."""
    if paper.key and _KEY_CHARS.fullmatch(paper.key):
        return paper.key
    stem = _slug(paper.name) or next(
        (word for word in map(_slug, paper.title.split()) if word and word not in _STOPWORDS), "paper"
    )
    if paper.authors:
        first = paper.authors[0]
        prefix = _slug(first.split(",")[0] if "," in first else (first.split() or [""])[-1])
    else:
        prefix = _venue_slug(paper)
    return f"{prefix}{paper.year or ''}{stem[:24]}" or paper.id


class _Keyed(NamedTuple):
    """What a paper's key is made of, read from its list by field (`values_of`: a reopened list's from its columns, no
    paper made for it)."""

    id: str
    key: str
    name: str
    title: str
    authors: tuple[str, ...]
    year: int | None
    venue: str


def citation_keys(papers: Sequence[Paper], stop: Event | None = None) -> dict[str, str]:
    """Paper id → a unique key. Assign over the whole collection so a paper's key is the same
    whether it is cited alone or exported with others; the first of equal keys keeps it plain,
    later ones get `b`, `c`, … appended. A reopened long list's are made from its columns: its papers not made for it
    (1,000,000 papers would be ~1.2 GB more, kept). `store.common.errors.Stopped` once `stop` is set (~12 s at
    2,700,000 papers: a quit does not wait for them)."""
    keys: dict[str, str] = {}
    taken: set[str] = set()
    tried: dict[str, int] = {}  # base → the next suffix to try, so many equal bases stay linear
    for paper in unless_stopped(map(_Keyed._make, zip(*(values_of(papers, name) for name in _Keyed._fields))), stop):
        if paper.id in keys:
            continue
        base = base_key(paper)
        folded = _folded(base)
        if folded not in tried and folded not in taken:  # (most keys: a base not met before is the key)
            tried[folded] = 1
            taken.add(folded)
            keys[paper.id] = base
            continue
        key, n = base, tried.get(folded, 1)
        while key.casefold() in taken:
            key = f"{base}{_suffix(n)}"
            n += 1
        tried[_folded(base)] = n
        taken.add(_folded(key))
        keys[paper.id] = key
    return keys


def _folded(key: str) -> str:
    """`key` case-folded, the same string when that changes nothing (most keys are lower-case slugs: a copy of
    each would be ~7 MB more at 100,000 papers while they are assigned)."""
    folded = key.casefold()
    return key if folded == key else folded


def _suffix(n: int) -> str:
    """1 → 'b', 2 → 'c', … 25 → 'z', 26 → 'ba' (base-26 letters; the plain key is 'a')."""
    letters = ""
    while True:
        n, r = divmod(n, 26)
        letters = chr(ord("a") + r) + letters
        if not n:
            return letters


def citable(papers: Sequence[Paper], keys: Sequence[str]) -> dict[str, str] | None:
    """Paper id → key, from `keys` (one a paper of `papers`, in order) when they can be what `citation_keys` assigns:
    no key empty, a paper's every copy the same key, no two papers' keys the same but for case; else None."""
    ids = ids_of(papers)
    by_id = dict(zip(ids, keys))
    if len(keys) != len(papers) or "" in by_id.values() or len({_folded(key) for key in by_id.values()}) != len(by_id):
        return None
    return by_id if all(map(eq, map(by_id.__getitem__, ids), keys)) else None
