"""The time a mark is made at, and how far another device's clock is from this one.

`now()` is the wall clock, moved by `$TRIAGE_CLOCK_OFFSET` seconds when that is set (to try a device whose
clock is wrong, in another process: the sync trials set it). Each database then keeps a hybrid logical
clock over it (`TriageStore.put`): a mark's time is the later of `now()` and just after the latest time
the database holds (each mark it made or merged in), so a change made after seeing another device's
marks comes after them however that device's clock is set. A device file says when its device wrote
it by its own clock (`written`), which tells how far ahead that clock is (`ahead`).
"""
from __future__ import annotations

import math
import os
import time
from collections.abc import Iterable

OFFSET_ENV = "TRIAGE_CLOCK_OFFSET"
TICK = 0.001
"""How far after the latest time it holds a database puts its next mark, when its wall clock says earlier."""
FAR = 600.0
"""A device whose clock is more than this many seconds ahead of this one is named at a sync."""


def now() -> float:
    """The wall clock, plus `$TRIAGE_CLOCK_OFFSET` seconds when that is a finite number."""
    try:
        offset = float(os.environ.get(OFFSET_ENV, "0") or 0)
    except ValueError:
        offset = 0.0
    return time.time() + (offset if math.isfinite(offset) else 0.0)


def held(at: object, times: Iterable[float]) -> float:
    """A database's clock: `at`, as its settings keep it, else (a database from before they kept it) the
    latest of its marks' `times`, read once."""
    if isinstance(at, (int, float)) and not isinstance(at, bool) and math.isfinite(at):
        return float(at)
    return max(times, default=0.0)


def after(stamp: float, latest: float) -> float:
    """The time of a mark made at wall time `stamp` by a database whose latest time is `latest` (`stamp`
    itself when that is not earlier: a tie of times is broken by the devices' ids, `store.marks.merge`)."""
    return stamp if stamp >= latest else latest + TICK


def ahead(written: object, here: float) -> str:
    """How far ahead of `here` (`now()`) a device file's `written` time is, as words (`30 h`, `12 min`),
    or "" when it is not more than `FAR` ahead (or says nothing usable)."""
    if isinstance(written, bool) or not isinstance(written, (int, float)) or not math.isfinite(written):
        return ""
    gap = written - here
    if gap <= FAR:
        return ""
    return f"{gap / 86400:.0f} days" if gap >= 3 * 86400 else f"{gap / 3600:.0f} h" if gap >= 3600 else f"{gap / 60:.0f} min"
