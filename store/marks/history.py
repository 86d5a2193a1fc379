"""Undo and redo of triage actions within a session: a stack of actions, each the `Change` it made to each paper.

An undo is each change's guarded inverse (see `store.marks.changes`): it reverts only the fields this session
changed and no one has changed since, so a mark another window or `triage set` made meanwhile stays.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from store.marks.changes import Change

Action = dict[str, Change]


class History:
    """Many levels of undo/redo. An action is the change it made to each paper, by paper id."""

    def __init__(self) -> None:
        self._undo: list[Action] = []
        self._redo: list[Action] = []

    def record(self, changes: Mapping[str, Change]) -> None:
        """Remember an action just done; a new action forgets what was undone."""
        self._undo.append(dict(changes))
        self._redo.clear()

    def undo(self, stamp: float) -> Action | None:
        """The changes that undo the last action, made at `stamp` (None when there is nothing to undo)."""
        return self._move(self._undo, self._redo, lambda change: change.inverse(stamp))

    def redo(self, stamp: float) -> Action | None:
        """The changes that redo the last undone action, made at `stamp` (None when there is nothing to redo)."""
        return self._move(self._redo, self._undo, lambda change: change.again(stamp))

    @staticmethod
    def _move(source: list[Action], target: list[Action], made: Callable[[Change], Change]) -> Action | None:
        if not source:
            return None
        action = source.pop()
        target.append(action)
        return {paper_id: made(change) for paper_id, change in action.items()}
