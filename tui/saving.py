"""The app's writes to its store: one writer thread, in order, and the marks shown before they are durable.

A triage action's changes are shown at once and kept in `unsaved` (see `store.changes`) until the
writer has made them in the store, field by field under its lock, and fsynced; the app then shows the
state the store returned (with the changes still on their way on top), so a mark shown as saved is on
disk. Marks other processes stored are picked up on the same thread, after the writes before them.
"""
from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from store.changes import Change, Unsaved
from store.db import TriageStore
from store.model import Triage

Post = Callable[[Callable[[], None]], None]
"""Run a callback on the app's thread (from the writer thread)."""


class Saver:
    """Writes for one app: `save` a triage action's changes, `run` any other store job, `poll` for others' marks.

    `show(states)` and `warn(message)` are called on the app's thread (through `post`): `show` with the
    marks to show for the papers a write, a failed write or another process changed.
    """

    def __init__(self, store: TriageStore, papers: Container[str], post: Post,
                 show: Callable[[Mapping[str, Triage]], None], warn: Callable[[str], None]) -> None:
        self.store = store
        self.unsaved = Unsaved()
        self._papers = papers
        self._post = post
        self._show = show
        self._warn = warn
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="triage-store")
        self._closed = False

    def save(self, changes: Mapping[str, Change], shown: Callable[[str], Triage]) -> None:
        """Show `changes` (to papers now shown as `shown(id)`) as unsaved at once, then store them."""
        serial, states = self.unsaved.add(changes, shown)
        self._show(states)
        self._thread.submit(self._write, serial, dict(changes))

    def _write(self, serial: int, changes: dict[str, Change]) -> None:
        try:
            stored, error = self.store.apply(changes), None
        except Exception as exc:  # noqa: BLE001 - any failure to save must reach the user
            error = exc
            try:
                stored = {pid: self.store.get(pid) for pid in changes}  # what did reach the disk
            except Exception:  # noqa: BLE001 - then what the app last knew stored
                stored = None
        self._post(partial(self._written, serial, stored, error))

    def _written(self, serial: int, stored: dict[str, Triage] | None, error: Exception | None) -> None:
        self._show(self.unsaved.settle(serial, stored))
        if error is not None:
            self._warn(f"Marks not saved: {error}. The list shows what is stored.")

    def run(self, job: Callable[..., Any], *args: Any) -> None:
        """Run a store job on the writer thread (nothing once closed); a failure is told, never a crash."""
        if not self._closed:
            self._thread.submit(self._guarded, job, *args)

    def _guarded(self, job: Callable[..., Any], *args: Any) -> None:
        try:
            job(*args)
        except Exception as exc:  # noqa: BLE001 - any failure to save must reach the user
            self._post(partial(self._warn, f"Not saved: {exc}"))

    def poll(self) -> None:
        """Pick up the marks other processes stored since the last poll (of the app's papers), and show them."""
        self.run(self._pick_up)

    def _pick_up(self) -> None:
        changes = {pid: state for pid, state in self.store.external_changes().items() if pid in self._papers}
        if changes:
            self._post(lambda: self._show(self.unsaved.merge(changes)))

    def close(self) -> None:
        """Wait for the writes queued so far; later `run`s do nothing."""
        self._closed = True
        self._thread.shutdown(wait=True)
