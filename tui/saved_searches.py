"""The app's saved searches: `M` saves the query shown under a name and a letter, `'` opens the picker
(with each search's count; its letter runs it), and the palette's "Search: NAME (QUERY)" and "Forget
saved search: NAME". A mixin of `TriageApp`; `store.marks.saved` owns the stored document.

The searches shown are this window's: a save or forget shows at once, is written on the writer thread
(merged under the lock with what another window saved), and the merged list then replaces it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.markup import escape

from store.papers.model import Triage
from store.marks import saved
from store.marks.db import TriageStore
from store.search.query import clipped, parse
from store.marks.saved import Change, SavedSearches
from tui.saving import Saver
from tui.screens.saved import QUERY_WIDTH, SavedPicker, SaveSearch
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from store.search.engine import Engine

SAVED_ACTIONS = {"pick_saved", "save_search"}
"""The actions that apply only on the main screen (not over another dialog)."""


class SavedSearchActions:
    """`M` and `'` (see TriageApp's key table), and the saved searches' palette commands."""

    store: TriageStore
    states: dict[str, Triage]
    new_ids: frozenset[str]
    _saver: Saver
    saved_searches: SavedSearches = SavedSearches()
    """The saved searches, as this window last saved or read them."""
    _saved_version = 0
    """Counts this window's changes: a merged list from the store replaces only the newest change's."""

    def load_saved_searches(self) -> None:
        """Read the saved searches (at start); each stored entry that was skipped is a notification."""
        self.saved_searches = saved.load(self.store)
        for notice in self.saved_searches.notices:
            self.notify(notice, title="Saved searches", severity="warning", timeout=20, markup=False)

    def action_save_search(self) -> None:
        query = self.query_one(FilterBar).value.strip()
        if not query:
            self.notify("No query to save: type one after / first, then M saves it", severity="warning")
            return

        def answered(result: tuple[str, str] | None) -> None:
            if result is not None:
                name, letter = result
                self._change_saved(saved.saving(name, query, letter), f"Saved {name!r} on {letter}: ' then {letter} runs it")

        self.push_screen(SaveSearch(query, self.saved_searches), answered)

    def action_forget_saved(self, name: str) -> None:
        self._change_saved(saved.forgetting(name), f"Forgot the saved search {name!r}")

    def _change_saved(self, change: Change, done: str) -> None:
        """Show `change` now, then store it on the writer thread and show the merged result."""
        self._saved_version += 1
        version = self._saved_version
        self.saved_searches = self.saved_searches.changed(change)
        self.notify(done, markup=False)
        self._saver.run(self._store_saved, change, version)

    def _store_saved(self, change: Change, version: int) -> None:
        merged = saved.apply(self.store, change)
        self._from_writer(partial(self._merged_saved, merged, version))

    def _merged_saved(self, merged: SavedSearches, version: int) -> None:
        if version == self._saved_version:
            self.saved_searches = merged

    def action_pick_saved(self) -> None:
        if not self.saved_searches:
            self.notify("No saved searches yet: type a query after /, then M saves it under a letter")
            return
        states, new, updated = dict(self.states), self.new_ids, self.store.updated
        index: Callable[[], Engine] = self._search_index

        def picked(name: str | None) -> None:
            if name is not None:
                self.action_run_saved(name)

        def count(text: str) -> int | str:
            query = parse(text)
            return "too long" if query.too_long else len(index().search(query, states, new, updated))

        self.push_screen(SavedPicker(self.saved_searches, count), picked)

    def action_run_saved(self, name: str) -> None:
        """Put the saved search's query in the filter (it runs as if typed) and give the list the focus."""
        search = self.saved_searches.named(name)
        if search is None:
            self.notify(f"No saved search {name!r}", severity="warning", markup=False)
            return
        self.action_leave_similar()
        self.query_one(FilterBar).value = search.query
        self.screen.set_focus(self.query_one(PaperList))

    def saved_commands(self) -> Iterator[SystemCommand]:
        """The palette's commands: run each saved search, forget each."""
        for search in self.saved_searches:
            name, query = escape(search.name), escape(clipped(search.query, QUERY_WIDTH))
            yield SystemCommand(f"Search: {name} ({query})", f"saved search: ' then {search.letter}",
                                partial(self.action_run_saved, search.name))
        for search in self.saved_searches:
            yield SystemCommand(f"Forget saved search: {escape(search.name)}", escape(clipped(search.query, QUERY_WIDTH)),
                                partial(self.action_forget_saved, search.name))
