"""The app's sync with the user's other devices through a folder (`store.sync.folder`): when it opens and when
it closes, on the store's writer thread (the list is shown and takes keys meanwhile); the marks that
came in are shown, and the status line says when it last synced."""
from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from store.marks.db import TriageStore
from store.common.errors import Locked, NotSaved, ReadError
from store.papers.model import Triage
from store.sync.folder import Synced, last_synced, sync
from tui.saving import Post, Saver


def clock(stamp: float) -> str:
    """A time as the status line says it: 10:42 today, else Dec 01 10:42."""
    local = time.localtime(stamp)
    today = time.localtime()[:3] == local[:3]
    return time.strftime("%H:%M" if today else "%b %d %H:%M", local)


class AppSync:
    """Syncs `store` through `folder`: `start` on open (on the writer thread), `at_close` on close.
    `status(text)` and `tell(message, severity)` are called on the app's thread, through `post`."""

    def __init__(self, folder: str, store: TriageStore, saver: Saver, post: Post,
                 status: Callable[[str], None], tell: Callable[[str, str], None]) -> None:
        self.folder = folder
        self._store = store
        self._saver = saver
        self._post = post
        self._status = status
        self._tell = tell

    def start(self) -> None:
        self._status("syncing…")
        self._saver.refresh(self._job)

    def _job(self) -> dict[str, Triage]:
        try:
            report = sync(self._store, self.folder)
        except ReadError as exc:
            self._post(partial(self._failed, str(exc)))
            return {}
        self._post(partial(self._synced, report))
        return {pid: after for pid, (_, after) in report.changed.items()}

    def _synced(self, report: Synced) -> None:
        self._status(f"synced {clock(report.at)}")
        for line in report.skipped:
            self._tell(f"Sync: {line}", "warning")

    def _failed(self, message: str) -> None:
        last = last_synced(self._store)
        self._status("not synced" + (f" (last {clock(last)})" if last else ""))
        self._tell(f"Not synced: {message}", "error")

    def at_close(self) -> list[str]:
        """Sync once more (the marks of this session out to the folder): the lines for stderr when that failed."""
        try:
            report = sync(self._store, self.folder)
        except (ReadError, Locked, NotSaved) as exc:
            return [f"triage: not synced with {self.folder}: {exc}"]
        return [f"triage: sync: {line}" for line in report.skipped]
