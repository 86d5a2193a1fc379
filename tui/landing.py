"""The whole list landing in place of its head, on the app's thread (tui.loading reads it behind the list).

`Landing` is what is worked out from all its papers beforehand, on the background thread; `Landed`, a mixin of the
open pipeline (`tui.loading.Loading`), swaps it in (`_land`: the rows, the counts, the cursor kept on its paper; the
marks of all attached on the writer thread), and says what follows: records skipped, the list not read whole, search
ready (`_indexed_now`), the open noted in the library (`_noted_now`: which papers are new, which arrived).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import NamedTuple

from store.library.seen import NOTHING, Opened
from store.marks.db import TriageStore
from store.papers.model import Collection, Triage
from store.papers.rows import ById
from store.readers import NOT_A_LIST, describe_skipped, match_cache
from store.readers.cache import pins
from store.search.views import Tally
from tui.saving import Saver
from tui.widgets.paper_list import PaperList, columns_for
from tui.widgets.status import StatusLine


class Landing(NamedTuple):
    """The whole list as it lands (`Landed._land`), with what is worked out from all its papers beforehand,
    on the background thread: passes over 100,000 papers the UI thread need not make (~50 ms)."""

    whole: Collection
    by_id: ById
    """Each paper by its id (the app's `papers_by_id` from now on, and the set of ids its tallies count in), through
    the list's ids column (its look-up made when first asked for: an open makes it once search is ready)."""
    columns: tuple[str, ...] | None
    """The columns the rows show (`columns_for`); None: the head's until they are worked out (an open's, once search
    is ready: ~0.2 s at 1,000,000 papers)."""
    new: frozenset[str]
    """The ids of its papers first seen since it was last opened (`store.library.seen`), when that is known."""
    arrived: frozenset[str]
    """The ids of its papers the database saw first now (what standing rules mark: tui.rules)."""

    @classmethod
    def of(cls, whole: Collection, opened: Opened = NOTHING, columns: bool = True) -> Landing:
        """`opened`: what the database found opening the list (`TriageStore.opened`); an open's is found once search
        is ready (`Loading._note_open`), and none of its papers is new until then. `columns`: whether its columns are
        worked out now (else after: `Landed.columns_now`)."""
        return cls(whole, ById.of(whole), columns_for(whole.papers) if columns else None, *opened)



class Landed:
    """The app's side of a whole list landing (see the module docstring); `tui.loading.Loading` is one."""

    collection: Collection
    store: TriageStore
    states: dict[str, Triage]
    papers_by_id: ById
    new_ids: frozenset[str]
    arrived: frozenset[str]
    _files: object
    _cursor_after_load: str | None
    _noted: threading.Event
    _all_marked: threading.Event
    _post: Callable[[Callable[[], object]], None]
    _said: str
    _saver: Saver
    _tallies: dict[str, Tally]
    _from_writer: Callable[[Callable[[], None]], None]
    refresh_rows: Callable[..., None]

    def _land(self, landing: Landing) -> None:
        """The whole list replaces its head: the same first papers, then the rest; marks of all attached."""
        whole = landing.whole
        if not self.is_running:  # type: ignore[attr-defined]
            return
        paper_list = self.query_one(PaperList)  # type: ignore[attr-defined]
        current = paper_list.current
        keep = current.id if current is not None else None
        if self._cursor_after_load is not None and paper_list.cursor == 0:  # not moved since the start
            keep = self._cursor_after_load
        self._cursor_after_load = None
        c = self.collection
        if list(whole.sources) != list(c.sources):  # (the head was the first list's: the watcher looks at them all now)
            self.watched(pins(whole.sources))  # type: ignore[attr-defined]
        c.papers = whole.papers  # (who holds the list holds the collection: the interest model sees it whole)
        c.header, c.venue, c.year, c.sources, c.warnings = whole.header, whole.venue, whole.year, whole.sources, whole.warnings
        c.origin, c.ids = whole.origin, whole.ids  # (what its index entry is found by; its ids column)
        self.papers_by_id = landing.by_id
        self.__dict__.pop("citation_keys", None)  # made again from all papers
        self._files = None
        self.new_ids = landing.new
        self.arrived = self.arrived | landing.arrived
        self._tallies["all"] = Tally(c.papers, self.states, landing.by_id)
        if landing.columns is not None:
            paper_list.columns = landing.columns
        self.refresh_rows(keep=keep)
        self._all_marked.clear()  # (searches wait for them: tui.loading)
        self._saver.refresh(lambda: self._attached(landing.by_id, refind=False))  # with the writes, in turn: then shown
        self._saver.run(self._post, self._all_marked.set)  # (after them, in turn)
        self._saver.refresh(lambda: self._attached(landing.by_id, refind=True))  # (lost marks re-found: not waited for)
        self.tell_skipped()
        self.mark_arrivals()  # type: ignore[attr-defined]

    def columns_now(self, papers: object, columns: tuple[str, ...]) -> None:
        """The columns worked out of the whole list, `papers`, after it landed (`Landing.columns`), unless another
        list is shown by then (a reload's landing brought its own)."""
        paper_list = self.query_one(PaperList)  # type: ignore[attr-defined]
        if self.collection.papers is papers and paper_list.columns != columns:
            paper_list.columns = columns
            paper_list.redraw()

    def _attached(self, papers: ById, refind: bool) -> Mapping[str, Triage]:
        """The marks of the whole list (`TriageStore.attach`, on the writer thread); its later versions of marked
        papers (`is:updated`) are shown when it is done. Given up at quit (seconds at a million papers, and the marks
        made meanwhile wait behind it): the next open attaches again. Those of its papers first (what searches wait
        for), then, with `refind`, again with the marks whose papers are not in it looked for among its papers
        (`store.marks.refind`: at 1,000,000 papers ~6 s each time the marks of other lists changed, which a search
        waited for, at most `tui.loading.MARKS_WITHIN`; a mark found so is shown once it is)."""
        states = self.store.attach(papers, refind=refind, stop=self._saver.closing, **match_cache.attaching(self.collection))
        self._from_writer(self._show_updated)
        return states

    def _show_updated(self) -> None:
        paper_list = self.query_one(PaperList)  # type: ignore[attr-defined]
        if paper_list.updated != self.store.updated:
            paper_list.updated = self.store.updated
            paper_list.redraw()

    def tell_skipped(self) -> None:
        """The records the lists' reading skipped, in one notice (none when none was)."""
        if self.collection.warnings:
            skipped = not all(warning.endswith(NOT_A_LIST) for warning in self.collection.warnings)
            self.notify(describe_skipped(self.collection.warnings), title="Some records were skipped" if skipped else "Is this a list?",  # type: ignore[attr-defined]
                        severity="warning", timeout=12, markup=False)

    def _not_read(self, error: str) -> None:
        self._say("")
        self.notify(f"Only the first papers are shown: {error}", title="The list could not be read whole",  # type: ignore[attr-defined]
                    severity="error", timeout=30, markup=False)

    def _noted_now(self, opened: Opened) -> None:
        """The open is noted (`_note_open`): the new papers are counted in the header and sorted first by the new sort,
        and the standing rules mark those that arrived. New this session stays new: papers `F` fetched or a reload
        found before the noting are kept new (tests/test_fetch_terminal.py's `F` lost their `+` when it came after)."""
        self.new_ids = self.new_ids | opened.new
        self.arrived = self.arrived | opened.arrived
        self._noted.set()
        if opened.new:
            self.refresh_rows(keep=self._current_id())  # type: ignore[attr-defined]
        self.mark_arrivals()  # type: ignore[attr-defined]

    def _indexed_now(self, note: str | None) -> None:
        """Search is ready: the header says so, or what it could not do (an index not kept, or made again). A fetch or
        reload begun before (`F` on a short list reopened) keeps its line, which it clears itself."""
        if not self._reloading:  # type: ignore[attr-defined]
            self._say("")
        if note:
            self.query_one(StatusLine).show_notice(note)  # type: ignore[attr-defined]

    def _say(self, text: str) -> None:
        """Show `text` in the header: an update only when it changes (each one lays the header out again)."""
        if text != self._said:
            self._said = text
            self.query_one(StatusLine).show_loading(text)  # type: ignore[attr-defined]
