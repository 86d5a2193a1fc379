"""What the list shows, and the session that brings it back: the matched papers the view shows, in the
sort's order (`refresh_rows`), the counts of the tabs and the header (`_show_counts`), the keys `v`
and `S` (and the palette's views and sorts), and the session (paper under the cursor, query, view, sort,
split) saved `SESSION_SECONDS` after it last changed. `ViewActions` is a mixin of `TriageApp`, which
owns the `view` and `sort` reactives and the state read here.
"""
from __future__ import annotations

from collections.abc import Mapping, Set
from typing import TYPE_CHECKING, Any

from textual.timer import Timer

from store.papers.model import Paper, Triage
from store.papers.rows import ById
from store.marks.db import TriageStore
from store.search.highlight import Hit, Hits
from store.papers.text import title_display
from store.search.views import LEARNT_SORTS, SCORE_SORT, SORTS, VIEWS, Tally, arrange, next_sort
from tui.interest import Similar, shortly
from tui.layout import Split
from tui.saving import Saver
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList
from tui.widgets.status import StatusLine
from tui.widgets.view_tabs import ViewTabs

if TYPE_CHECKING:
    import numpy as np

    from store.interest.ranking import Ranking

SESSION_SECONDS = 1.0
"""The session (paper under the cursor, query, view, sort) is saved this long after it last changed, and at exit."""


class Among:
    """The ids of some of the collection's papers, given by their positions (a query's hits): a test is a
    look-up in a mask over the collection, and making one costs no set of 100,000 ids (`store.search.views.Members`)."""

    def __init__(self, positions: np.ndarray, by_id: ById) -> None:
        import numpy as np  # (here: the search has loaded it; the first frame need not wait for it)

        self._mask = np.zeros(len(by_id), dtype=bool)
        self._mask[positions] = True
        self._by_id = by_id

    def __contains__(self, paper_id: object) -> bool:
        row = self._by_id.row(paper_id)
        return row is not None and bool(self._mask[row])

    def among(self, paper_ids: Set[str]) -> set[str]:
        """Those of `paper_ids` that are among these (found in one look through the list's ids while its look-up is not
        made: a query shown at once after a long list's open does not wait for it)."""
        ids, mask = self._by_id.ids, self._mask
        return {ids[row] for row in self._by_id.rows(paper_ids) if mask[row]}


