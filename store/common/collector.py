"""The cycle collector paused while objects are made by the hundred thousand."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """For making objects by the hundred thousand that form no reference cycles: the cycle
    collector, run every few hundred new objects, would walk them all again and again for
    nothing. Never around analysis: pylatexenc leaves cycles behind."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
