"""Waiting in a Pilot for what the user would wait for, instead of a fixed sleep."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable


async def until(pilot, condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Let the app run until `condition()` holds (screen switches, layouts and workers finish a little
    later, much later on a loaded machine); fail if it does not within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the app never reached the state the test waits for"
        await pilot.pause(0.02)


def wait(condition: Callable[[], object], timeout: float, what: Callable[[], object] = lambda: "never happened") -> None:
    """Wait (outside an app) until `condition()` holds; fail, saying `what()`, if it does not within `timeout` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what()
        time.sleep(0.05)


def held(monkeypatch, module: object, name: str) -> tuple[threading.Event, threading.Event]:
    """`module.name` (a function) made to wait at each call until the second event is set; the first is set once it
    is called: a test holds the work at that point, does what it checks meanwhile, then lets it go."""
    at, go = threading.Event(), threading.Event()
    work = getattr(module, name)

    def waiting(*args: object, **kwargs: object) -> object:
        at.set()
        assert go.wait(120)
        return work(*args, **kwargs)

    monkeypatch.setattr(module, name, waiting)
    return at, go


async def settled(app, pilot, timeout: float = 120.0) -> None:
    """Let the app finish what it does behind its first frame (tui.loading's thread: the whole read,
    the index, the header's "reading…"/"titles…" going away, the citation keys) and lay the screen out:
    a test that counts layouts or repaints starts from a still screen."""
    await until(pilot, lambda: app._thread is not None and not app.working_behind, timeout)
    await pilot.pause()  # (what the thread posted last runs on the app's loop)
    await app.workers.wait_for_complete()
    await pilot.pause()


def told(app) -> list:
    """Every notice `app` gave, in order, expired or not (message, title, severity): Textual drops a notice
    from `app._notifications` when its time is up, which on a starved machine can come before a test looks.
    Kept by conftest's `_notices_kept`."""
    return list(app.__dict__.get("told_notices", ()))
