"""The worker processes' helpers the app ends once the open is done (tui.processes)."""
from __future__ import annotations

import gc
import multiprocessing
import os
from multiprocessing import resource_tracker

import pytest

from tui import processes

tracker = resource_tracker._resource_tracker


def running() -> bool:
    pid = tracker._pid
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif("spawn" not in multiprocessing.get_all_start_methods(), reason="no named semaphores here")
def test_the_tracker_ends_once_no_semaphore_needs_it_and_never_before():
    """A lock a pool of spawned workers would share is named, and the tracker is told of it: the tracker is
    not ended while it lives (its finaliser would start another to tell, printing an error), and is once it is gone."""
    resource_tracker.ensure_running()
    lock = multiprocessing.get_context("spawn").Lock()
    processes.tracker_stopped()
    assert running(), "the tracker was ended under a semaphore it had been told of"
    del lock
    gc.collect()
    processes.tracker_stopped()
    assert not running()
    multiprocessing.get_context("spawn").Lock()  # a later pool starts another, quietly
    assert running()
