"""`F` in the app: the newest papers of the open feed fetched in the background, the list growing in place.

A list `triage fetch` saved has a sidecar saying how its feed is fetched (`store.fetch.saved.recall`): `F`
runs that fetch again (`tui.cli.fetch`: the same source, endpoint and pacing, asking only for what came since
the feed's latest file) on a worker thread, the header saying how far ("fetching arxiv-cs.LG: page 2, …").
The lists are then read again with the file it saved (`Watching.read_again`): the papers not shown before are
new for the session (`+` in their rows), and the marks, the cursor's paper and the query are kept. A fetch
that fails is one line in the header, the list as it was (what came before the fault is kept and shown)."""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit

from textual import work

from store.common.errors import ReadError
from store.fetch import saved
from tui.cli.common import Refused, parse_args
from tui.textual_private import keymap_of
from tui.widgets.status import StatusLine

if TYPE_CHECKING:  # (the fetching modules, urllib's and http's, are imported at `F`: not before the first frame)
    from store.fetch.source import Outcome, Progress


def feeds_of(sources: Sequence[str]) -> list[tuple[Path, list[str]]]:
    """Each list of `sources` that `triage fetch` saved, with the words that fetch its feed again."""
    found = []
    for source in sources:
        words = saved.recall(Path(source))
        if words is not None:
            found.append((Path(source), words))
    return found


def failed(outcome: Outcome) -> str:
    """A fetch's fault as the header's line: `not fetched from export.arxiv.org: HTTP 503 … (2,000 fetched, kept)`."""
    fault = outcome.fault
    assert fault is not None
    kept = f" ({outcome.received:,} fetched, kept)" if outcome.path is not None else ""
    return f"not fetched from {urlsplit(fault.path).hostname or fault.path}: {fault.message}{kept}"


def _refuse(message: str) -> NoReturn:
    raise Refused(message)


def _parsed(words: list[str]) -> argparse.Namespace:
    """A sidecar's words as `triage fetch` parses them; Refused when it would refuse them (never a word on the
    terminal the app draws on)."""
    from tui.cli.fetch import fetch_parser

    parser = fetch_parser()
    parser.error = _refuse  # type: ignore[method-assign]
    try:
        return parse_args(parser, words)
    except SystemExit:  # (--help in a sidecar written by hand)
        raise Refused("not the words of a fetch") from None


class Feeding:
    """`fetch_newest` (see the module docstring); a mixin of `TriageApp`, beside tui.watching's `Watching`."""

    def action_fetch_newest(self) -> None:
        status = self.query_one(StatusLine)  # type: ignore[attr-defined]
        if self._reloading or self.loading:  # type: ignore[attr-defined]
            return
        feeds = feeds_of(self.collection.sources)  # type: ignore[attr-defined]
        if not feeds:
            status.show_notice(f"{keymap_of(self).get('fetch_newest', 'F')}: not a list triage fetch saved")  # type: ignore[arg-type]
            return
        self._reloading = True  # (no reload, no other fetch, and no notice of the change the fetch makes)
        status.show_notice("")
        self._say("fetching…")  # type: ignore[attr-defined]
        self._fetch(feeds, list(self.collection.sources), *self.shown_query())  # type: ignore[attr-defined]

    @work(thread=True, exclusive=True, group="reload")
    def _fetch(self, feeds: list[tuple[Path, list[str]]], sources: list[str], *shown: Any) -> None:
        """Each feed fetched in turn, then the lists read again with the files the fetches saved."""
        from store.fetch.source import fetch
        from tui.cli.fetch import prepared

        known = set(self.papers_by_id)  # type: ignore[attr-defined]
        fault = None
        grown = False
        for path, words in feeds:
            try:
                source, client, folder = prepared(_parsed(words), path.parent)
            except (Refused, ReadError) as exc:
                fault = f"{path.name}: its feed cannot be fetched again: {exc}"
                continue
            try:
                outcome = fetch(source, client, folder, None, self._fetching)
            except ReadError as exc:  # (the feed's latest file damaged, or today's not saved: nothing written)
                fault = f"not fetched: {exc}"
                continue
            if outcome.fault is not None:
                fault = failed(outcome)
            if outcome.path is not None:
                grown = True
                if str(outcome.path) not in sources:
                    sources.append(str(outcome.path))
        if grown:
            self.read_again(sources, *shown, known=known)  # type: ignore[attr-defined]
        self.call_from_thread(self._fetched, fault, len(self.papers_by_id) - len(known))  # type: ignore[attr-defined]

    def _fetching(self, state: Progress) -> None:
        from tui.cli.fetch import progress_text

        self.call_from_thread(self._say, f"fetching: {progress_text(state)}…")  # type: ignore[attr-defined]

    def _fetched(self, fault: str | None, new: int) -> None:
        self._reloading = False
        self._say("")  # type: ignore[attr-defined]
        if fault is not None:
            self.query_one(StatusLine).show_notice(fault)  # type: ignore[attr-defined]
        else:
            self.notify(f"{new:,} new papers (+)" if new > 0 else "Nothing new since the last fetch",  # type: ignore[attr-defined]
                        title="Fetched", markup=False)
