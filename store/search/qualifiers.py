"""The qualifiers of a query: which papers `is:` (`is:new` and `is:updated` too), `p:`, `has:`, `tag:`, `venue:`, `year:`, `area:`,
`track:`, `session:` and `announce:` hold for.

`Facets` works out once per index (when first asked) the papers with a code link or any link and the papers of each
venue, year, area, track, conference slot and arXiv announce type (`store.papers.slots`); `Facets.holding` answers a qualifier from them, or, for the triage
qualifiers, from the states of the moment (`state_test`: the test on one paper's `Triage`).
"""
from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING

from store.papers.model import Paper, Triage
from store.papers.slots import announced, slot_words
from store.search.query import Qualifier
from store.search.views import to_read

if TYPE_CHECKING:  # (numpy is imported by the facets' work, not with `CODE_HOSTS`: the app's first frame has no use for it)
    import numpy as np

NEW = "new"
"""`is:new`: the papers the caller of a search names new (`Engine.search`'s `new`): first seen since the list
was last opened (`store.library.seen`), and in the app those `F` fetched this session (tui.feeding)."""
UPDATED = "updated"
"""`is:updated`: the marked papers the caller names a later version than the one kept (`store.library.identity.later`)."""
CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sr.ht")
"""Hosts whose links count as a code link for `has:code`."""


class Facets:
    """What the qualifiers look at in the papers of an index, in file order (`position`: paper id → row).
    Worked out from the papers when first asked (`ready`: a Python pass over all of them, 0.2 s at 100,000,
    which an index loaded from the cache need not spend before its first search)."""

    def __init__(self, papers: list[Paper], position: Mapping[str, int]) -> None:
        self._papers = papers
        self._size = len(papers)
        self._position = position
        self._lock = threading.Lock()
        self._made = False

    def ready(self) -> None:
        """Work out now what the qualifiers look at (any thread may: once)."""
        with self._lock:
            if self._made:
                return
            import numpy as np

            papers = self._papers
            self._code = np.fromiter((any(h in link for link in p.links for h in CODE_HOSTS) for p in papers), bool, len(papers))
            self._linked = np.fromiter((bool(p.links) for p in papers), bool, len(papers))
            self._venues = _grouped(f"{p.venue} {p.track}".strip().casefold() for p in papers)  # venue:oral too
            self._years = _grouped(p.year for p in papers)
            self._areas = _grouped(p.area.casefold() for p in papers)
            self._tracks = _grouped(p.track for p in papers)
            self._slots = _grouped(slot_words(p) if p.fields else "" for p in papers)
            self._announced = _grouped(announced(p) if p.fields else "" for p in papers)
            self._made = True

    def holding(self, q: Qualifier, states: Mapping[str, Triage], named: Mapping[str, Collection[str]] | None = None) -> np.ndarray:
        """Papers a qualifier holds for (before its own negation is applied by the caller); `named`: the ids of
        the papers `is:new` (`NEW`) and `is:updated` (`UPDATED`) hold for, given by the caller."""
        if q.field in ("has", "venue", "year", "area", "track", "session", "announce"):
            self.ready()
        if q.field == "has" and q.value in ("code", "link"):
            return (self._code if q.value == "code" else self._linked).copy()
        import numpy as np

        found = np.zeros(self._size, dtype=bool)
        if q.field in ("venue", "year", "area", "track", "session", "announce"):
            holds = (compare(q.op, int(q.value)) if q.field == "year" else (lambda v: v == q.value) if q.field == "announce"
                     else (lambda v: str(q.value) in v))
            grouped = {"venue": self._venues, "year": self._years, "area": self._areas, "track": self._tracks,
                       "session": self._slots, "announce": self._announced}[q.field]
            for value, docs in grouped.items():
                if value is not None and holds(value):
                    found[docs] = True
            return found
        if q.field == "is" and q.value in (NEW, UPDATED):
            ids = (named or {}).get(str(q.value), ())
            found[np.fromiter((self._position[pid] for pid in ids if pid in self._position), np.intp)] = True
            return found
        state = state_test(q)
        default = state(Triage())  # untouched papers qualify too (is:unread, p:0)
        if default:
            found[:] = True
        for pid, triage in states.items():
            if pid in self._position:
                found[self._position[pid]] = state(triage)
        return found


def compare(op: str, value: int) -> Callable[[int], bool]:
    return {
        ":": lambda x: x == value, "<": lambda x: x < value, "<=": lambda x: x <= value,
        ">": lambda x: x > value, ">=": lambda x: x >= value,
    }[op]


def state_test(q: Qualifier) -> Callable[[Triage], bool]:
    """The test an is:/p:/has:note/has:tag/tag: qualifier applies to one paper's `Triage`."""
    if q.field == "is":
        return {
            "read": lambda t: t.read, "unread": to_read, "starred": lambda t: t.starred,
            "dismissed": lambda t: t.dismissed,
        }[str(q.value)]
    if q.field == "has":
        return (lambda t: bool(t.note.strip())) if q.value == "note" else (lambda t: bool(t.tags))
    if q.field == "tag":
        name = str(q.value)
        return lambda t: any(tag.casefold() == name for tag in t.tags)
    priority = compare(q.op, int(q.value))
    if q.op == ":":
        return lambda t: priority(t.priority)
    return lambda t: t.priority > 0 and priority(t.priority)  # p<=2 means set and at most 2


def _grouped(values: Iterable[object]) -> dict[object, np.ndarray]:
    """value → the indices where it occurs."""
    import numpy as np

    where: defaultdict[object, list[int]] = defaultdict(list)
    for i, value in enumerate(values):
        where[value].append(i)
    return {value: np.array(indices, dtype=np.intp) for value, indices in where.items()}
