"""Waiting in a Pilot for what the user would wait for, instead of a fixed sleep."""
from __future__ import annotations

from collections.abc import Callable


async def until(pilot, condition: Callable[[], bool], tries: int = 250) -> None:
    """Let the app run until `condition()` holds (screen switches and workers finish a little later,
    more so on a loaded machine); fail if it never does."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    assert condition()
