"""The app's writes to its store: one writer thread, in order; the marks shown before they are durable;
and the writes another process's hold on the database (or a full disk) keeps from being saved yet.

A triage action's changes are shown at once and kept in `unsaved` (see `store.marks.changes`) until the
writer has made them in the store, field by field under its lock, and fsynced; the app then shows the
state the store returned (with the changes still on their way on top), so a mark shown as saved is on
disk. A job that meets the database locked past the store's wait (`Locked`) or a write that cannot be
stored for now (`NotSaved`: a full disk, a database that is only read) waits, with every job after it,
so that marks reach the database in the order they were made; each poll retries them from the first,
and the user is told when they start waiting and when they are saved. Marks other processes stored
are picked up on the same thread once nothing waits. At close, a long job that is only worth its result while the
app runs (the whole list's attach: `closing`) is given up, so the writes behind it are made at once.
"""
from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from store.marks.changes import Change, Unsaved
from store.marks.db import TriageStore
from store.common.errors import Locked, NotSaved, Stopped
from store.papers.model import Triage
from store.search.views import Members

Post = Callable[[Callable[[], None]], None]
"""Run a callback on the app's thread (from the writer thread)."""
WAIT_SECONDS = 2.0
"""At most this long (less when `$TRIAGE_LOCK_TIMEOUT` says so) a store job of the app waits for the lock."""


