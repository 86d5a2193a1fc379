"""The worker processes behind an open list (`tui.loading`): what they need started before the app draws (the
resource tracker, the fork server the parse's workers are forked from), how a parse behind the list uses them, and
each ended once the open no longer needs it (`forkserver_stopped`, `tracker_stopped`, `ended` at quit, `ending_with`
when the app is hung up on or told to end). They are the only processes the app starts."""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from multiprocessing import forkserver, resource_tracker, synchronize, util

from store.readers import records

_behind = False
"""Whether a parse runs within `behind_the_list` (what `ended` ends with its workers)."""
_ending = threading.Lock()
SERVER_PARENT = "TRIAGE_FORK_SERVER_PARENT"
"""The variable naming the app's process to the fork server it starts (`safe_path`): `tui.fork_server` ends the server
with it."""
WORKERS_FROM = 2 * records.CHUNK
"""Behind the list, a parse of this many abstracts and more is split over worker processes."""


def prepare(parsing: bool) -> None:
    """What the parse's worker processes need, started now. The tracker they report to: started from the
    app, whose standard error is no file any more, it could not be. And, when the lists will be parsed
    (not read from the cache), what the workers are forked from: a small process with the analysis
    loaded that forks each at once (sharing its pages, holding only the texts each is sent), started
    beside the app while it draws (else it starts with the first parse)."""
    with safe_path():
        resource_tracker.ensure_running()
    if "forkserver" in multiprocessing.get_all_start_methods():
        multiprocessing.set_forkserver_preload(["store.readers.records", "store.papers.names", "store.papers.text",
                                                "tui.fork_server"])
        if parsing:
            with safe_path():
                forkserver.ensure_running()


@contextmanager
def safe_path() -> Iterator[None]:
    """Within the block, a process multiprocessing starts (`python -c …`: the tracker, the fork server) imports nothing
    from the folder `triage` runs in (PYTHONSAFEPATH, Python 3.11 and later): the path of such a command starts with
    that folder, and the fork server (which ignores the path it is given) imported a `store` or `tui` package there —
    another checkout of this project, any project's own `store` — for the workers, which died on it (the parse then
    fell back to this one process, ~2.5 times as long at 100,000 abstracts). And the fork server is told which process
    is the app (`SERVER_PARENT`)."""
    told = {"PYTHONSAFEPATH": "1", SERVER_PARENT: str(os.getpid())}
    before = {name: os.environ.get(name) for name in told}
    os.environ.update(told)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def forkserver_stopped() -> None:
    """The server the parse's worker processes were forked from (`prepare`), ended once the list is read:
    nothing else is forked from it, and it held ~40 MB through the indexing (another parse would start it again)."""
    stop = getattr(forkserver._forkserver, "_stop", None)  # (CPython's own, with no public name)
    if stop is not None:
        stop()


@contextmanager
def behind_the_list() -> Iterator[None]:
    """Within the block, a parse uses every core from a few thousand abstracts (`records.PARALLEL_FROM`),
    its worker processes forked by a server (see `prepare`) where there can be one: behind the list the
    user waits on no thread of the app, which would otherwise share one core with the UI. A fork server started
    within it (not beforehand: `prepare`) starts as that one does (`safe_path`)."""
    global _behind
    before = records.PARALLEL_FROM, records.START, records.ENDED
    _behind = True
    records.PARALLEL_FROM = min(before[0], WORKERS_FROM)
    if "forkserver" in multiprocessing.get_all_start_methods():
        records.START = "forkserver"
    try:
        with safe_path():
            yield
    finally:
        with _ending:
            records.PARALLEL_FROM, records.START, records.ENDED = before
            _behind = False


def tracker_stopped() -> None:
    """The resource tracker (`prepare`), ended once the open's worker processes are done: no pool is made after
    them, and it held ~13 MB for the app's life (at 100,000 abstracts, what put a cold open over 500 MB). Left
    running while any named semaphore a pool made is not unlinked yet: that one's finaliser would tell a tracker,
    and start another to tell (which, never told of it, would print an error on the terminal)."""
    stop = getattr(resource_tracker._resource_tracker, "_stop", None)  # (CPython's own, with no public name)
    pending = [f for f in list(util._finalizer_registry.values()) if getattr(f, "_callback", None) is synchronize.SemLock._cleanup]
    if stop is not None and not pending:
        stop()


def ended() -> None:
    """At a quit while the open still works: the worker processes end now, and a parse on them with them."""
    with _ending:
        if _behind:  # (a parse behind the list: only it ends so, until its block ends)
            records.ENDED = True
    for child in multiprocessing.active_children():
        child.terminate()


ENDING_SIGNALS = (signal.SIGHUP, signal.SIGTERM)
"""What ends the app from outside: its terminal closed (a hangup), `kill` or a logout (a termination)."""


def ending_with() -> None:
    """From now on a hangup or a termination ends the processes the app started before the app ends of it as before
    (its marks are stored as they are made): without this the fork server, the resource tracker and the workers of a
    list being read stayed, orphaned, ~110 MB at 100,000 abstracts, the workers still at their chunks. The workers and
    the fork server are sent SIGTERM, not waited for (nothing locked: the signal may come while this thread holds
    `_ending`)."""
    for number in ENDING_SIGNALS:
        signal.signal(number, _ended_by)


def _ended_by(number: int, frame: object) -> None:
    for child in multiprocessing.active_children():  # (the workers: the fork server's children, the app's to end)
        child.terminate()
    server = getattr(forkserver._forkserver, "_forkserver_pid", None)  # (CPython's own, as above)
    if server:
        with suppress(OSError):
            os.kill(server, signal.SIGTERM)
    # (the tracker ignores SIGTERM: it ends when the last process holding its pipe, this one or a worker, has ended)
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)  # (ends of it, as it did)
