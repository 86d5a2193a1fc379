"""What a triage action changes, field by field, and the marks an app shows before they are durable.

`Change` is what one action did to one paper: the marks it set (with the values they had as the
user saw them) and the tags it added and removed. It is applied to the paper's state as stored at
the moment of writing (read under the store's lock, with what other processes wrote), never as a
whole copy of the paper: a star set in one window, a priority set in another and a tag added by
`triage set` a moment apart all stay.

Undo is `Change.inverse`, a guarded change: each field goes back to its old value only where it still
holds the value this session set. A field someone else changed since keeps their value (their mark
is newer than the one being undone); the fields no one touched since go back. Redo is guarded the same
way. Tags are sets: an undo takes off the tags the action added and puts back those it removed.

`Unsaved` is the app's side: the changes shown but not yet durable, in order, and the state to show
for each paper (the state the store last returned with the changes still on their way on top).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from store.papers.model import Triage

FIELDS = ("read", "starred", "priority", "dismissed", "note")
"""The marks a change sets by value (tags are added and removed one by one)."""


@dataclass(frozen=True)
class Change:
    """Fields set (`old` → `new` values) and tags `added` / `removed` on one paper, at time `stamp`.
    `guarded`: set a field only where it still holds its `old` value (an undo or a redo)."""

    old: Mapping[str, Any] = field(default_factory=dict)
    new: Mapping[str, Any] = field(default_factory=dict)
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    stamp: float = 0.0
    guarded: bool = False

    @classmethod
    def between(cls, before: Triage, after: Triage, stamp: float) -> Change:
        """The change that makes `before` (as the user saw it) into `after`."""
        names = [name for name in FIELDS if getattr(before, name) != getattr(after, name)]
        return cls(
            old={name: getattr(before, name) for name in names},
            new={name: getattr(after, name) for name in names},
            added=tuple(tag for tag in after.tags if tag not in before.tags),
            removed=tuple(tag for tag in before.tags if tag not in after.tags),
            stamp=stamp,
        )

    def __bool__(self) -> bool:
        return bool(self.new or self.added or self.removed)

    def apply(self, state: Triage) -> Triage:
        """`state` with this change made (its `updated` the change's stamp); `state` itself when that
        changes nothing."""
        marks = {
            name: value for name, value in self.new.items()
            if not self.guarded or getattr(state, name) == self.old[name]
        }
        tags = tuple(tag for tag in dict.fromkeys([*state.tags, *self.added]) if tag not in self.removed)
        changed = replace(state, **marks, tags=tags)
        return replace(changed, updated=self.stamp) if changed != state else state

    def inverse(self, stamp: float) -> Change:
        """The undo of this change, guarded: it leaves a field someone changed since alone."""
        return Change(self.new, self.old, self.removed, self.added, stamp, guarded=True)

    def again(self, stamp: float) -> Change:
        """The redo of this change after its undo, guarded the same way."""
        return replace(self, stamp=stamp, guarded=True)


class Unsaved:
    """The changes an app shows before the store has them durably, in the order they were made.

    `add` queues one action's changes and gives the states to show now; `settle` takes them off when
    the store acknowledges them (or failed to store them) and gives the states to show then; `merge`
    does the same for states other processes stored. A paper is `in` this while one of its changes is
    on its way.
    """

    def __init__(self) -> None:
        self._serial = 0
        self._queue: dict[int, dict[str, Change]] = {}
        self._base: dict[str, Triage] = {}
        """Per paper with changes on their way: its state as the store last gave it."""

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._base

    def __len__(self) -> int:
        """The number of papers with changes not yet durable."""
        return len(self._base)

    def __iter__(self) -> Iterator[str]:
        return iter(self._base)

    def add(self, changes: Mapping[str, Change], shown: Callable[[str], Triage]) -> tuple[int, dict[str, Triage]]:
        """Queue one action's `changes` to papers now shown as `shown(id)`: its serial, the states to show."""
        self._serial += 1
        for paper_id in changes:
            self._base.setdefault(paper_id, shown(paper_id))
        self._queue[self._serial] = dict(changes)
        return self._serial, {paper_id: self._state(paper_id) for paper_id in changes}

    def settle(self, serial: int, stored: Mapping[str, Triage] | None) -> dict[str, Triage]:
        """Action `serial` is durable and the store gave back `stored`, or it failed (`stored` None):
        the states to show for its papers."""
        changes = self._queue.pop(serial)
        if stored is not None:
            self._base.update((paper_id, stored[paper_id]) for paper_id in changes if paper_id in stored)
        states = {paper_id: self._state(paper_id) for paper_id in changes}
        waiting = {paper_id for queued in self._queue.values() for paper_id in queued}
        for paper_id in changes.keys() - waiting:
            del self._base[paper_id]
        return states

    def merge(self, stored: Mapping[str, Triage]) -> dict[str, Triage]:
        """States other processes stored (read after every change settled so far): the states to show."""
        for paper_id in stored.keys() & self._base.keys():
            self._base[paper_id] = stored[paper_id]
        return {paper_id: self._state(paper_id) if paper_id in self._base else state for paper_id, state in stored.items()}

    def _state(self, paper_id: str) -> Triage:
        state = self._base[paper_id]
        for changes in self._queue.values():
            if paper_id in changes:
                state = changes[paper_id].apply(state)
        return state