class Saver:
    """Writes for one app: `save` a triage action's changes, `run` any other store job, `poll` for others' marks.

    `papers()` holds the ids of the papers the app has (those it shows marks of: a long list's head's until the whole
    list lands). `show(states)`, `warn(message)` and `tell(message, severity)` are called on the app's thread (through
    `post`): `show` with the marks to show for the papers a write, a failed write or another process changed.
    """

    def __init__(self, store: TriageStore, papers: Callable[[], Members], post: Post,
                 show: Callable[[Mapping[str, Triage]], None], warn: Callable[[str], None],
                 tell: Callable[[str, str], None]) -> None:
        self.store = store
        store.lock_timeout = min(store.lock_timeout, WAIT_SECONDS)  # the UI never waits on it
        self.unsaved = Unsaved()
        self.waiting: deque[Callable[[], None]] = deque()
        """Jobs not done yet because `blocked`, in the order they were made (writer thread only)."""
        self.blocked: Locked | NotSaved | None = None
        """Why the first waiting job could not be done at its last try; None when nothing waits."""
        self._papers = papers
        self._post = post
        self._show = show
        self._warn = warn
        self._tell = tell
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="triage-store")
        self._closed = False
        self.closing = threading.Event()
        """Set at close: a job given it as its `stop` (`TriageStore.attach`'s) gives up (`Stopped`), and is not told."""
        self._polling = False
        self._told = len(store.notices)

    def save(self, changes: Mapping[str, Change], shown: Callable[[str], Triage]) -> None:
        """Show `changes` (to papers now shown as `shown(id)`) as unsaved at once, then store them."""
        serial, states = self.unsaved.add(changes, shown)
        self._show(states)
        self._thread.submit(self._drain, partial(self._write, serial, dict(changes)))

    def run(self, job: Callable[..., Any], *args: Any) -> None:
        """Run a store job on the writer thread (nothing once closed); a failure is told, never a crash."""
        if not self._closed:
            self._thread.submit(self._drain, partial(self._guarded, job, *args))

    def refresh(self, job: Callable[[], Mapping[str, Triage]]) -> None:
        """Run a store job that changes marks (a sync with other devices) on the writer thread, in turn
        with the writes, then show the states it returns for the papers of the list."""
        self.run(self._refreshed, job)

    def _refreshed(self, job: Callable[[], Mapping[str, Triage]]) -> None:
        self.show_stored(job())

    def show_stored(self, done: Mapping[str, Triage]) -> None:
        """Show the states a store job stored (on any thread: a sync runs on its own) for the papers of the
        list, with the changes still on their way on top; a paper sharing a marked paper's state (`TriageStore.shares`) too."""
        done = {**done, **{pid: done[key] for pid, key in self.store.shares.items() if key in done}}
        states = {pid: done[pid] for pid in self._papers().among(done.keys())}  # (at once: no look-up made for them)
        if states:
            self._post(lambda: self._show(self.unsaved.merge(states)))

    def poll(self) -> None:
        """Retry what waits, then pick up the marks other processes stored since the last poll (one at a time)."""
        if not self._closed and not self._polling:
            self._polling = True
            self._thread.submit(self._poll)

    def _drain(self, job: Callable[[], None] | None) -> None:
        """Queue `job` (None: a retry) and do the waiting jobs, oldest first, until one is blocked. A job
        behind blocked ones waits for the next retry: a stopped lock holder costs a wait per poll, not per mark."""
        if job is not None:
            first_mark = self._is_mark(job) and not self._marks_wait()
            self.waiting.append(job)
            if self.blocked is not None:
                if first_mark:  # (what waited was no mark: the first one is told of)
                    self._post(partial(self._tell, f"Marks not saved yet: {self.blocked}; retrying.", "warning"))
                return
        before, self.blocked = self.blocked, None
        marks = self._marks_wait()
        while self.waiting:
            try:
                self.waiting[0]()
            except (Locked, NotSaved) as exc:
                self.blocked = exc
                break
            self.waiting.popleft()
        # (a store job that is no mark, the list's place and view kept for the next start, a setting: not called one)
        what = "Marks" if marks else "Changes"
        if self.blocked is not None and before is None:
            self._post(partial(self._tell, f"{what} not saved yet: {self.blocked}; retrying.", "warning"))
        elif before is not None and self.blocked is None:
            self._post(partial(self._tell, f"{what} saved: the changes that were waiting are stored.", "information"))

    def _is_mark(self, job: Callable[[], None]) -> bool:
        """Whether `job` stores a triage action's changes (`save`'s writes)."""
        return getattr(job, "func", None) == self._write

    def _marks_wait(self) -> bool:
        """Whether a triage action's changes are among the jobs waiting."""
        return any(map(self._is_mark, self.waiting))

    def _write(self, serial: int, changes: dict[str, Change]) -> None:
        try:
            stored, error = self.store.apply(changes), None
        except (Locked, NotSaved):
            raise  # it waits (`_drain`), still shown as unsaved
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

    def _guarded(self, job: Callable[..., Any], *args: Any) -> None:
        try:
            job(*args)
        except (Locked, NotSaved):
            raise
        except Stopped:
            pass  # (at close: see `closing`)
        except Exception as exc:  # noqa: BLE001 - any failure to save must reach the user
            self._post(partial(self._warn, f"Not saved: {exc}"))

    def _poll(self) -> None:
        self._polling = False
        self._drain(None)
        if self.waiting:
            return
        try:
            changed = self.store.external_changes()
            changes = {pid: changed[pid] for pid in self._papers().among(changed.keys())}
        except Locked:
            return  # the next poll
        except Exception as exc:  # noqa: BLE001 - as in `_guarded`
            self._post(partial(self._warn, f"Marks of other windows not read: {exc}"))
            return
        for notice in self.store.take_notices():  # the database damaged or unreadable meanwhile: at once
            self._post(partial(self._tell, notice, "error"))
        if changes:
            self._post(lambda: self._show(self.unsaved.merge(changes)))

    def close(self, last: Callable[[], list[str]] | None = None) -> tuple[list[str], int]:
        """Wait for the writes queued so far (a job given `closing` gives up), try once more what waits, and when
        nothing does run `last` (a sync; it gives lines for stderr) and close the store: the lines to say on stderr
        once the app has quit (what could not be saved, the store's late notices) and how many papers' mark changes
        were not saved."""
        self._closed = True
        self.closing.set()
        self._thread.shutdown(wait=True)
        self._post = lambda callback: None  # the app is going: nothing more to show
        self._drain(None)
        farewell, marks = [], 0
        if self.waiting:
            marks = sum(len(job.args[1]) for job in self.waiting if getattr(job, "func", None) == self._write)
            what = f"{marks} mark change{'s' if marks != 1 else ''} made in the app" if marks else "the session (cursor, query, view)"
            farewell.append(f"triage: {what} could not be saved: {self.blocked}")
        else:
            if last is not None:
                farewell += last()
            with contextlib.suppress(Locked):  # every change is in the journal: folding it in can wait
                self.store.close()
        farewell += [f"triage: {notice}" for notice in self.store.notices[self._told :]]
        return farewell, marks
