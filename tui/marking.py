"""The triage keys on the paper under the cursor, and how a mark becomes durable.

Owns the marks shown (`state_of`, `_show`: what the writer thread's `Saver` reports shown), `change`
(a triage action: shown at once, one undo step, written on the writer thread), undo and redo, and the
keys `space` `r` `s` `d` `1`–`5` `0` `n` `N` `u` `ctrl+r` `e` `t` `R`. `MarkingActions` is a mixin of
`TriageApp`, which owns the state it reads; while papers are selected the keys go to tui.selection.
"""
from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from store.papers.model import Triage
from store.marks.changes import Change
from store.marks.history import History
from store.search.views import Tally, to_read
from store.marks.clock import now
from tui.saving import Saver
from tui.screens.dialogs import Confirm, NoteEditor, TagEditor
from tui.widgets.paper_list import PaperList
from tui.widgets.status import StatusLine

NO_MARKS = Triage()
EDITORS = {"note": NoteEditor, "tags": TagEditor}


class MarkingActions:
    """The triage keys (see TriageApp's key table) and `change`, which every mark goes through."""

    states: dict[str, Triage]
    history: History
    _saver: Saver
    _tallies: dict[str, Tally]
    _ui: tuple[asyncio.AbstractEventLoop, contextvars.Context] | None

    def state_of(self, paper_id: str) -> Triage:
        return self.states.get(paper_id, NO_MARKS)

    def _show(self, states: Mapping[str, Triage]) -> None:
        """Make `states` the marks shown: rows (saved or not), counts and detail change now."""
        paper_list = self.query_one(PaperList)
        changed = {paper_id: state for paper_id, state in states.items() if state != self.state_of(paper_id)}
        changes = {paper_id: (self.state_of(paper_id), state) for paper_id, state in changed.items()}
        for tally in {id(tally): tally for tally in self._tallies.values()}.values():  # each once
            tally.change(changes)
        for paper_id, state in changed.items():
            if state.blank:
                self.states.pop(paper_id, None)
            else:
                self.states[paper_id] = state
        paper_list.refresh_papers(states)
        self._show_updated()  # type: ignore[attr-defined]  # (a later version marked is no longer updated: `TriageStore.put`)
        self._show_counts()
        self.query_one(StatusLine).show_saving(len(self._saver.unsaved))
        current = paper_list.current
        if current is not None and current.id in states:
            self._show_state(current.id)
        if changed:  # a write acknowledged as shown changes no mark
            self._rank(dict(self.states))

    def change(self, states: Mapping[str, Triage], seen: Mapping[str, Triage] | None = None) -> None:
        """A triage action: the fields it changes from the states the user `seen` (those shown now by default)
        are shown at once, remembered for undo and stored durably, made to the state stored by then."""
        stamp = now()
        seen = seen or {pid: self.state_of(pid) for pid in states}
        changes = {pid: Change.between(seen[pid], state, stamp) for pid, state in states.items()}
        changes = {pid: change for pid, change in changes.items() if change}
        if changes:
            self.history.record(changes)
            self._saver.save(changes, self.state_of)
            if any(change.new.get("dismissed") for change in changes.values()):
                self.dismissed_some()  # type: ignore[attr-defined]  (a rule to propose: tui.rules)

    @property
    def saving(self) -> bool:
        """Whether a mark shown is not yet durable."""
        return bool(self._saver.unsaved)

    def _from_writer(self, callback: Callable[[], None]) -> None:
        """Run `callback` on the app's thread soon (from another thread), unless the app has stopped by then; in
        the app's context (Textual's active app: a timer the callback sets fails without it)."""
        if self._ui is not None and not (loop := self._ui[0]).is_closed():
            loop.call_soon_threadsafe(lambda: callback() if self.is_running else None, context=self._ui[1].copy())

    def _current(self) -> tuple[str, Triage] | None:
        paper = self.query_one(PaperList).current
        return (paper.id, self.state_of(paper.id)) if paper is not None else None

    def _set_current(self, **marks: Any) -> None:
        current = self._current()
        if current is not None:
            self.change({current[0]: replace(current[1], **marks)})

    def action_toggle_read(self) -> None:
        self.toggle_mark("read", "Marked read", "Marked unread")

    def action_toggle_star(self) -> None:
        self.toggle_mark("starred", "Starred", "Unstarred")

    def action_dismiss(self) -> None:
        """Mark the paper not for me and go on to the next unread, as mutt's `d` does; or take the mark off."""
        if self.selection:
            self.toggle_mark("dismissed", "Marked not for me", "Took not for me off")
            return
        current = self._current()
        if current is not None:
            self._set_current(dismissed=not current[1].dismissed)
            if not current[1].dismissed:
                self.action_next_unread()

    def action_priority(self, priority: int) -> None:
        verb = f"Gave priority {priority} to" if priority else "Cleared the priority of"
        self.bulk(verb, lambda state: replace(state, priority=priority))

    def action_read_next(self) -> None:
        self._set_current(read=True)
        self.action_next_unread()

    def _go_to_unread(self, step: int) -> None:
        paper_list = self.query_one(PaperList)
        papers = paper_list.papers
        for k in range(1, len(papers) + 1):
            index = (paper_list.cursor + step * k) % len(papers)
            if to_read(self.state_of(papers[index].id)):
                paper_list.cursor = index
                return
        self.notify("No unread papers shown.")

    def action_next_unread(self) -> None:
        self._go_to_unread(1)

    def action_previous_unread(self) -> None:
        self._go_to_unread(-1)

    def _restore(self, changes: dict[str, Change] | None, what: str) -> None:
        if changes is None:
            self.notify(f"Nothing to {what}.")
            return
        self._saver.save(changes, self.state_of)
        if len(changes) == 1:
            index = self.query_one(PaperList).index_of(next(iter(changes)))
            if index is not None:
                self.query_one(PaperList).cursor = index

    def action_undo(self) -> None:
        self._restore(self.history.undo(now()), "undo")

    def action_redo(self) -> None:
        self._restore(self.history.redo(now()), "redo")

    def action_edit(self, mark: str) -> None:
        """Open the editor of the current paper's `note` or `tags`; saving it is a triage action."""
        paper = self.query_one(PaperList).current
        if self.selection and mark == "tags":
            self.add_tags()
            return
        if paper is None:
            return

        seen = self.state_of(paper.id)

        def edited(value: object) -> None:  # what changed from the value the editor opened with
            if value is not None:
                self.change({paper.id: replace(seen, **{mark: value})}, {paper.id: seen})

        self.push_screen(EDITORS[mark](paper.title, getattr(seen, mark)), edited)

    def action_read_all(self) -> None:
        papers = self.query_one(PaperList).papers
        unread = [paper.id for paper in papers if not self.state_of(paper.id).read]
        if not unread:
            self.notify(f"All {len(papers)} papers shown are read.")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.change({pid: replace(self.state_of(pid), read=True) for pid in unread})

        self.push_screen(Confirm(f"Mark {len(unread)} unread of the {len(papers)} papers shown as read?"), answered)
