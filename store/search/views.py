"""Views (which papers a tab shows) and sorts (in which order), over papers and their triage states."""
from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence, Set
from itertools import compress
from operator import attrgetter, not_
from typing import Protocol

from store.papers.chunked import ids_of
from store.papers.model import Paper, Triage
from store.papers.slots import slot_order

_NONE = Triage()

VIEWS: dict[str, str] = {"all": "All", "unread": "Unread", "starred": "Starred", "prioritised": "Prioritised"}
"""View name → its tab label, in tab order."""


def to_read(state: Triage) -> bool:
    """Whether a paper is still to be read: unread and not dismissed ("not for me")."""
    return not (state.read or state.dismissed)


_IN_VIEW: dict[str, Callable[[Triage], bool]] = {
    "all": lambda state: True,
    "unread": to_read,
    "starred": lambda state: state.starred,
    "prioritised": lambda state: state.priority > 0,
}

SORTS: dict[str, str] = {
    "file": "file order",
    "priority": "priority",
    "starred": "starred first",
    "recent": "recently changed",
    "new": "new first",
    "interest": "for you",
    "suggested": "suggested",
    "title": "title",
    "author": "first author",
    "year": "year (newest first)",
    "track": "track (oral first)",
    "session": "session time",
    "score": "match score",
}
"""Sort name → how the header names it, in the order `S` cycles through them."""

SCORE_SORT = "score"
"""Offered only while a query is active: the order of its hits, best first."""
INTEREST_SORT = "interest"
"""The For-you order (store.interest.ranking): the unmarked papers most likely to be starred first."""
LEARNT_SORTS = (INTEREST_SORT, "suggested")
"""The sorts that follow an order learnt from the marks (`arrange`'s `interest`): For-you, and
suggested, the unmarked papers whose mark would teach the model most first."""


class Members(Protocol):
    """A set of papers' ids that says at once which of many ids are theirs: a list's look-up
    (store.papers.rows.ById), a query's hits (tui.viewing.Among)."""

    def __contains__(self, paper_id: object) -> bool: ...

    def among(self, paper_ids: Set[str]) -> set[str]: ...


class Tally:
    """How many of a set of papers each view shows, kept current as marks change.

    Built in one pass over the states (papers without marks count only as unread), so counting the
    matches of a query over 100,000 papers costs a set of their ids, not four tests per paper.
    `read` counts the papers marked read (the Unread view also leaves out dismissed ones).
    """

    def __init__(self, papers: Sequence[object], states: Mapping[str, Triage],
                 ids: Members | frozenset[str] | None = None) -> None:
        """`ids`: the papers' ids as they are at hand (a list's look-up, a query's hits tested by position: asked at once
        which of the marked papers are theirs, `Members`), else a set of them is made (a reopened list's from their
        column: store.papers.chunked). Only `len(papers)` is read when `ids` is given."""
        self.ids = frozenset(ids_of(papers)) if ids is None else ids  # type: ignore[arg-type]
        self.counts = {view: (len(papers) if _IN_VIEW[view](_NONE) else 0) for view in VIEWS}
        self.read = 0
        self.change({paper_id: (_NONE, state) for paper_id, state in states.items()})

    def change(self, changes: Mapping[str, tuple[Triage, Triage]]) -> None:
        """Count each paper of `changes` (paper id → its old state, its new one) that is one of the set with its new
        state instead of its old one (those of the set found at once: `Members`)."""
        ids = self.ids
        for paper_id in ids.intersection(changes) if isinstance(ids, frozenset) else ids.among(changes.keys()):
            old, new = changes[paper_id]
            for view, test in _IN_VIEW.items():
                self.counts[view] += test(new) - test(old)
            self.read += new.read - old.read


def next_sort(sort: str, querying: bool) -> str:
    """The sort after `sort` in the cycle; match score is skipped when no query is active."""
    names = [name for name in SORTS if querying or name != SCORE_SORT]
    return names[(names.index(sort) + 1) % len(names)] if sort in names else names[0]


