"""The open pipeline: what the app shows at once, and the work that fills the list in behind it.

A long list is not read before the first frame. `run_app` reads its head (`store.readers.quick`:
the first papers of the first file, parsed in full from its first part) and the app shows that at
once, marks attached, cold or cached alike. `Loading`, mixed into the app, then does the rest on
one background thread, while the keys work on the rows shown:

1. the whole read (`read_paths`: from the parse cache when it holds the files, else parsed, the
   analysis in worker processes forked from a small server started beside the app, each sent only
   its chunks of texts); the header says how far ("reading 40%…"). It lands at once,
   by position: the head's papers are its first ones, so
   nothing changes identity, the cursor stays on its paper, and marks are attached (re-found) for
   all papers then; the state is exactly a non-streamed open's;
2. the search engine of those papers (store.search.engine: opened from its folder in the cache, not loaded,
   when the cache has one of these papers; else built there first, "indexing…"; in memory when the disk
   cannot hold it, said in the header, as is a damaged folder built again). A reopened list's folder is opened
   beside the read, on a thread of its own (store.readers.engine_cache's `opening`; its CRCs, when
   they are read, summed on the other core), and given the papers once they land when they are those it was opened for (the whole list
   lands, and is landed, as tui.landing says);
3. then, once a query typed meanwhile is answered, the landed list's look-up by id and its columns (`_worked_out`),
   the open noted in the library (`_note_open`: which papers are
   new, which arrived; `is:new` waits for it), and the citation keys.
The cache entries of the read are held until it is whole (or a quit before: `cache.held`), then written while the
engine is built: a quit while it builds leaves them.

Every list, streamed or not, gets its engine this way. A query typed before it is ready waits
for it and the filter bar says so ("indexing…"): a result never silently misses papers. The thread is
a daemon; at `q` (before the app's own ending) a build stops within a few hundred papers, its folder left half-built
for the cache's clean-up, and the parse's worker processes are ended; `run_app` ends the process without waiting for
the thread, giving the cache entries still being written what is left of `QUIT_WITHIN` (tui.cli.launch): `q` never
waits for this work.
"""
from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from store.papers.model import Collection, Paper, Triage
from store.papers.rows import ById
from store.common.errors import ReadError
from store.readers import cache, match_cache, quick, read_paths, records, texts_entry
from store.readers.list_key import read_key
from store.library.seen import NOTHING
from store.readers.records import reporting
from tui import processes
from tui.landing import Landed, Landing
from tui.widgets.paper_list import columns_for

if TYPE_CHECKING:  # (the engine, numpy and tantivy are imported by the work behind the list, not before the first frame)
    from store.search.engine import Ahead, Engine


SEARCH_FIRST = 5.0
"""The longest the work after search ready waits for a query typed before it to be answered (`_after_the_search`)."""


MARKS_WITHIN = 5.0
"""The longest a search waits for the marks of a list just landed (`Loading._search_index`): at 1,000,000 papers they are
attached in ~0.3 s, which the search would share the interpreter with anyway."""


def head_of(files: Sequence[str]) -> Collection | None:
    """What a list opens from before it is read whole (None: read it whole first). Called before the app
    starts, which then starts the parse's worker processes from a thread (see `behind_the_list`)."""
    cached = all(map(cache.has_entry, files))
    if cached:
        for name in files:  # (its CRC worked out on the other core while the first frame is drawn)
            cache.check_entry_ahead(name)
    collection = quick.head(files[0], quick.CACHED_STREAM_FROM if cached else quick.STREAM_FROM, cached) if files else None
    if collection is not None:
        processes.prepare(parsing=not cached and quick.expected(collection, files) >= processes.WORKERS_FROM)
    return collection


