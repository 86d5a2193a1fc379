"""The app's copy, open and export actions: citations to the clipboard, links to the browser, the papers
shown to a file. A mixin of `TriageApp`, which owns the state they read (`shown`, `states`, the store).
While papers are selected, `c`, `Y` and `x` take the selected papers (tui.selection)."""
from __future__ import annotations

import operator
import os
import sys
import threading
import webbrowser
from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import cached_property

from textual import work

from store.common.errors import ReadError, Stopped
from store.papers.model import Collection, Paper, Triage, at_hand
from store.common import heap
from store.marks.db import TriageStore
from tui.citing import citing
from tui.rereading import READING
from tui.saving import Saver
from tui.widgets.paper_list import PaperList


WAITING_FOR_THE_LIST = "Citation keys need every paper's title: a moment, until the list is read whole…"
ASSIGNING = "Citation keys are being assigned: a moment…"
RANKING_WITHIN = 60.0
"""Seconds the citation keys of an open wait at most for its first For-you ranking before they are assigned."""
_KEYING = threading.Lock()
"""Held while citation keys are assigned (`CopyActions.citation_keys`)."""
KEYS_AT_OPEN = 500_000
"""Lists of fewer papers have their citation keys assigned as they open (~2 s of CPU at most); a longer list's are
assigned when a copy or an export first needs them (at 2,700,000 papers, ~12 s of CPU and ~0.3 GB more, which every
open paid, slowing its first For you)."""