def arrange(papers: Sequence[Paper], states: Mapping[str, Triage], view: str, sort: str, ranked: bool = False,
            interest: Mapping[str, int] | None = None, new: Container[str] = ()) -> Sequence[Paper]:
    """The papers `view` shows, in `sort` order; ties keep the order of `papers`.

    `papers` is in file order, or best first when `ranked` (the hits of a query): the score sort keeps
    that order, and is file order when there is no query. The learnt sorts follow `interest` (paper
    id → place in the learnt order), and keep the order of `papers` until there is one. The new sort puts the
    papers of `new` (`store.library.seen`) first. The All view in file order is `papers` themselves (a reopened
    list's are made as rows are drawn: store.papers.chunked).
    """
    shown = papers if view == "all" else in_view(papers, states, view)
    if sort in ("file", SCORE_SORT):
        return sorted(shown, key=lambda paper: paper.position) if ranked and sort == "file" else shown
    if sort in LEARNT_SORTS:
        return rerank(shown, 0, interest) if interest is not None else shown
    if sort == "new":
        return sorted(shown, key=lambda paper: paper.id not in new)
    if sort in _PAPER_KEYS:
        return sorted(shown, key=_PAPER_KEYS[sort])
    key = _SORT_KEYS[sort]
    return sorted(shown, key=lambda paper: key(states.get(paper.id, _NONE)))


def in_view(papers: Sequence[Paper], states: Mapping[str, Triage], view: str) -> list[Paper]:
    """The papers `view` shows, in their order. Only the marked papers (`states`) are tested: a paper
    without marks is in the view or not as every such paper is, so 100,000 papers are sifted by id at
    C speed (~10 ms), not tested one by one in Python."""
    test = _IN_VIEW[view]
    ids = map(attrgetter("id"), papers)
    if test(_NONE):  # (Unread) all but the marked papers the view leaves out
        left_out = {paper_id for paper_id, state in states.items() if not test(state)}
        return list(compress(papers, map(not_, map(left_out.__contains__, ids)))) if left_out else list(papers)
    kept = {paper_id for paper_id, state in states.items() if test(state)}
    return list(compress(papers, map(kept.__contains__, ids))) if kept else []


def rerank(rows: Sequence[Paper], start: int, interest: Mapping[str, int]) -> list[Paper]:
    """`rows` with those from `start` on put in the order of `interest` (paper id → place): a new
    For-you order applied below the paper being read, so nothing already passed moves."""
    last = len(interest)
    return [*rows[:start], *sorted(rows[start:], key=lambda paper: interest.get(paper.id, last))]


_SORT_KEYS: dict[str, Callable[[Triage], float]] = {
    "priority": lambda state: state.priority or 6,
    "starred": lambda state: not state.starred,
    "recent": lambda state: -state.updated,
}


def surname(name: str) -> str:
    """The family name of an author as a reader gives it: `Yoshua Bengio` and `Bengio, Yoshua` → `Bengio`."""
    name = name.strip()
    if "," in name:
        return name.split(",", 1)[0].strip()
    return name.rsplit(None, 1)[-1] if name else ""


_TRACKS = {"oral": 0, "spotlight": 1, "poster": 2}

_LAST = "\U0010ffff"
"""Sorts after every name: papers without the field sort last."""

_PAPER_KEYS: dict[str, Callable[[Paper], object]] = {
    # A title's leading LaTeX or markdown (`$\\alpha$TC-VAE`, `*`) does not file it under `$`.
    "title": lambda paper: paper.title.lstrip("$\\{*_ `'\"").casefold() or _LAST,
    "author": lambda paper: surname(paper.authors[0]).casefold() if paper.authors else _LAST,
    "year": lambda paper: -paper.year if paper.year else 0,
    "track": lambda paper: _TRACKS.get(paper.track, 3 if paper.track else 4),
    "session": slot_order,
}
"""The sorts by the papers' own fields (ties keep the order of the list): A to Z, newest first, orals first, a
plan of the days (by session time, then board)."""
