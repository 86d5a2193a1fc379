"""Derived titles after a long list is searchable: the work the user is not waiting for, done behind it.

A long list's parse behind the app (`tui.loading`) leaves the titles and names it would derive from the
abstracts (`store.names.derive_title`, ~75 µs an abstract: half of its workers' time) to later
(`records.titles_later`): its papers are `untitled`, the list is searchable seconds sooner, and a paper
read meanwhile (a row drawn, the detail pane) derives its own when first read (`store.model.Paper.title`).
`derive` then gives every paper still without them its title and name on worker processes, as the parse
does its analysis, a chunk at a time; the index is then given the titles' words
(`store.search.SearchIndex.retitled`). The titles are the very ones a parse derives at once."""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from store.model import Paper, titled, untitled
from store.readers import records


def _derived(plains: list[str | None]) -> list[tuple[str, str]]:
    """The derived (title, name) of each display text (None: a paper without a text has neither)."""
    from store.names import derive_title

    return [derive_title(plain) if plain is not None else ("", "") for plain in plains]


def derive(papers: Sequence[Paper], progress: Callable[[int, int], object] = lambda done, total: None,
           stopping: Callable[[], bool] = lambda: False) -> bool:
    """Give each `untitled` paper of `papers` its derived title and name: on worker processes (started as
    the parse's are: `records.START`) when there are many and several cores, `records.CHUNK` papers at a
    time, `progress(done, total)` told after each. False when `stopping()` said so first (the rest stay
    `untitled`: each derives its own when read)."""
    todo = [paper for paper in papers if untitled(paper)]
    chunks = [todo[start : start + records.CHUNK] for start in range(0, len(todo), records.CHUNK)]
    workers = min(os.cpu_count() or 1, len(chunks))
    done = 0
    if workers >= 2:
        try:
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(records.START)) as pool:
                for chunk, derived in zip(chunks, pool.map(_derived, map(_plains, chunks))):
                    for paper, (title, name) in zip(chunk, derived):
                        titled(paper, title, name)
                    done += 1
                    progress(min(len(todo), done * records.CHUNK), len(todo))
                    if stopping():
                        pool.shutdown(cancel_futures=True)
                        return False
        except (OSError, BrokenProcessPool):  # no processes allowed here: the rest in this one
            pass
    for chunk in chunks[done:]:
        for paper, (title, name) in zip(chunk, _derived(_plains(chunk))):
            titled(paper, title, name)
        done += 1
        progress(min(len(todo), done * records.CHUNK), len(todo))
        if stopping():
            return False
    return True


def _plains(papers: list[Paper]) -> list[str | None]:
    """What a worker derives the titles of `papers` from: each display text (None without a text)."""
    return [paper.plain if paper.text else None for paper in papers]  # type: ignore[misc]
