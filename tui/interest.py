"""The app's side of "what to read next": the collection's interest model (`tui.for_you.Interest`, made when
first needed) asked from worker threads, and its answers worded: `explain` and `shortly` word a ranking for the
detail pane and the tab bar.

`InterestActions`, a mixin of `TriageApp` (which owns the state it reads), shows them: the ranking of
the marks, made off the UI thread after each change (the rows' buckets, the learnt sorts' order, the
detail's reasons), and `m`, "more like this", with esc back to the list it was opened from.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.worker import get_current_worker

from store.common.errors import Locked, ReadError
from store.papers.model import Paper, Triage
from store.papers.rows import ById
from store.search.views import INTEREST_SORT, LEARNT_SORTS, rerank
from tui.for_you import Interest
from tui.widgets.detail import DetailPane
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList

if TYPE_CHECKING:  # (numpy: imported with the first ranking, on its worker's thread)
    from store.interest.ranking import Ranking

LOCKED_RETRY = 1.0
"""Seconds between tries of a ranking whose first look at the other lists' marks met the database locked past the
store's wait (another process holding it: a stopped `triage set`)."""


@dataclass(frozen=True, slots=True)
class Similar:
    """A "more like this" list: the papers most like `of`, best first, and the paper the list it was
    opened from had under its cursor (`back`: where esc returns)."""

    SIZE: ClassVar[int] = 30
    of: Paper
    papers: list[Paper]
    back: str


@dataclass(frozen=True, slots=True)
class Reordered:
    """The rows shown in a sort, the cursor's row among them, and `rows`: them in a new learnt order below it."""

    sort: str
    shown: Sequence[Paper]
    cursor: int
    rows: list[Paper]

    def of(self, sort: str, shown: Sequence[Paper], cursor: int) -> bool:
        """Whether it was made of these very rows, in this sort, with the cursor on this row."""
        return sort == self.sort and shown is self.shown and cursor == self.cursor


def explain(ranking: Ranking | None, paper: Paper, marked: bool, papers: Mapping[str, Paper],
            others: Mapping[str, Paper] | None = None) -> str:
    """What the detail pane says of a paper and the For-you order: the bucket of an unmarked paper, the
    terms of it that weigh most for and against a star, and the starred papers it is closest to (one of
    another list, `others`, named with its venue: "like ‹title› · ICLR 2024")."""
    others = others or {}
    if ranking is None:
        from store.interest.ranking import TOO_FEW

        return f"For you: {TOO_FEW}"
    why = ranking.why(paper.id)
    lines = [f"For you: {'marked (the model learns from it)' if marked else ranking.bucket(paper.id).label}"]
    if why.terms_for:
        lines.append("  for: " + ", ".join(why.terms_for))
    if why.terms_against:
        lines.append("  against: " + ", ".join(why.terms_against))
    closest = [shortly(papers[pid]) if pid in papers else f"{shortly(others[pid])} · {others[pid].venue or 'another list'}"
               for pid in why.closest_starred if pid in papers or pid in others]
    if closest:
        lines.append("  close to: " + "; ".join(closest))
    return "\n".join(lines)


def shortly(paper: Paper) -> str:
    """A paper named in a few words: its method's name, else its title cut at a word."""
    if paper.name:
        return paper.name
    if len(paper.title) <= 40:
        return paper.title
    return paper.title[:40].rsplit(" ", 1)[0] + "…"


