"""The filter: the query typed in the filter bar, searched off the UI thread, the newest query winning.

Owns the search of each keystroke's query (`_search`, cancelled by the next; the index is tui.loading's)
and showing its results (`_show_hits`), what the query `matched`, the keys `/` and `enter` in and out
of the filter bar, and `esc` on the list clearing it. `FilterActions` is a mixin
of `TriageApp`, which owns the state it reads (the hits, the serial numbers of the queries).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, overload

from textual import work
from textual.worker import get_current_worker

from store.papers.chunked import ids_at
from store.papers.model import Collection, Paper, Triage
from store.papers.rows import ById
from store.search.highlight import Hits
from store.search.query import parse
from store.search.views import SCORE_SORT, Tally
from tui.interest import Similar
from tui.typeahead import TypeAhead
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    import numpy as np

    from store.search.engine import Engine
    from store.search.engine.engine import Glance
    from store.marks.db import TriageStore
    from tui.selection import Selection


GLANCE_FROM = 200_000
"""From this many papers, a query's first screen of hits is shown before all are read (`Engine.glance`: ~0.05 s where
all its hits take ~0.4 s at 1,000,000 papers; ~0.04 s in all at 100,000)."""
GLANCE_ROWS = 200
"""The hits a glance shows: more than a screen's rows."""
PAINT_WITHIN = 0.5
"""The longest the rest of a query's hits wait for its glance to be painted."""


class HitPapers(Sequence[Paper]):
    """A query's matching papers, best first: the papers at `positions` of the list's papers, each looked up when asked
    for (a row drawn, the paper under the cursor); `ids` theirs, from the list's ids column when it keeps one (a
    reopened list's papers are made as they are asked for: store.papers.chunked)."""

    def __init__(self, papers: Sequence[Paper], positions: np.ndarray) -> None:
        self._papers = papers
        self._positions = positions

    def __len__(self) -> int:
        return len(self._positions)

    @overload
    def __getitem__(self, k: int) -> Paper: ...

    @overload
    def __getitem__(self, k: slice) -> list[Paper]: ...

    def __getitem__(self, k: int | slice) -> Paper | list[Paper]:
        if isinstance(k, slice):
            return list(map(self._papers.__getitem__, self._positions[k].tolist()))
        return self._papers[int(self._positions[k])]

    def __iter__(self) -> Iterator[Paper]:
        return map(self._papers.__getitem__, self._positions.tolist())

    @property
    def ids(self) -> list[str]:
        return ids_at(self._papers, self._positions)


