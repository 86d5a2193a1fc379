"""Derived titles after a long list is searchable: the work the user is not waiting for, done behind it.

A long list's parse behind the app (`tui.loading`) leaves the titles and names it would derive from the
abstracts (`store.papers.names.derive_title`, ~75 µs an abstract: half of its workers' time) to later
(`records.titles_later`): its papers are `untitled`, the list is searchable seconds sooner, and a paper
read meanwhile (a row drawn, the detail pane) derives its own when first read (`store.papers.model.Paper.title`).
`derive` then gives every paper still without them its title and name on worker processes, as the parse
does its analysis, a chunk at a time; the index is then given the titles' words
(`store.search.index_made.Made.retitled`). The titles are the very ones a parse derives at once."""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool

from store.common.ahead import in_order
from store.papers.model import Paper, has_text, titled, untitled
from store.readers import records


def _derived(plains: list[str | None]) -> list[tuple[str, str]]:
    """The derived (title, name) of each display text (None: a paper without a text has neither)."""
    from store.papers.names import derive_title

    return [derive_title(plain) if plain is not None else ("", "") for plain in plains]


def derive(papers: Sequence[Paper], progress: Callable[[int, int], object] = lambda done, total: None,
           stopping: Callable[[], bool] = lambda: False) -> bool:
    """Give each `untitled` paper of `papers` its derived title and name: on worker processes when there are many
    and several cores, `records.CHUNK` papers at a time, a few chunks' display texts made ahead (not all at once:
    ~85 MB at 100,000 abstracts, where the display text is no slice of the text), `progress(done, total)` told after
    each. False when `stopping()` said so first (the rest stay `untitled`: each derives its own when read).

    The workers are started afresh ("spawn"), not forked from the server the parse's are (`records.START`), which can
    then be ended once the parse is done (`tui.processes.forkserver_stopped`: ~40 MB not held through the index and
    the titles). Each imports only what deriving needs (no numpy): ~40 MB at work, as a fork of the server was."""
    todo = [paper for paper in papers if untitled(paper)]
    chunks = [todo[start : start + records.CHUNK] for start in range(0, len(todo), records.CHUNK)]
    workers = min(os.cpu_count() or 1, len(chunks))
    done = 0  # chunks given their titles

    def given(derived: list[tuple[str, str]]) -> bool:
        """Give the next chunk its titles and tell how far; whether to go on."""
        nonlocal done
        for paper, (title, name) in zip(chunks[done], derived):
            titled(paper, title, name)
        done += 1
        progress(min(len(todo), done * records.CHUNK), len(todo))
        return not stopping()

    if workers >= 2:
        try:
            with records.worker_pool(workers, "spawn") as pool:
                for derived in in_order(pool, _derived, (records.Sent(_plains(chunk)) for chunk in chunks)):
                    if not given(derived):
                        pool.shutdown(cancel_futures=True)
                        return False
        except (OSError, BrokenProcessPool):  # no processes allowed here: the rest in this one
            pass
    return all(given(_derived(_plains(chunk))) for chunk in chunks[done:])


def _plains(papers: list[Paper]) -> list[str | None]:
    """What a worker derives the titles of `papers` from: each display text (None without a text)."""
    return [paper.plain if has_text(paper) else None for paper in papers]  # type: ignore[misc]
