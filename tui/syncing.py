"""The app's sync with the user's other devices through a folder (`store.sync.folder`): when it opens and when
it closes, each on a thread of its own (the list is shown and takes keys meanwhile); the marks that
came in are shown, and the status line says when it last synced.

Never on the writer thread: a sync reads and writes a folder others write to, which may be slow or
stuck (a network folder, a sync tool holding a file), and a mark's durability must not wait for it.
A sync only holds the store's lock to merge what it read (`store.sync.folder`). At close the app waits for
a sync at most `CLOSE_WAIT` seconds, then quits saying so (every mark is in the database already;
`triage sync` exchanges them later)."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial

from store.marks.db import TriageStore
from store.common.errors import Locked, NotSaved, ReadError
from store.sync.folder import Synced, last_synced, sync
from tui.saving import Post, Saver

CLOSE_WAIT = 1.0
"""The longest `q` waits for a sync (the one begun at open, then the one at close)."""


def clock(stamp: float) -> str:
    """A time as the status line says it: 10:42 today, else Dec 01 10:42."""
    local = time.localtime(stamp)
    today = time.localtime()[:3] == local[:3]
    return time.strftime("%H:%M" if today else "%b %d %H:%M", local)


class AppSync:
    """Syncs `store` through `folder`: `start` on open, `at_close` on close, each on a thread of its own.
    `status(text)` and `tell(message, severity)` are called on the app's thread, through `post`."""

    def __init__(self, folder: str, store: TriageStore, saver: Saver, post: Post,
                 status: Callable[[str], None], tell: Callable[[str, str], None]) -> None:
        self.folder = folder
        self._store = store
        self._saver = saver
        self._post = post
        self._status = status
        self._tell = tell
        self._thread: threading.Thread | None = None
        self._outcome: Synced | Exception | None = None

    def start(self) -> None:
        self._status("syncing…")
        self._begin(self._job)

    def _begin(self, job: Callable[[], None]) -> None:
        # A daemon thread: a sync stuck on the folder must not keep the process alive once the app quits.
        self._thread = threading.Thread(target=job, name="triage-sync", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        """One sync; its report, or the error that ended it, in `_outcome`."""
        try:
            self._outcome = sync(self._store, self.folder)
        except (ReadError, Locked, NotSaved) as exc:
            self._outcome = exc
        except Exception as exc:  # noqa: BLE001 - a sync must never take the app (or its saving) down
            self._outcome = RuntimeError(f"{type(exc).__name__}: {exc}")

    def _job(self) -> None:
        self._run()
        report = self._outcome
        if not isinstance(report, Synced):
            self._post(partial(self._failed, str(report)))
            return
        self._post(partial(self._synced, report))
        # Shown in turn with the writer's jobs (quick: nothing to write), so that states a job read before
        # the sync merged are never shown after the sync's.
        self._saver.run(self._saver.show_stored, {pid: after for pid, (_, after) in report.changed.items()})

    def _synced(self, report: Synced) -> None:
        self._status(f"synced {clock(report.at)}")
        for line in report.skipped + report.told:
            self._tell(f"Sync: {line}", "warning")

    def _failed(self, message: str) -> None:
        last = last_synced(self._store)
        self._status("not synced" + (f" (last {clock(last)})" if last else ""))
        self._tell(f"Not synced: {message}", "error")

    def at_close(self) -> list[str]:
        """Sync once more (the marks of this session out to the folder), waiting at most `CLOSE_WAIT`
        seconds in all: the lines for stderr when it failed, skipped files, or is still running."""
        deadline = time.monotonic() + CLOSE_WAIT
        if self._thread is not None:
            self._thread.join(CLOSE_WAIT)
            if self._thread.is_alive():
                return [f"triage: not synced with {self.folder}: the sync begun at open is still running"
                        f" after {CLOSE_WAIT:g} s (a slow or stuck folder?); every mark is saved in the database"]
        self._outcome = None
        self._begin(self._run)
        assert self._thread is not None
        self._thread.join(max(0.0, deadline - time.monotonic()))
        report = self._outcome
        if self._thread.is_alive():
            return [f"triage: not synced with {self.folder}: still syncing after {CLOSE_WAIT:g} s (a slow or stuck"
                    " folder?); every mark is saved in the database, `triage sync` sends them"]
        if not isinstance(report, Synced):
            return [f"triage: not synced with {self.folder}: {report}"]
        return [f"triage: sync: {line}" for line in report.skipped + report.told]
