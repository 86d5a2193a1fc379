"""A hostile environment for tests, for real: a small or read-only file system (a tmpfs mount),
another user, a process holding the database's lock. Mounting and changing user need root: the
tests that need them skip cleanly without it."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

NOBODY = 65534
PAGE = 4096

HOLDER = """
import sys
from store.marks.journal import JournalStorage
storage = JournalStorage(sys.argv[1])
with storage.locked():
    print("held", flush=True)
    sys.stdin.readline()
"""


def triage(*args: str | bytes, env: dict[str, str] | None = None, user: list[str] | None = None,
           timeout: float = 60, **kwargs) -> subprocess.CompletedProcess[str]:
    """The real command (`python -m tui`), as `user` (`as_nobody()`) if given, with a guard against a
    hang (not a measure of time: longer for a command that trains on two corpora on a busy machine)."""
    return subprocess.run([*(user or []), sys.executable, "-m", "tui", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})}, **kwargs)


def rows(result: subprocess.CompletedProcess[str]) -> list[dict]:
    """The JSON lines a command printed (`list --format jsonl`, `set`)."""
    return [json.loads(line) for line in result.stdout.split("\n") if line]  # (not splitlines: U+2028 in abstracts)


def one_line(result: subprocess.CompletedProcess[str], start: str = "triage: ") -> str:
    """The one line a failed command printed on stderr (asserting it is one, with no traceback)."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(start), result.stderr
    return lines[0]


@contextlib.contextmanager
def mounted_tmpfs(where: Path, size: str = "64k") -> Iterator[Path]:
    """A fresh tmpfs of `size` at `where` (skips the test when mounting is not allowed)."""
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def remount_read_only(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True, capture_output=True)


def fill(folder: Path, leave_pages: int = 0) -> Path:
    """Fill the file system of `folder` with one file until no space is left, then give back
    `leave_pages` pages; the filler file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * PAGE)
    finally:
        os.close(fd)
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - size % PAGE - leave_pages * PAGE))
    return filler


def as_nobody() -> list[str]:
    """The start of a command line that runs the rest as user nobody (skips when not root)."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("changing user needs root and setpriv")
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


@contextlib.contextmanager
def shared_folder() -> Iterator[Path]:
    """A folder every user can reach (pytest's tmp_path is its owner's only), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="triage-test-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class LockHolder:
    """Another process that holds a database's lock (through the store's own code) until released."""

    def __init__(self, db: Path) -> None:
        root = Path(__file__).resolve().parent.parent
        self.process = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, cwd=root)
        assert self.process.stdout.readline() == "held\n"
        self.pid = self.process.pid

    def stop(self) -> None:
        """As `kill -STOP` (or Ctrl-Z) does: the process is there but does nothing."""
        os.kill(self.pid, signal.SIGSTOP)

    def release(self) -> None:
        os.kill(self.pid, signal.SIGCONT)
        self.process.communicate("\n", timeout=60)

    def __enter__(self) -> LockHolder:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            os.kill(self.pid, signal.SIGCONT)
            self.process.kill()
            self.process.wait()
