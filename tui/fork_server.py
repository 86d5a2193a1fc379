"""Preloaded by the fork server the app's parse workers are forked from (`tui.processes.prepare`), and imported by
nothing else: the server ends when the app that started it ends, however it ends. It ended only once no process held
the pipe the app keeps open to it, which its workers hold too, so an app killed outright (SIGKILL, the OOM killer)
left it and its workers, orphaned, for good (the workers end with the server: store.readers.records'
`ending_with_parent`, told which process it is by `FORK_SERVER`)."""
from __future__ import annotations

import os

from store.readers.records import FORK_SERVER, ending_with_parent
from tui.processes import SERVER_PARENT

# (taken out of the server's environment: its workers, and what they start, are not told)
if (_app := os.environ.pop(SERVER_PARENT, "")).isdigit():
    ending_with_parent(int(_app))
    os.environ[FORK_SERVER] = str(os.getpid())  # (its workers, forked from it, check it is there: a quit as one forks)