class CopyActions:
    """`c`, `C`, `Y`, `o`, `O` and `x` (see TriageApp's key table)."""

    collection: Collection
    states: dict[str, Triage]
    store: TriageStore
    _saver: Saver
    cite_format: str

    _bibtex_titles: list[str] | None = None
    """The BibTeX titles of all the papers in list order, when a long list keeps them (`citation_keys`)."""

    @cached_property
    def citation_keys(self) -> dict[str, str]:
        """Paper id → citation key, assigned over the whole collection so keys never change with the filter
        (from every paper's title: once a long list just opened is read and has them all); a long list's from
        its `.cite` entry when a `triage export` kept one, with its BibTeX titles (tui.citing). Assigned once, however
        many workers ask at a time (a copy and an export: `cached_property` holds no lock from Python 3.12)."""
        self.wait_for_whole()  # type: ignore[attr-defined]
        with _KEYING:
            if "citation_keys" in self.__dict__:  # (assigned while this one waited)
                return self.__dict__["citation_keys"]
            keys, self._bibtex_titles = citing(self.collection, make_missing=False, stop=self._stopping)  # type: ignore[attr-defined]
            self.__dict__["citation_keys"] = keys  # (before another waiting worker looks)
            return keys

    def _once_keyed(self, then: Callable[[], object]) -> None:
        """Run `then` (which needs the citation keys) now, or, while a long list just opened is still read
        (each key needs every title) or its keys are being assigned, once they are, saying so: the UI never waits
        (and a key copied is never one the rest of the list changes)."""
        if self.read_whole and "citation_keys" in self.__dict__:  # type: ignore[attr-defined]
            then()
            return
        self.notify(WAITING_FOR_THE_LIST if not self.read_whole else ASSIGNING)  # type: ignore[attr-defined]
        self._when_keyed(then)

    @work(thread=True, group="whole-list")
    def _when_keyed(self, then: Callable[[], object]) -> None:
        with suppress(Stopped):  # (the app is quitting: nothing is waited for)
            self.citation_keys  # noqa: B018 - (made here when not yet: never on the UI thread)
            self.call_from_thread(then)

    @work(thread=True, group="citation-keys")
    def _assign_citation_keys(self) -> None:
        """Assign the keys of a list of fewer than `KEYS_AT_OPEN` papers off the UI thread (0.7 s at 100,000 papers)
        before a copy or the picker needs them, once the first For-you ranking is over (both hold the interpreter: the
        ranking goes first)."""
        if len(self.collection.papers) >= KEYS_AT_OPEN:
            return
        self._interest.ranked.wait(RANKING_WITHIN)  # type: ignore[attr-defined]
        with suppress(Stopped):  # (the app is quitting: the keys are not waited for)
            self.citation_keys  # noqa: B018 - computing the cached property is the point
            heap.give_back()  # (what assigning them freed: the last work of a long list's open, ~12 MB at 100k)

    @property
    def shown(self) -> Sequence[Paper]:
        """The papers `Y` and `x` take: the selected ones when there are any, else those the list shows, in its order."""
        return self.targets() if self.selection else self.query_one(PaperList).papers

    def action_copy_citation(self) -> None:
        self.action_copy_as(self.cite_format)

    def action_copy_as(self, fmt: str) -> None:
        """Copy the selected papers, else the one under the cursor, in citation format `fmt` (the palette
        offers each format)."""
        papers = self.targets()
        if not papers:
            self.notify("Nothing to copy", severity="warning")
            return
        self.copy_papers(papers, fmt)

    def action_copy_shown(self) -> None:
        if not self.shown:
            self.notify("Nothing to copy", severity="warning")
            return
        self.copy_papers(list(self.shown), self.cite_format)

    def action_pick_citation(self) -> None:
        from store.cite import citations as cite  # (this module's citing and clipboard are imported when first used:
        from tui.screens.cite_picker import CitePicker  # bibtexparser and the dialogs are no part of the first frame)

        paper = self.query_one(PaperList).current
        if paper is None:
            self.notify("Nothing to copy", severity="warning")
            return

        def picked(fmt: str | None) -> None:
            if fmt:
                self.cite_format = fmt
                self._saver.run(self.store.put_setting, "cite", {"format": fmt})
                self.copy_papers([paper], fmt)

        def preview(fmt: str) -> str:
            try:  # (a text read again is the detail pane's worker's: tui.rereading)
                return cite.render([paper], fmt, self.citation_keys) if at_hand(paper) else READING
            except ReadError as exc:
                return str(exc)

        self._once_keyed(lambda: self.push_screen(CitePicker(self.cite_format, preview), picked))

    @work(thread=True, group="clipboard", description="copy")  # (not the papers' repr: it reads every text)
    def copy_papers(self, papers: list[Paper], fmt: str) -> None:
        """Put `papers` in format `fmt` on a clipboard (off the UI thread: a clipboard tool may be slow)."""
        from store.cite import citations as cite

        what = cite.FORMATS[fmt] if len(papers) == 1 else f"{cite.FORMATS[fmt]} of {len(papers)} papers"
        if not self.read_whole:  # type: ignore[attr-defined]
            self.call_from_thread(self.notify, WAITING_FOR_THE_LIST)  # (the keys below wait for them)
        elif "citation_keys" not in self.__dict__ and len(self.collection.papers) >= KEYS_AT_OPEN:  # (seconds of work)
            self.call_from_thread(self.notify, ASSIGNING)
        try:
            rendered = cite.render(papers, fmt, self.citation_keys)
        except ReadError as exc:  # (a text of a reopened list's damaged cache, the list gone since: tui.rereading)
            self.call_from_thread(self.notify, f"Not copied: {exc}", severity="error", markup=False)
            return
        except Stopped:  # (the app is quitting)
            return
        self.copy_text(rendered, what)

    def copy_text(self, text: str, what: str) -> None:
        """Copy from a worker thread and tell the user what was copied and how ("BibTeX copied (OSC 52)")."""
        from tui import clipboard

        try:
            how = clipboard.copy(text, lambda t: self.call_from_thread(self.copy_to_clipboard, t))
        except clipboard.ClipboardError as exc:
            self.call_from_thread(self.notify, f"Not copied: {exc}", severity="error", markup=False)
            return
        self.call_from_thread(self.notify, f"{what} copied ({how})", markup=False)

    def action_open_link(self) -> None:
        paper = self.query_one(PaperList).current
        if paper is None or not paper.links:
            self.notify("This paper has no link", severity="warning")
            return
        self.open_link(paper.links[0])

    def action_open_pdf(self) -> None:
        paper = self.query_one(PaperList).current
        if paper is None or not paper.pdf:
            self.notify("This paper has no PDF link", severity="warning")
            return
        self.open_link(paper.pdf)

    @work(thread=True, group="browser")
    def open_link(self, url: str) -> None:
        """Open `url` in the browser; with none (a server over SSH), copy the link instead.

        Without a display only a console browser could open, and it would fight the app for the
        terminal: then only a browser the user named in $BROWSER is tried."""
        graphical = sys.platform in ("darwin", "win32") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        if (graphical or os.environ.get("BROWSER")) and webbrowser.open(url):
            self.call_from_thread(self.notify, f"Opened {url}", markup=False)
            return
        self.copy_text(url, "No browser here: link")

    def action_export_shown(self) -> None:
        from store.cite import export
        from tui.screens.export_dialog import ExportDialog

        papers = list(self.shown)
        if not papers:
            self.notify("Nothing to export", severity="warning")
            return

        def write(path: str, force: bool) -> str:
            path = os.path.expanduser(path)
            fmt = export.format_for(path)
            whole = len(papers) == len(self.collection.papers) and all(map(operator.is_, papers, self.collection.papers))
            # as `triage export` writes it: in parts, never held whole; the kept titles when these are the list in its order
            parts = export.parts(papers, fmt, self.states, self.citation_keys, titles=self._bibtex_titles if whole else None)
            export.write(path, parts, force=force)
            return f"{len(papers)} papers written to {path} ({fmt})"

        which = "selected" if self.selection else "shown"
        self._once_keyed(lambda: self.push_screen(ExportDialog(len(papers), write, which),
                                                  lambda done: done and self.notify(done, markup=False)))
