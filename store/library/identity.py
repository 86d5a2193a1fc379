"""One paper across sources: which papers of different lists are the same paper, whatever the wording of their
abstract there (an arXiv v2, the OpenReview abstract, the proceedings .bib), and which of two versions is later.

- `keys`: what a paper (or a kept record) is known by here: its arXiv id (without version), its DOI (lower-cased),
  its OpenReview id, and its normalised title with the normalised surname of each of its authors. Two papers
  sharing any key are one paper: the same title is not enough, an author must be in common (and two different
  arXiv ids are two papers, whatever else they share).
- `Identities`: the marked papers by their records' keys (`sharing`: those a few papers may be). `shared` maps each
  paper of an opened list that has no marks of its own to the marked paper it is: the two share one state
  (`store.marks.db.TriageStore.attach`, which reads and writes the marks of such a paper under the marked paper's
  id: shared, not moved, so the paper shows its marks in every list it appears in). Nothing of this is stored with
  the marks: it is made from the kept records (their keys cached: `store.library.keys_cache`), so sync, merge,
  backup and restore carry it with them, and a database made before opens as it was.
- `one_per_paper`: the library's records, one per paper.
- `later`: whether a version is later than the one kept (`store.library.record.stage`): `is:updated`.
"""
from __future__ import annotations

import re
from itertools import compress
from operator import not_
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from store.library.record import PREPRINT, PUBLISHED, paper_stage, unranked
from store.papers import matching
from store.papers.chunked import values_of
from store.papers.matching import KEPT_FROM, Columns, openreview_id, plain
from store.papers.model import Paper, Triage
from store.papers.rows import lookup_of

_VERSION = re.compile(r"v\d+$")
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
MIN_TITLE = 8
"""A title shorter than this, normalised, names no paper ("Introduction")."""
_COLUMN = {"dois": matching.dois, "openreview": matching.openreview, "titles": matching.titles}


def surname(name: str) -> str:
    """The plain surname of an author's name, written "First Last" or "Last, First"; '' for none."""
    if "," in name:
        return plain(name.partition(",")[0])
    words = [word for word in name.split() if plain(word) not in _SUFFIXES]
    return plain(words[-1]) if words else ""


def title_keys(title: str, authors: Iterable[str]) -> list[str]:
    """The title-and-author keys: the plain title with each author's plain surname (none for a short title)."""
    flat = plain(title)
    if len(flat) < MIN_TITLE:
        return []
    return [f"t:{flat}/{name}" for name in dict.fromkeys(map(surname, authors)) if name]


def keys(title: str, authors: Iterable[str], arxiv: str, doi: str, openreview: str) -> list[str]:
    """Every key of a paper of these fields (see the module docstring); `arxiv` may name a version."""
    found = ["a:" + _VERSION.sub("", arxiv)] if arxiv else []
    if doi:
        found.append("d:" + doi.casefold())
    if openreview:
        found.append("o:" + openreview)
    return found + title_keys(title, authors)


def record_keys(record: Mapping[str, Any]) -> list[str]:
    return keys(record.get("title", ""), record.get("authors", ()), record.get("arxiv", ""), record.get("doi", ""),
                record.get("openreview", ""))


def later(new: tuple[int, int], kept: tuple[int, int]) -> bool:
    """Whether a version at `new` (`store.library.record.stage`: preprint or published, arXiv version) is later
    than the one kept: a paper published (a venue other than arXiv: the proceedings, the camera-ready, a
    journal) where the kept one was an arXiv preprint, or a higher arXiv version where the kept one names its
    version (an arXiv record kept without one, from a listing that did not say, is never found older). Two
    versions of the same venue, or an arXiv version seen after the proceedings, are not later (the proceedings
    are the version of record). `stage` ranks records so, and so a kept record is never replaced by an earlier one."""
    return (kept[0] == PREPRINT and new[0] == PUBLISHED) or (new[0] >= kept[0] and 0 < kept[1] < new[1])


