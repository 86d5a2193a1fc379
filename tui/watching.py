"""Lists that change on disk while open (a scheduled fetch, an edit): noticed, and reloaded in place on a key.

Every `WATCH_SECONDS` the app looks at its lists' files (`store.readers.cache.pins`: a status each, no read)
on a worker thread; when one changed, the header says "list changed on disk — R reloads" (newsboat's habit),
and `R` (`reload_list`, which comes before "mark all read" on that key only then) reads the lists again on a
worker thread and lands them as the open pipeline lands a long list (`tui.landing.Landed._land`): the marks attached
again, the cursor on its paper when that is still there (else at the top), the query searched again."""
from __future__ import annotations

from collections.abc import Container, Sequence
from typing import TYPE_CHECKING

from textual import work

from store.common.errors import ReadError
from store.readers import cache, read_paths
from store.readers.list_key import read_key
from store.papers.model import Triage
from store.search.highlight import Hits
from tui.textual_private import keymap_of
from tui.landing import Landing
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList
from tui.widgets.status import StatusLine

if TYPE_CHECKING:
    from store.search.engine import Engine

WATCH_SECONDS = 2.0
"""How often the lists' files are looked at."""


class Watching:
    """The app's side of lists changed on disk (see the module docstring); a mixin of `TriageApp`, which calls
    `init_watching` once its collection is set and `start_watching` once mounted."""

    def init_watching(self) -> None:
        self._pins = cache.pins(self.collection.sources)  # type: ignore[attr-defined]
        self.changed_on_disk = False
        """Whether a list's file changed since it was read (the header says so; `R` reloads)."""
        self._reloading = False
        self.fresh: frozenset[str] = frozenset()
        """The papers new this session: those fetched from the app (tui.feeding); their rows show `+`."""

    def start_watching(self) -> None:
        self.set_interval(WATCH_SECONDS, self._look)  # type: ignore[attr-defined]

    def _look(self) -> None:
        if not (self.changed_on_disk or self._reloading or self.loading):  # type: ignore[attr-defined]
            self._look_at(list(self.collection.sources), self._pins)  # type: ignore[attr-defined]

    @work(thread=True, exclusive=True, group="watch")
    def _look_at(self, sources: Sequence[str], pins: tuple[object, ...]) -> None:
        if cache.pins(sources) != pins:
            self.call_from_thread(self._changed, pins)  # type: ignore[attr-defined]

    def _changed(self, pins: tuple[object, ...]) -> None:
        if pins is not self._pins or self._reloading:  # (read again meanwhile)
            return
        self.changed_on_disk = True
        key = keymap_of(self).get("reload_list", "R")  # type: ignore[arg-type]
        self.query_one(StatusLine).show_notice(f"list changed on disk — {key} reloads")  # type: ignore[attr-defined]

    def watched(self, pins: tuple[object, ...]) -> None:
        """The lists' files as `pins` says are the ones shown: no change to tell."""
        self._pins = pins
        self.changed_on_disk = False
        self.query_one(StatusLine).show_notice("")  # type: ignore[attr-defined]

    def action_reload_list(self) -> None:
        """Read the lists again (see the module docstring)."""
        if self._reloading or self.loading:  # type: ignore[attr-defined]
            return
        self._reloading = True
        self._say("reloading…")  # type: ignore[attr-defined]
        self._reload(list(self.collection.sources), *self.shown_query())  # type: ignore[attr-defined]

    def shown_query(self) -> tuple[str | None, dict[str, Triage], int]:
        """The query shown (None: none), the marks it is searched with, and its number: what `read_again` takes."""
        return self._searched if self._hits is not None else None, dict(self.states), self._search_serial  # type: ignore[attr-defined]

    @work(thread=True, exclusive=True, group="reload")
    def _reload(self, sources: Sequence[str], query: str | None, states: dict[str, Triage], serial: int) -> None:
        self.read_again(sources, query, states, serial)

    def read_again(self, sources: Sequence[str], query: str | None, states: dict[str, Triage], serial: int,
                   known: Container[str] = ()) -> None:
        """On a worker thread: the lists `sources` read again, their search engine, and the `query` shown searched in it
        (with the marks of `states`), then landed (`land_again`); the papers not in `known` are new."""
        pins = cache.pins(sources)  # (before the read: a change while reading is told after it)
        try:
            whole = read_paths(sources)
        except ReadError as exc:
            self.call_from_thread(self._not_reloaded, str(exc))  # type: ignore[attr-defined]
            return
        from store.readers.engine_cache import engine_for  # (here: the search has loaded it)

        index = engine_for(whole).engine
        fresh = {paper.id for paper in whole.papers if paper.id not in known} if known else set()
        landing = Landing.of(whole, self.store.opened(whole.sources, whole.papers, read_key(whole)))  # type: ignore[attr-defined]
        # New this session stays new: what was at the open, what F fetched, what the file gained.
        landing = landing._replace(new=frozenset((landing.new | self.new_ids | fresh) & landing.by_id.keys()))  # type: ignore[attr-defined]
        hits = index.search(query, states, landing.new, self.store.updated) if query is not None else None  # type: ignore[attr-defined]
        self.call_from_thread(self.land_again, landing, index, hits, serial, pins, fresh)  # type: ignore[attr-defined]

    def land_again(self, landing: Landing, index: Engine, hits: Hits | None, serial: int,
                   pins: tuple[object, ...], fresh: set[str]) -> None:
        """Show `landing` in place of the papers shown, as the open pipeline lands a list: its `index`, the
        query's `hits` in it (of query number `serial`: a newer one typed meanwhile is searched again), the
        marks, and the cursor on its paper; the papers of `fresh` marked new."""
        self._reloading = False
        self._say("")  # type: ignore[attr-defined]
        self._index = index
        self.hits_among(hits, landing.whole.papers)  # type: ignore[attr-defined]
        if fresh:
            self.query_one(PaperList).fresh = self.fresh = self.fresh | fresh  # type: ignore[attr-defined]
        self._land(landing)  # type: ignore[attr-defined]
        if hits is not None:
            self.query_one(FilterBar).show_result(len(hits), len(landing.whole.papers), hits.query.hint)  # type: ignore[attr-defined]
        if serial != self._search_serial:  # type: ignore[attr-defined]
            self.search_again()  # type: ignore[attr-defined]
        self.watched(pins)

    def _not_reloaded(self, error: str) -> None:
        self._reloading = False
        self._say("")  # type: ignore[attr-defined]
        self.query_one(StatusLine).show_notice(f"not reloaded: {error}")  # type: ignore[attr-defined]