class FilterActions:
    """`/`, `enter` and `esc` (see TriageApp's key table), and the filter bar's messages."""

    collection: Collection
    states: dict[str, Triage]
    new_ids: frozenset[str]
    store: TriageStore
    sort: str
    _index: Engine | None
    _search_index: Callable[[], Engine]
    _indexed: threading.Event
    _all_marked: threading.Event
    wait_for_new: Callable[[], None]
    _hits: Hits | None
    _hit_papers: Sequence[Paper]
    _search_serial: int
    _searched: str
    _shown_serial: int
    _restore_cursor: str | None
    papers_by_id: ById
    _similar: Similar | None
    _type_ahead: TypeAhead
    selection: Selection
    _esc_clears = False
    """Whether the footer was last told that `esc` clears the filter (see `follow_esc`)."""

    def matched(self) -> tuple[Sequence[Paper], bool]:
        """The papers the query matches (all of them without a query; the similar ones in "more like this"),
        and whether they are ranked best first."""
        if self._similar is not None:
            return self._similar.papers, True
        return (self._hit_papers, True) if self._hits is not None else (self.collection.papers, False)

    def _results_pending(self) -> bool:
        """Whether the list does not show the results of the query as typed so far yet."""
        return self.query_one(FilterBar).input.value != self._searched or self._shown_serial != self._search_serial

    def queries_answered(self) -> bool:
        """Whether the list shows the results of the query as typed, and no key typed waits for them (tui.typeahead)."""
        return not self._results_pending() and not self._type_ahead.holding

    def on_filter_bar_changed(self, message: FilterBar.Changed) -> None:
        if self._index is None:
            message.filter_bar.show_indexing()
        self._search_serial += 1
        self._searched = message.value
        self._search(message.value, self._search_serial, self._states_now())

    def search_again(self) -> None:
        """Search the query typed again (the index is another now), the cursor staying on its paper."""
        self._restore_cursor = self._restore_cursor or self._current_id()
        self._search_serial += 1
        self._search(self._searched, self._search_serial, self._states_now())

    def on_filter_bar_done(self, message: FilterBar.Done) -> None:
        self.query_one(PaperList).focus()

    def _states_now(self) -> dict[str, Triage] | None:
        """The marks a search typed now is searched with (those of all the papers), or None while they are not all
        shown yet (the index not open, a landed list's not attached: the search takes them once they are)."""
        return dict(self.states) if self._indexed.is_set() and self._all_marked.is_set() else None

    @work(thread=True, exclusive=True, group="search")
    def _search(self, text: str, serial: int, states: dict[str, Triage] | None) -> None:
        """Search on a worker thread (typing never waits); a newer keystroke cancels this one. On a long list the first
        screen of hits is shown first (`_show_glance`)."""
        index = self._search_index()
        if get_current_worker().is_cancelled:  # (keys typed during the open, searched at once: only the newest is)
            return
        if states is None:  # (the marks as they are now: all of them once a long list's are attached)
            states = self.call_from_thread(lambda: dict(self.states))
        query = parse(text)
        if query.asks_new:
            self.wait_for_new()
        if len(self.collection.papers) >= GLANCE_FROM and query.filters:
            glance = index.glance(text, states, self.new_ids, self.store.updated, GLANCE_ROWS)
            if get_current_worker().is_cancelled:
                return
            painted = threading.Event()  # (the rest read once it is on screen: not beside its painting, ~0.3 s later)
            self.call_from_thread(self._show_glance, glance, serial, painted)
            painted.wait(PAINT_WITHIN)
        hits = index.search(text, states, self.new_ids, self.store.updated)
        papers = self._papers_of(hits)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show_hits, hits, serial, papers)

    def _papers_of(self, hits: Hits) -> HitPapers:
        """`hits.papers` (the matching papers, best first) as a sequence taken from the collection's papers as rows are
        asked for: a keystroke matching 100,000 papers makes no list of them."""
        return HitPapers(self.collection.papers, hits.positions)

    def hits_among(self, hits: Hits | None, papers: Sequence[Paper]) -> None:
        """The query's `hits` (None: no query) searched among `papers`, the list about to be shown in place of
        the one shown (tui.watching): what the rows show once it is."""
        if hits is not None:
            self._hits, self._hit_papers = hits, HitPapers(papers, hits.positions)

    def _show_glance(self, glance: Glance, serial: int, painted: threading.Event) -> None:
        """Show the first hits of query number `serial` (a long list's: `Engine.glance`) while the rest are read, when
        the list shows them best first, in the All view: the rows a screen shows, the count of all, and the tabs' and
        the header's counts (which of the marked papers match is known). The keys typed after the query still wait for
        all its hits (the cursor moves over them: `queries_answered`). `painted` is set once they are on screen."""
        hits = glance.hits
        if serial != self._search_serial or not hits.query.filters or self._similar is not None or self.view != "all" \
                or not (self.sort == SCORE_SORT or (self.sort == "file" and self._hits is None)):
            painted.set()
            return
        self.call_after_refresh(painted.set)
        self.set_reactive(type(self).sort, SCORE_SORT)
        self._hits, self._hit_papers = hits, HitPapers(self.collection.papers, hits.positions)
        marked = frozenset(map(self.papers_by_id.ids.__getitem__, glance.marked))
        self._glanced = (hits, Tally(range(glance.total), self.states, marked))
        self.refresh_rows(keep=self._restore_cursor)  # (the cursor restored by all the hits, when it is not among these)
        self.query_one(FilterBar).show_result(glance.total, len(self.collection.papers), hits.query.hint)

    def _show_hits(self, hits: Hits, serial: int, papers: Sequence[Paper]) -> None:
        """Show the results of query number `serial` (the matching `papers`, best first: `hits.papers`),
        unless a newer query was typed meanwhile."""
        if serial != self._search_serial:
            return
        self._glanced = None
        filtered = hits.query.filters
        if filtered and self._hits is None and self.sort == "file":
            self.set_reactive(type(self).sort, SCORE_SORT)  # a new query shows the best matches first
        self._hits = hits if filtered else None
        self._hit_papers = papers if filtered else []
        keep, self._restore_cursor = self._restore_cursor, None
        self.refresh_rows(keep=keep or (None if filtered else self._current_id()))
        self.query_one(FilterBar).show_result(len(hits), len(self.collection.papers), hits.query.hint)
        self._session_changed()
        self._shown_serial = serial
        self._type_ahead.resume()  # the keys typed after the query apply to its results, now shown

    def action_leave_filter(self) -> None:
        """`enter` in the filter: the list takes the focus now, not after the queued keys."""
        self.screen.set_focus(self.query_one(PaperList))

    def esc_clears_filter(self) -> bool:
        """Whether `esc` on the list clears the filter: the list is filtered, and esc has nothing before it
        to undo (more like this, a selection: see TriageApp's escape bindings, in that order)."""
        return self._hits is not None and self._similar is None and not self.selection

    def follow_esc(self) -> None:
        """The footer offers `esc` "Clear filter" once it does that, and not when it no longer does
        (the footer is made again only then, not at each key)."""
        clears = self.esc_clears_filter()
        if clears != self._esc_clears:
            self._esc_clears = clears
            self.refresh_bindings()

    def action_clear_query(self) -> None:
        """`esc` on the list with a query: the filter cleared, the cursor staying on its paper."""
        self.query_one(FilterBar).value = ""

    def action_focus_filter(self) -> None:
        self.action_leave_similar()
        self.query_one(FilterBar).focus_input()
