"""The cross-process lock of one database (`triage.json.lock`): a bounded wait that names who holds it.

`DatabaseLock.acquire()` waits at most `timeout` seconds (`$TRIAGE_LOCK_TIMEOUT`, else 10) and then
raises `Locked` naming the holder: whoever takes the lock writes its process id and program name
into the lock file. A lock file that cannot be opened at all (a read-only file system or folder, a
folder in its place, another user's file) makes the lock `unavailable`: `acquire()` returns False
and the caller goes on without it, only reading (see `store.marks.journal`).
"""
from __future__ import annotations

import functools
import math
import os
import stat
import sys
from pathlib import Path

from filelock import FileLock, Timeout

from store.common.errors import Locked

TIMEOUT_ENV = "TRIAGE_LOCK_TIMEOUT"
DEFAULT_TIMEOUT = 10.0
POLL = 0.001
HOLDER_BYTES = 64


def default_timeout() -> float:
    """`$TRIAGE_LOCK_TIMEOUT` in seconds when it is a number ≥ 0, else 10."""
    try:
        value = float(os.environ.get(TIMEOUT_ENV, ""))
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value >= 0 and math.isfinite(value) else DEFAULT_TIMEOUT


@functools.cache
def program() -> str:
    """This process's program as a user would name it: `triage` (`tui` for `python -m tui`), else the interpreter's name."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] not in ("", "-c", "-m") else Path(sys.executable)
    return (script.parent.name if script.name == "__main__.py" else script.name) or "python"


class DatabaseLock:
    """The lock file of `database`, held by one process at a time (not re-entrant: see `JournalStorage.locked`)."""

    def __init__(self, database: Path, timeout: float | None = None) -> None:
        self.database = database
        self.path = database.with_name(database.name + ".lock")
        self.timeout = default_timeout() if timeout is None else timeout
        self.unavailable: str | None = None
        """Why the lock file cannot be opened (the database is then only read); None while it can be."""
        self._lock = FileLock(str(self.path))
        self._soft: bool | None = None
        """Whether filelock fell back to its own marker file (no flock here): known once the lock was taken."""

    def acquire(self) -> bool:
        """Take the lock, waiting at most `timeout` seconds (`Locked` after that); False when it cannot be taken at all."""
        if self.unavailable is not None:
            return False
        try:
            self._lock.acquire(timeout=self.timeout, poll_interval=POLL)
        except Timeout:  # a TimeoutError, so an OSError: before the clause below
            pid, command = self.holder()
            raise Locked(str(self.database), self.timeout, pid, command) from None
        except OSError as exc:
            what = "is a folder, not a lock file" if self.path.is_dir() else f"cannot be opened ({exc.strerror or exc})"
            self.unavailable = f"its lock file {self.path} {what}"
            return False
        self._sign()
        return True

    def release(self) -> None:
        self._sign(release=True)
        self._lock.release()

    def _sign(self, release: bool = False) -> None:
        """Write "PID PROGRAM" into the lock file for a process that waits to name (emptied on release, so
        what it says is the holder's). Not with filelock's fallback for file systems without flock
        (`pid` is readable then): that marker is its own."""
        if self._soft is None:
            self._soft = hasattr(self._lock, "pid")  # slow (resolves the path): once
        if self._soft:
            return
        try:
            fd = os.open(self.path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return
        record = "" if release else f"{os.getpid()} {program()}"
        try:  # always HOLDER_BYTES long: a truncation costs far more than writing over it
            os.pwrite(fd, record.encode("utf-8", "replace")[: HOLDER_BYTES - 1].ljust(HOLDER_BYTES - 1) + b"\n", 0)
        except OSError:
            pass  # the holder's name is a courtesy: the lock is held all the same
        finally:
            os.close(fd)

    def holder(self) -> tuple[int | None, str]:
        """(process id, program) of the process holding the lock, as it wrote them; (None, "") when
        unknown or no longer running (an older paper-triage writes nothing)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None, ""
        try:
            text = os.read(fd, HOLDER_BYTES).decode("utf-8", "replace") if stat.S_ISREG(os.fstat(fd).st_mode) else ""
        except OSError:
            text = ""
        finally:
            os.close(fd)
        pid_text, _, command = text.strip().partition(" ")
        if not pid_text.isdigit() or not _running(int(pid_text)):
            return None, ""
        return int(pid_text), "".join(ch for ch in command.strip() if ch.isprintable())  # untrusted: no escapes


def _running(pid: int) -> bool:
    """Whether a process with this id exists (another user's too)."""
    if not 0 < pid < 2**31:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
