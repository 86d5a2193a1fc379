"""The app's store jobs that could not be saved yet: kept in order and tried again, never dropped.

A job meets another process holding the database's lock past the store's wait (`Locked`), or a
write that cannot be stored for now (`NotSaved`: a full disk, a database that is only read). It
then waits here with every job after it, so that marks reach the database in the order they were
made; each retry (the app's poll) runs them again from the first. Used on the writer thread only.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable

from store.errors import Locked, NotSaved

WAIT_SECONDS = 2.0
"""At most this long (less when `$TRIAGE_LOCK_TIMEOUT` says so) a store job of the app waits for the lock."""


class Unsaved:
    """Store jobs waiting, in order, for what blocks them (`blocked`) to pass."""

    def __init__(self) -> None:
        self.jobs: deque[Callable[[], object]] = deque()
        self.blocked: Locked | NotSaved | None = None
        """Why the first job could not be saved at its last try; None when nothing waits."""

    def run(self, job: Callable[[], object] | None, failed: Callable[[Exception], None]) -> None:
        """Queue `job`, and run the jobs waiting, oldest first, until one is blocked (then all stay).

        `job` None is a retry. A new job behind blocked ones waits for the next retry, so a stopped
        lock holder costs one wait per retry, not one per mark. `failed` is told of any other failure
        (the job is dropped)."""
        if job is not None:
            self.jobs.append(job)
            if self.blocked is not None:
                return
        self.blocked = None
        while self.jobs:
            try:
                self.jobs[0]()
            except (Locked, NotSaved) as exc:
                self.blocked = exc
                return
            except Exception as exc:  # noqa: BLE001 - any failure to save must reach the user
                failed(exc)
            self.jobs.popleft()
