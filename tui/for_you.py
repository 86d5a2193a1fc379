"""The collection's interest model, made when first needed, for the app and the command line alike (no Textual
here: `triage list --sort interest` pays nothing for the app's widgets).

`Interest` owns the collection's features (built the first time they are needed: not at all for a
reader who has starred fewer than `MIN_POSITIVES` papers and never asks for similar papers), over the
list's papers and the library's marked papers of other lists (`others`, `outside`: learnt from, never ranked),
and answers two questions, which the app asks from worker threads: the ranking of a set of marks
(None while there are too few labels to rank) and the papers most like one.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import compress
from typing import TYPE_CHECKING

from store.papers.chunked import ids_of
from store.papers.model import Collection, Paper, Triage

if TYPE_CHECKING:
    from store.interest.ranking import InterestModel, Ranking
    from store.marks.db import TriageStore


Others = Callable[[], tuple[list[Paper], dict[str, Triage]]]
"""The library's marked papers that are not the list's, with their marks (`outside`)."""


def outside(store: TriageStore, papers: Sequence[Paper]) -> tuple[list[Paper], dict[str, Triage]]:
    """The papers of `store`'s library (`store.readers.library`) that are not among `papers`, and their marks. The
    papers' ids are looked through once for the library's few (at C speed: no set of a long list's ids is made, ~0.1 s
    at 1,000,000 papers; a reopened list's from their column, no paper made: `store.papers.chunked`)."""
    from store.readers.library import library_collection

    library, shares = store.library(), store.shares
    wanted = set(library).union(shares)
    ids = ids_of(papers)
    own = set(compress(ids, map(wanted.__contains__, ids)))
    own.update(pid for paper, pid in shares.items() if paper in own)  # (a marked paper the list has under another id)
    records = {pid: record for pid, record in library.items() if pid not in own}
    if not records:
        return [], {}
    made = library_collection(records, str(store.papers_file)).papers
    return made, {paper.id: store.get(paper.id) for paper in made}


class Interest:
    """The interest model of one collection (see the module docstring); safe to call from any thread.

    `ready`, when given, is waited for before anything is ranked: the app's returns once the whole list is read (the
    collection's papers are then the whole list's), so features are made once, of all of them (from the cache,
    `store.interest.features_cache`, when it holds them), and search is ready (search goes first)."""

    def __init__(self, collection: Collection, others: Others | None = None, ready: Callable[[], object] | None = None) -> None:
        self._collection = collection
        self._ready = ready
        self._model: InterestModel | None = None
        self._lock = threading.Lock()
        self.ranked = threading.Event()
        """Set once no ranking is under way after one (made and shown, too few marks to make one, or failed: `ranking`):
        what else the app works out behind an open waits for it (tui.copying's citation keys: ~12 s of the
        interpreter at 2,700,000 papers, which made For you come ~17 s after the open)."""
        self._under_way = 0
        self._counting = threading.Lock()
        self._others = others
        self.outside: dict[str, Paper] = {}
        """The other lists' marked papers learnt from, by id (once `rank` or `model` has run)."""
        self._outside_states: dict[str, Triage] | None = None

    def _outside(self) -> dict[str, Triage]:
        """The marks of the other lists' papers, fetched the first time (under the lock)."""
        if self._outside_states is None:
            papers, states = self._others() if self._others is not None else ([], {})
            self.outside, self._outside_states = {paper.id: paper for paper in papers}, states
        return self._outside_states

    def model(self) -> InterestModel:
        """The collection's interest model (its features loaded or built on first use, on the caller's thread)."""
        if self._ready is not None:
            self._ready()
        from store.interest.features_cache import features
        from store.interest.ranking import InterestModel

        with self._lock:
            self._outside()
            if self._model is None:
                self._model = InterestModel(features(self._collection, list(self.outside.values()))[0])
            return self._model

    def rank(self, states: Mapping[str, Triage]) -> Ranking | None:
        """The For-you ranking of these marks and the other lists' (the list's own win), None while fewer than
        `MIN_POSITIVES` are positives."""
        if self._ready is not None:
            self._ready()
        from store.interest.ranking import MIN_POSITIVES, labels  # (here, on the worker's thread: numpy, not before the first frame)

        with self._lock:
            every = {**self._outside(), **states}
        positives, _ = labels(every)
        return self.model().rank(every) if len(positives) >= MIN_POSITIVES else None

    @contextmanager
    def ranking(self) -> Iterator[None]:
        """Within the block a ranking is made and shown; `ranked` is set when the last of those under way ends."""
        with self._counting:
            self._under_way += 1
        try:
            yield
        finally:
            with self._counting:
                self._under_way -= 1
                if not self._under_way:
                    self.ranked.set()

    def similar(self, paper_id: str, k: int) -> list[str]:
        """The ids of the `k` papers most like `paper_id`, best first (blocks while features are built)."""
        return self.model().features.similar(paper_id, k)