class Loading(Landed):
    """The app's side of the open pipeline (see the module docstring). A mixin of `TriageApp`: it calls
    `init_loading` first thing, `start_loading` once the first frame is drawn, `stop_loading` at unmount; what lands
    is swapped in by `tui.landing.Landed`."""

    def init_loading(self, files: Sequence[str] | None) -> None:
        """`files`: the lists `collection` is the head of, to read whole behind it (None: it is whole)."""
        self._files = files
        # (a damaged texts entry found while the app runs is a notice, not a line over its screen)
        texts_entry.tell = lambda line: self._from_writer(partial(self.notify, line, title="List cache",  # type: ignore[attr-defined]
                                                                  severity="warning", timeout=20, markup=False))
        self._index: Engine | None = None
        self._indexed = threading.Event()
        """Set once `_index` is made (or the app quits before)."""
        self._stopping = threading.Event()
        """Set at quit: the work behind the list stops (a build of the engine too: store.search.engine.folder's `build`)."""
        self.papers_by_id = ById.of(self.collection)
        """Each paper by its id (the head's until the whole read lands: its look-up made when first asked)."""
        self._thread: threading.Thread | None = None
        self._said = ""
        """What the header says of this work."""
        self._cursor_after_load: str | None = None
        """The restored session's paper, when the head does not hold it: the cursor goes there once it lands."""
        self._held = cache.Held()
        """The cache entries of the read, written once search is ready (or at quit)."""
        self._all_read = threading.Event()
        """Set once all the papers are there (the whole read landed, or could not be made), or at quit."""
        self._noted = threading.Event()
        """Set once the open is noted in the library and `new_ids` are this open's (`_note_open`), or at quit."""
        self._all_marked = threading.Event()
        """Set while the marks of all the papers are shown (those of a list landed are attached on the writer thread
        after it: tui.landing), or at quit: a search waits for them (`MARKS_WITHIN`)."""
        self._all_marked.set()
        if files is None:
            self._all_read.set()
            self._noted.set()  # (`initial_states` notes it)

    @property
    def loading(self) -> bool:
        """Whether the papers shown are still only the head of the list."""
        return self._files is not None

    def initial_states(self) -> dict[str, Triage]:
        """The marks of the papers shown at first: a head's by id only (a state is re-found, moved to an
        edited abstract's new id, only against all papers: when the whole list has landed). A whole list is
        opened now (`new_ids`); a head's when the whole list lands."""
        c = self.collection
        opened = NOTHING if self.loading else self.store.opened(c.sources, c.papers, read_key(c))
        self.new_ids: frozenset[str] = opened.new
        """The ids of the papers first seen since this list was last opened (`store.library.seen`)."""
        self.arrived: frozenset[str] = opened.arrived
        """The ids of the papers the database saw first at this open, for the standing rules to mark once the index
        is made (tui.rules); emptied then."""
        return self.store.attach(self.collection.papers, refind=not self.loading, **match_cache.attaching(self.collection))

    def keep_after_load(self, paper_id: str | None) -> None:
        """Put the cursor on `paper_id` (the restored session's) once the whole list lands, if the head lacks it."""
        if self.loading and paper_id is not None and paper_id not in self.papers_by_id.ids:  # (the head's few: no numpy yet)
            self._cursor_after_load = paper_id

    def start_loading(self) -> None:
        if self.loading:
            self._say("reading…")
        self._thread = threading.Thread(target=self._load, args=(self._files,), name="triage open", daemon=True)
        self._thread.start()

    def quitting(self) -> None:
        """As soon as a quit is asked for: a build of the engine stops within a few hundred papers (its half-built
        folder left to the cache's clean-up), leaving the cores to the app's own ending; the rest at unmount
        (`stop_loading`: ending the worker processes at the key instead was ~0.1 s slower, their pool's clean-up
        running beside the ending)."""
        self._stopping.set()

    def stop_loading(self) -> None:
        """At quit: nothing waits for the index any more, a build of it stops (`quitting`), and the parse's worker
        processes (the only processes the app starts) end now, and the parse with them (tui.processes.ended)."""
        self._stopping.set()
        texts_entry.tell = texts_entry.say
        self._indexed.set()
        self._all_read.set()
        self._noted.set()
        self._all_marked.set()
        self._held.release()  # (written in what is left of the quit's second: tui.cli.launch)
        if self.working_behind:  # (reading, or indexing)
            processes.ended()

    @property
    def working_behind(self) -> bool:
        """Whether the background thread still reads or indexes (once the app quit: the process ends it)."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def read_whole(self) -> bool:
        """Whether all the papers are there (see `wait_for_whole`)."""
        return self._all_read.is_set()

    def wait_for_whole(self) -> None:
        """Wait until all the papers are there (a long list is read behind its first rows)."""
        self._all_read.wait()

    def wait_for_new(self) -> None:
        """Wait until the papers new in the list are known (`new_ids`: its open noted once search is ready)."""
        self._noted.wait()

    def _search_index(self) -> Engine:
        """The search engine of the papers (a search typed before it is open waits here, on its worker thread), once
        the marks of all of them are shown (a landed list's: its `is:` qualifiers and its counts see them all), or
        `MARKS_WITHIN` seconds have passed waiting for them (their database held by another process)."""
        self._indexed.wait()
        self._all_marked.wait(MARKS_WITHIN)
        if self._index is None:  # (only once the app quits)
            from store.search.engine import Engine

            return Engine.of([])
        return self._index

    # --- the background thread -----------------------------------------------------------------------

    def _load(self, files: Sequence[str] | None) -> None:
        try:
            self._read_and_index(files)
        except Exception as exc:  # noqa: BLE001 - told, and the papers shown are searched
            if self._stopping.is_set():  # (a build stopped, a read whose workers were ended: the app is going)
                return
            if isinstance(exc, ReadError):  # (a text not available: a reopened list gone since its cache was damaged)
                self._post(partial(self._say, ""))
                self._post(partial(self.tell_unavailable, exc))  # type: ignore[attr-defined]
            else:
                self._post(partial(self._not_read, f"{exc.__class__.__name__}: {exc}"))
            if self._index is None:
                from store.search.engine import Engine

                self._index = Engine.of(_readable(self.collection.papers))
            self._indexed.set()
            self._all_read.set()
            self._noted.set()

    def _read_and_index(self, files: Sequence[str] | None) -> None:
        # The cache entries of the read are written once it is whole (the cores went to the read first), or at quit.
        with cache.held() as self._held:
            engine = self._search_ready(files)
        processes.tracker_stopped()  # (no worker process is started after these)
        if engine is not None:
            self._after_the_search()
            if files is not None:
                self._worked_out()
            self._note_open()
            self._post(self._assign_citation_keys)  # type: ignore[attr-defined]
            gc.freeze()

    def _search_ready(self, files: Sequence[str] | None) -> Engine | None:
        """Read `files` whole (None: the papers shown are all) and open their search engine, built first when the
        cache has none of them (None: the app quit first)."""
        opened_ahead: Callable[[], Ahead | None] = lambda: None  # noqa: E731
        if files is not None:
            from store.readers.engine_cache import opening

            opened_ahead = opening(files)  # (a reopen's: its folder opened beside the read)
            try:
                with reporting(self._reading(files)), processes.behind_the_list(), records.packing():
                    whole = read_paths(files)
            except ReadError as exc:  # gone or changed into something unreadable since its head was read
                self._post(partial(self._not_read, str(exc)))
                whole = None
            processes.forkserver_stopped()  # (its workers have ended)
            if self._stopping.is_set():
                return None
            if whole is not None:
                landed = threading.Event()
                landing = Landing.of(whole, columns=False)  # (here, not on the UI thread; its columns once search is ready)
                self._post(lambda: (self._land(landing), landed.set()))
                while not landed.wait(0.1):
                    if self._stopping.is_set():
                        return None
            else:
                self._files = None
                self._noted.set()  # (only its head is shown: its open is not noted)
            self._post(lambda: self._say("indexing…"))  # (a list read before it was shown: the filter bar says it)
        self._all_read.set()
        # The read's cache entries are written now, beside the build: a quit while it builds (minutes for a long list
        # parsed cold) still leaves the next open a cached read.
        self._held.release()
        # Before and after, what exists then (the papers, the widgets) is moved out of the cyclic garbage
        # collector's sight (`gc.freeze`): it lives as long as the app, and its full collections walked it all,
        # ~200 ms at 100,000 papers every 15–20 keys (freed papers are still freed, by count).
        gc.freeze()
        from store.readers.engine_cache import engine_for

        opened = engine_for(self.collection, self._stopping, opened_ahead())
        self._index = opened.engine
        self._indexed.set()
        self._post(partial(self._indexed_now, opened.note))
        return opened.engine

    def _after_the_search(self) -> None:
        """Wait while a query typed before the index was made is still answered, and the keys typed after it (held for
        its results: tui.typeahead) with it, at most `SEARCH_FIRST` s: the work that follows search ready (noting the
        open, phrase texts, the facets, citation keys: seconds of CPU at 100,000 papers, much of it holding the GIL)
        would otherwise share it with that search, which took 1.6 s beside them instead of ~0.1 s."""
        deadline = time.monotonic() + SEARCH_FIRST
        while not self._stopping.is_set() and time.monotonic() < deadline:
            try:
                if self.call_from_thread(self.queries_answered):  # type: ignore[attr-defined]
                    return
            except RuntimeError:  # (the app's loop closed meanwhile)
                return
            time.sleep(0.01)

    def _worked_out(self) -> None:
        """What search ready did not wait for, of the whole list landed: the look-up of its papers by id (~0.15 s at
        1,000,000 papers: here, not made by the first key that asks for it on the app's thread) and its columns."""
        by_id, papers = self.papers_by_id, self.collection.papers
        by_id.indexed()
        columns = columns_for(papers)
        self._post(partial(self.columns_now, papers, columns))

    def _note_open(self) -> None:
        """Note the open of the whole list in the library (`TriageStore.opened`, ~0.1 s at 100,000 papers, which search
        ready does not wait for): which of its papers are new (a query asking `is:new` waits for it: `wait_for_new`),
        which arrived (the standing rules mark them). Given up at a quit (`store.common.errors.Stopped`)."""
        if self._noted.is_set():  # (a list read whole before it was shown: noted then)
            return
        c = self.collection
        opened = self.store.opened(c.sources, c.papers, read_key(c), self._stopping)
        self._post(partial(self._noted_now, opened))

    def _reading(self, files: Sequence[str]) -> Callable[[str, int], None]:
        """The whole read's progress callback: "reading 40%…", the share of abstracts analysed of those
        the files will hold (as many per byte as the head has)."""
        expected = quick.expected(self.collection, files)
        done: dict[str, int] = {}

        def progress(name: str, count: int) -> None:
            done[name] = count
            percent = min(99, 100 * sum(done.values()) // expected)
            self._post(lambda: self._say(f"reading {percent}%…"))

        return progress

    def _post(self, callback: Callable[[], Any]) -> None:
        """Run `callback` on the app's thread soon, unless the app has stopped by then."""
        try:
            self._from_writer(callback)
        except RuntimeError:  # the app's loop closed meanwhile
            pass

def _readable(papers: Sequence[Paper]) -> list[Paper]:
    """`papers` but those whose text is not available (`store.readers.texts_entry`: its list gone since its cache was
    found damaged): what is searched then."""
    found = []
    for paper in papers:
        try:
            paper.text  # noqa: B018 - whether it can be read is the point
        except ReadError:
            continue
        found.append(paper)
    return found
