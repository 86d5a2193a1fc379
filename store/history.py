"""Undo and redo of triage actions within a session: a stack of (before, after) states per action."""
from __future__ import annotations

from collections.abc import Mapping

from store.model import Triage

Action = tuple[dict[str, Triage], dict[str, Triage]]


class History:
    """Many levels of undo/redo. An action is the states of the papers it changed, before and after."""

    def __init__(self) -> None:
        self._undo: list[Action] = []
        self._redo: list[Action] = []

    def record(self, before: Mapping[str, Triage], after: Mapping[str, Triage]) -> None:
        """Remember an action just done; a new action forgets what was undone."""
        self._undo.append((dict(before), dict(after)))
        self._redo.clear()

    def undo(self) -> dict[str, Triage] | None:
        """The states that undo the last action (None when there is nothing to undo)."""
        return self._move(self._undo, self._redo, 0)

    def redo(self) -> dict[str, Triage] | None:
        """The states that redo the last undone action (None when there is nothing to redo)."""
        return self._move(self._redo, self._undo, 1)

    @staticmethod
    def _move(source: list[Action], target: list[Action], side: int) -> dict[str, Triage] | None:
        if not source:
            return None
        action = source.pop()
        target.append(action)
        return dict(action[side])