class ViewActions:
    """`v` and `S` (see TriageApp's key table), the view tabs, the rows and counts shown, the session."""

    view: str
    sort: str
    states: dict[str, Triage]
    new_ids: frozenset[str]
    store: TriageStore
    _saver: Saver
    _hits: Hits | None
    _glanced: tuple[Hits, Tally] | None
    _tallies: dict[str, Tally]
    _ranking: Ranking | None
    _similar: Similar | None
    _split: Split
    _session_key: str
    _session_timer: Timer | None
    _session: dict[str, Any]
    papers_by_id: ById

    def _hit_of(self, paper: Paper) -> Hit | None:
        """What the query shown matched in `paper` (None without a query, or when it does not match it)."""
        return self._hits.of(paper) if self._hits is not None else None

    def _current_id(self) -> str | None:
        current = self.query_one(PaperList).current
        return current.id if current is not None else None

    def refresh_rows(self, keep: str | None = None, rows: list[Paper] | None = None) -> None:
        """Show the matched papers that the view shows, in the sort's order; the cursor goes to paper `keep`
        when it is shown, else to the top. `rows`: the same rows in a new order, the cursor staying put."""
        matched, ranked = self.matched()
        if self.sort == SCORE_SORT and not ranked:
            self.set_reactive(type(self).sort, "file")
        sort = SCORE_SORT if self._similar is not None else self.sort  # more like this: most similar first
        hits = self._hits
        if rows is not None:
            papers = rows
        elif hits is not None and self._similar is None and self.view == "all" and sort == SCORE_SORT:
            papers = matched  # the hits as they are (`arrange` would copy them: 100,000 papers a keystroke)
        else:
            papers = arrange(matched, self.states, self.view, sort, ranked, self._learnt(), self.new_ids)
        # A row marks what the query matched in its own paper, looked up by the paper (never by the row's
        # place: "more like this" and the other sorts show the hits at other places than the query's).
        title_spans = None if hits is None else (
            lambda row: (hit.spans(title_display(paper.title).plain) if (hit := hits.of(paper := papers[row])) else ()))
        paper_list = self.query_one(PaperList)
        if rows is not None:
            paper_list.reorder(papers, title_spans)
            return
        paper_list.set_papers(papers, keep=keep, title_spans=title_spans)
        # Without a query the matched papers are all of them, and the All view shows all matched: one
        # Tally then serves two or three roles (100,000 papers cost ~30 ms to count afresh).
        if self._glanced is not None and self._glanced[0] is hits and self._similar is None:  # (a query's first hits alone)
            self._tallies["matched"] = self._glanced[1]
        elif hits is not None and self._similar is None:  # ids tested by position, not a set of 100,000 made per key
            self._tallies["matched"] = Tally(matched, self.states, Among(hits.positions, self.papers_by_id))
        else:
            self._tallies["matched"] = Tally(matched, self.states) if ranked else self._tallies["all"]
        self._tallies["shown"] = self._tallies["matched"] if self.view == "all" else Tally(papers, self.states)
        self._show_counts()

    def _show_counts(self) -> None:
        tabs = self.query_one(ViewTabs)
        tabs.view, tabs.sort = self.view, self.sort
        if self._similar is not None:
            tabs.note = f"more like {shortly(self._similar.of)} · esc back"
        elif self.sort in LEARNT_SORTS and self._ranking is None:
            from store.interest.ranking import TOO_FEW

            tabs.note = f"sorted by {SORTS[self.sort]} · {TOO_FEW}"
        else:
            tabs.note = ""
        shown, every = self._tallies["shown"].counts, self._tallies["all"].counts
        tabs.set_counts(self._tallies["matched"].counts, every["all"])
        self.query_one(StatusLine).show(
            shown=shown["all"], total=every["all"], like=shortly(self._similar.of) if self._similar else "",
            unread=shown["unread"], starred=shown["starred"],
            prioritised=shown["prioritised"], read=self._tallies["all"].read,
            selected=len(self.selection), visual=self.selection.anchor is not None, new=len(self.new_ids),
        )
        self.follow_esc()

    def watch_view(self) -> None:
        self.refresh_rows(keep=self._current_id())
        self._session_changed()

    def watch_sort(self) -> None:
        self.refresh_rows(keep=self._current_id())
        self._session_changed()

    def on_view_tabs_selected(self, message: ViewTabs.Selected) -> None:
        self.view = message.view

    def action_cycle_view(self) -> None:
        views = list(VIEWS)
        self.view = views[(views.index(self.view) + 1) % len(views)]

    def action_cycle_sort(self) -> None:
        self.sort = next_sort(self.sort, querying=self.matched()[1])

    def action_view(self, view: str) -> None:
        self.view = view

    def action_sort(self, sort: str) -> None:
        self.sort = sort

    def _session_changed(self) -> None:
        """Note what should come back on the next start with the same source files; save it soon."""
        self._session = {
            "cursor": self._current_id(), "query": self.query_one(FilterBar).value, "view": self.view, "sort": self.sort,
            **self._split.saved(),
        }
        if self._session_timer is not None:
            self._session_timer.stop()
        self._session_timer = self.set_timer(SESSION_SECONDS, self._save_session)

    def _save_session(self) -> None:
        if self._session_timer is not None:
            self._session_timer.stop()
            self._session_timer = None
        if self._session:
            self._saver.run(self.store.put_setting, self._session_key, self._session)
