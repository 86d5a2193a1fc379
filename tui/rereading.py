"""The detail pane's paper, shown without waiting for its text: a reopened list keeps its abstracts (and a record's
other fields) in its texts entry (`store.readers.texts_entry`), read when asked; a chunk of it found damaged since the
open is read again from the list, a parse of the whole list (seconds at 100,000 papers). The pane then shows the
paper with a line saying so in place of its abstract while a worker thread reads it, and the paper in full once it is
read, if it is still the one under the cursor; the app's keys go on meanwhile. When it cannot be read (the list gone,
unreadable or changed since), the pane says the text is not available and a notice gives the one line why
(`tell_unavailable`, once a line: the workers that need every text, For you's and the open's index, tell it so too).

A mixin of `TriageApp`, which owns the detail pane and what it shows of a paper (`_hit_of`, `_marks_shown`)."""
from __future__ import annotations

from collections.abc import Callable

from textual import work

from store.common.errors import ReadError
from store.papers.model import Paper, at_hand
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList

READING = "Reading the abstract again…"
"""What the pane shows in place of an abstract being read again."""
NOT_AVAILABLE = "This abstract is not available: {}"
"""What it shows in place of an abstract that cannot be read (the one line why)."""


class Rereading:
    """`show_paper`: the detail pane's paper, its text read on a worker thread when reading it would wait."""

    _from_writer: Callable[[Callable[[], None]], None]
    _hit_of: Callable
    _marks_shown: Callable

    def show_paper(self, paper: Paper | None, problem: ReadError | None = None) -> None:
        """Show `paper` in the detail pane: in full when its text is at hand, else with a line in place of its
        abstract (`problem`: why it cannot be read) while a worker reads it (once)."""
        pane = self.query_one(DetailPane)  # type: ignore[attr-defined]
        if paper is None:
            pane.show(None)
            return
        hit, marks = self._hit_of(paper), self._marks_shown(paper.id)
        if problem is None:
            try:
                if at_hand(paper):
                    pane.show(paper, hit, marks)
                    return
            except ReadError as exc:
                problem = exc
                self.tell_unavailable(problem)
        pane.show(paper, hit, marks, instead=READING if problem is None else NOT_AVAILABLE.format(problem))
        if problem is None:
            self._read_again(paper)

    @work(thread=True, exclusive=True, group="read-again", description="the abstract read again")  # (not its repr: the text)
    def _read_again(self, paper: Paper) -> None:
        problem = None
        try:
            paper.text, paper.fields  # noqa: B018 - reading them (the list read again) is the point
        except ReadError as exc:
            problem = exc
        self._from_writer(lambda: self._read(paper, problem))

    def _read(self, paper: Paper, problem: ReadError | None) -> None:
        """The text of `paper` read again, or why not: shown if it is still the paper under the cursor."""
        if problem is not None:
            self.tell_unavailable(problem)
        if self.query_one(PaperList).current is paper:  # type: ignore[attr-defined]
            self.show_paper(paper, problem)

    def tell_unavailable(self, problem: ReadError) -> None:
        """A notice of `problem` (texts not available: of the pane's paper, or that a worker needed), unless it was
        told already (not once for each paper of a chunk)."""
        told = self.__dict__.setdefault("_told_lines", set())
        if str(problem) not in told:
            told.add(str(problem))
            self.notify(str(problem), title="List cache", severity="error", timeout=20, markup=False)  # type: ignore[attr-defined]