class Identities:
    """The marked papers by the keys of their records (`keys`: paper id → its record's `record_keys`, as
    `store.library.keys_cache` keeps them); where two marked papers share a key, the one whose marks changed last
    (`order`: the ids, earliest changed first) is the one found."""

    def __init__(self, keys: Mapping[str, Sequence[str]], order: Sequence[str]) -> None:
        self._by_key: dict[str, str] = {}
        for pid in order:
            if pid in keys:
                self._by_key.update(dict.fromkeys(keys[pid], pid))
        of = {kind: {key[2:] for key in self._by_key if key.startswith(kind)} for kind in ("a:", "d:", "o:")}
        self._arxiv, self._doi, self._openreview = of["a:"], of["d:"], of["o:"]
        self._titles = {key[2:].rpartition("/")[0] for key in self._by_key if key.startswith("t:")}
        self._arxiv_of = {pid: key[2:] for pid in order if pid in keys for key in keys[pid] if key.startswith("a:")}
        self._all_arxiv = bool(order) and all(pid in self._arxiv_of for pid in order if pid in keys)
        """Whether every marked paper has an arXiv id: then a paper with one is that paper by its id, or none."""

    def same(self, paper: Paper) -> str | None:
        """The id of the marked paper `paper` is (under another id), or None."""
        by_key = self._by_key
        found = (paper.arxiv and by_key.get("a:" + paper.arxiv)) or (paper.doi and by_key.get("d:" + paper.doi.casefold()))
        if not found and paper.links:
            found = by_key.get("o:" + openreview_id(paper.links))
        if not found and paper.authors and plain(paper.title) in self._titles:
            found = next(filter(None, map(by_key.get, title_keys(paper.title, paper.authors))), None)
        if found and paper.arxiv and self._arxiv_of.get(found, paper.arxiv) != paper.arxiv:
            return None  # two arXiv ids: two papers, whatever else they share
        return found or None

    def shared(self, papers: Sequence[Paper], kept: Callable[[Sequence[Paper]], Columns | None] | None = None) -> dict[str, str]:
        """Each of `papers` that is a marked paper under another id → that id.

        Asked of every paper of a list opened, so each kind of key is first looked for in all of them at once, in C
        (no Python call a paper), and only the papers that may be a marked one are looked at in Python (`same`): the
        arXiv ids through maps of built-in functions, the DOIs, OpenReview ids and plain titles through their columns
        (`store.papers.matching`): those `kept(papers)` gives (a long list's, kept beside its parse entry), else made
        now. Two papers of different arXiv ids are two papers: when every marked paper has an arXiv id, a paper that
        has one is looked up by it alone. The papers are gone through by row, and only those that may be one are asked
        for: a reopened long list's (`store.papers.chunked`) are not all made for it."""
        maybe: list[int] = []  # (rows)
        rows = rest = range(len(papers))
        if self._arxiv:
            lookup = lookup_of(papers, "arxiv")  # (a reopened long list's: its rows of an arXiv id found, no pass made)
            if lookup is not None:
                maybe += lookup.among(self._arxiv)
                if self._all_arxiv:  # (those that may have none: all that do not are found by their arXiv id)
                    rest = lookup.among([""])
            else:
                arxiv = list(values_of(papers, "arxiv"))
                maybe += compress(rows, map(self._arxiv.__contains__, arxiv))
                if self._all_arxiv:  # (a marked arXiv listing's papers, another day's listing: looked up by id alone)
                    rest = list(compress(rows, map(not_, arxiv)))
        wanted = [(kind, marked) for kind, marked in (("dois", self._doi), ("openreview", self._openreview), ("titles", self._titles)) if marked]
        if wanted and rest:
            found = kept(papers) if kept is not None and len(rest) >= KEPT_FROM else None
            if found is not None and any(len(column) != len(papers) for column in found):
                found = None
            if found is None:  # (the columns of the others of `papers` alone: the rest are found by id by `same`)
                those = papers if rest is rows else [papers[k] for k in rest]
                columns, of = {kind: _COLUMN[kind](those) for kind, _ in wanted}, rest
            else:
                columns, of = found._asdict(), rows
            for kind, marked in wanted:
                maybe += compress(of, map(marked.__contains__, columns[kind]))
        return {paper.id: found for paper in map(papers.__getitem__, maybe)
                if (found := self.same(paper)) is not None and found != paper.id}


def looked_up(paper: Paper) -> set[str]:
    """Every key `Identities.same` may look `paper` up by."""
    found = {"a:" + paper.arxiv, "d:" + paper.doi.casefold(), "o:" + openreview_id(paper.links)}
    return found.union(title_keys(paper.title, paper.authors)) if paper.authors else found


def sharing(keys: Mapping[str, Sequence[str]], order: Sequence[str], papers: Iterable[Paper]) -> Identities:
    """The `Identities` of the marked papers (`keys`, `order`) that have a key of one of `papers`: what the
    `Identities` of all says of these papers (the same marked paper found for each), made of a few papers' keys in
    a fraction of its time (a paper's first mark by `triage set`: ~1 ms at 10,000 marked papers, not ~35)."""
    wanted = set().union(*map(looked_up, papers))
    return Identities({pid: found for pid, found in keys.items() if not wanted.isdisjoint(found)}, order)


def one_per_paper(records: Mapping[str, Mapping[str, Any]], order: Sequence[str]) -> dict[str, Mapping[str, Any]]:
    """`records` (paper id → record), one per paper: of the records of one paper, that of the paper whose marks
    changed last (`order`: earliest first), in the order of `records`."""
    claimed: set[str] = set()
    kept: set[str] = set()
    for pid in reversed([pid for pid in order if pid in records]):
        found = record_keys(records[pid])
        if not claimed.intersection(found):
            kept.add(pid)
        claimed.update(found)
    return {pid: record for pid, record in records.items() if pid in kept or pid not in order}


def updated_papers(papers: Mapping[str, Paper], states: Mapping[str, Triage], shares: Mapping[str, str],
                   kept: Mapping[str, int], seen: Mapping[str, Sequence[tuple[int, int]]] | None = None) -> frozenset[str]:
    """The ids of `states` (of `papers`, by id) whose paper has marks and is a later version (`later`) than the
    record kept of the marked paper it is (its own, or the one it shares marks with: `shares`); `kept`: paper id →
    the kept record's `store.library.record.richness`, which holds its stage. With `seen` (marked paper id → the
    stages of its versions seen in lists: `store.library.seen.Seen.later`), also those a later version of which was
    seen (the library's rows, which are the kept records themselves)."""
    found = set()
    for pid, state in states.items():
        target = shares.get(pid, pid)
        paper = papers.get(pid)
        if state.blank or target not in kept:
            continue
        stage = unranked(kept[target])
        if (isinstance(paper, Paper) and later(paper_stage(paper), stage)) or any(later(version, stage) for version in (seen or {}).get(target, ())):
            found.add(pid)
    return frozenset(found)