class InterestActions:
    """`m` and esc back from it (see TriageApp's key table), and the For-you ranking shown."""

    sort: str
    papers_by_id: ById
    _interest: Interest
    _ranking: Ranking | None
    _similar: Similar | None
    tell_unavailable: Callable[[ReadError], None]

    @work(thread=True, exclusive=True, group="interest")
    def _rank(self, states: dict[str, Triage]) -> None:
        """Rank the marks off the UI thread (a key never waits for it); a newer mark's ranking wins. The rows below
        the cursor are put in the new order here too, as they are now (`Reordered`): the UI thread takes them
        unless the rows or the cursor changed meanwhile (100,000 rows: 0.4 s it would otherwise spend)."""
        with self._interest.ranking():
            self._ranked(states)

    def _ranked(self, states: dict[str, Triage]) -> None:
        while True:
            try:
                ranking = self._interest.rank(states)
                break
            except ReadError as exc:  # (a text the features need, of a reopened list gone since its cache was damaged)
                self.call_from_thread(self.tell_unavailable, exc)
                return
            except Locked:  # (the other lists' marks, read at the first ranking, behind another process's lock)
                if get_current_worker().is_cancelled or not self.is_running:
                    return  # (a newer mark's ranking tries again; a quit ends the wait)
                time.sleep(LOCKED_RETRY)
        if get_current_worker().is_cancelled:
            return
        if ranking is not None:
            ranking.prepare()  # (here: the UI thread asks `why` and `bucket` of a paper at a time)
        reordered = None
        now = self.call_from_thread(self._rows_now)
        if now is None:  # (the app is closing)
            return
        sort, rows, cursor = now
        if ranking is not None and sort in LEARNT_SORTS and rows is not None:
            learnt = ranking.places if sort == INTEREST_SORT else ranking.suggested_places
            reordered = Reordered(sort, rows, cursor, rerank(rows, cursor + 1, learnt))
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show_ranking, ranking, reordered)

    def _rows_now(self) -> tuple[str, Sequence[Paper] | None, int] | None:
        """The sort, and the rows shown and the cursor's row (None: "more like this" is shown); None once the app is
        closing (a ranking that ends as the screen's widgets go: tests/test_foryou_app.py failed so in CI; the app stops
        running before its first widget goes, and its list is there from its first frame on)."""
        if not self.is_running:
            return None
        paper_list = self.query_one(PaperList)
        return self.sort, paper_list.papers if self._similar is None else None, paper_list.cursor

    def _show_state(self, paper_id: str) -> None:
        """The detail pane's marks of a paper, with why the For-you order puts it where it is."""
        self.query_one(DetailPane).show_state(*self._marks_shown(paper_id))

    def _marks_shown(self, paper_id: str) -> tuple[Triage, str]:
        """A paper's marks and why the For-you order puts it where it is ('' when it follows none)."""
        state = self.state_of(paper_id)
        shown = self.sort in LEARNT_SORTS or self._ranking is not None
        why = (explain(self._ranking, self.papers_by_id[paper_id], not state.blank, self.papers_by_id, self._interest.outside)
               if shown else "")
        return state, why

    def _show_ranking(self, ranking: Ranking | None, reordered: Reordered | None = None) -> None:
        """A new For-you ranking: the rows' buckets and the detail's reasons now. In a learnt sort the
        first ranking orders the whole list (it showed file order while there was none); a later one
        orders only the rows below the cursor, so nothing already passed moves (`reordered`: those rows in the new
        order, made by the worker, when they and the cursor are still the same)."""
        if not self.is_running or (ranking is None and self._ranking is None):  # closing (`_rows_now`); too few stars
            return
        first, self._ranking = self._ranking is None, ranking
        paper_list = self.query_one(PaperList)
        # A row's bucket only where it explains the order: in the For-you sort.
        paper_list.buckets = (lambda paper_id: ranking.bucket(paper_id).glyph if self.sort == INTEREST_SORT
                              and self._similar is None else " ") if ranking is not None else None
        learnt = self._learnt()
        if learnt is not None and self._similar is None:
            if first:
                self.refresh_rows(keep=self._current_id())
            elif reordered is not None and reordered.of(self.sort, paper_list.papers, paper_list.cursor):
                self.refresh_rows(rows=reordered.rows)
            else:
                self.refresh_rows(rows=rerank(paper_list.papers, paper_list.cursor + 1, learnt))
        elif self.sort == INTEREST_SORT:  # its rows' buckets changed (in another sort no row shows one)
            paper_list.redraw()
        self._show_counts()
        if paper_list.current is not None:
            self._show_state(paper_list.current.id)

    def _learnt(self) -> Mapping[str, int] | None:
        """The learnt order the sort follows (paper id → place), None when it follows none or none yet."""
        if self._ranking is None or self.sort not in LEARNT_SORTS:
            return None
        return self._ranking.places if self.sort == INTEREST_SORT else self._ranking.suggested_places

    @work(thread=True, exclusive=True, group="similar")
    def action_more_like_this(self) -> None:
        """Show the papers most like the one under the cursor, best first, as a list to triage; esc goes back."""
        paper = self.query_one(PaperList).current
        if paper is not None:
            try:
                similar = [self.papers_by_id[pid] for pid in self._interest.similar(paper.id, Similar.SIZE)]
            except ReadError as exc:  # (as in `_rank`)
                self.call_from_thread(self.tell_unavailable, exc)
                return
            except Locked as exc:  # (as in `_rank`: said, not waited for, as a mark that waits is)
                self.call_from_thread(self.notify, f"More like this not shown yet: {exc}", title="Triage database",
                                      severity="warning", timeout=10, markup=False)
                return
            self.call_from_thread(self._show_similar, paper, similar)

    def _show_similar(self, paper: Paper, similar: list[Paper]) -> None:
        back = self._similar.back if self._similar is not None else paper.id
        self._similar = Similar(paper, similar, back)
        self.query_one(FilterBar).set_aside(True)
        self.refresh_rows()

    def action_leave_similar(self) -> None:
        """Back from "more like this" to the list it was opened from, on the paper it was opened on."""
        if self._similar is not None:
            back, self._similar = self._similar.back, None
            self.query_one(FilterBar).set_aside(False)
            self.refresh_rows(keep=back)
