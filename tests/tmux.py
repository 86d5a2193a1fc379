"""Drive the installed `triage` command in a real terminal: a private tmux server per test."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest


def triage_command() -> str:
    """The `triage` installed beside the running Python (the venv's), else the one on PATH."""
    beside = Path(sys.executable).parent / "triage"
    found = str(beside) if beside.exists() else shutil.which("triage")
    if not found:
        pytest.skip("the triage command is not installed (pip install -e .)")
    return found


def socket_file(name: str) -> Path:
    """Where the tmux server named `name` (`tmux -L`) keeps its socket."""
    return Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}" / name


class Tmux:
    """One tmux server and session running a command at a fixed size."""

    def __init__(self, command: str, width: int = 120, height: int = 40, env: dict[str, str] | None = None) -> None:
        if not shutil.which("tmux"):
            pytest.skip("tmux is not installed")
        self.socket = f"triage-test-{uuid.uuid4().hex[:8]}"
        env = {"TRIAGE_NO_HINTS": "1", **(env or {})}  # the first-run hint only where a test asks for it ("")
        exports = " ".join(f"{k}={v!r}" for k, v in env.items())
        self._tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height),
                   f"env -u COLUMNS -u LINES {exports} TERM=xterm-256color {command}; echo EXIT=$?; sleep 60")

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def coloured_screen(self) -> str:
        """The screen with its colours, as SGR escape sequences."""
        return self._tmux("capture-pane", "-p", "-e", "-t", "t")

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, predicate, timeout: float = 60.0, interval: float = 0.1) -> str:
        """Poll the screen every `interval` seconds until `predicate(screen)` holds; fail with the last
        screen if it never does."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if predicate(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed what was expected:\n{screen}")
            time.sleep(interval)

    def processes(self) -> list[str]:
        """The command line of every process below the pane's shell (the app and the processes it started)."""
        shell = int(self._tmux("list-panes", "-t", "t", "-F", "#{pane_pid}").split()[0])
        parents, lines = {}, {}
        for entry in Path("/proc").iterdir():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                lines[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except (ValueError, OSError):  # not a process, or gone meanwhile
                continue

        def below(pid: int) -> bool:
            while pid > 1 and pid != shell:
                pid = parents.get(pid, 0)
            return pid == shell

        return [line for pid, line in lines.items() if pid != shell and below(pid)]

    def kill(self) -> None:
        """End the server, and remove its socket file, which tmux leaves behind (~140 a run of the suite)."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        socket_file(self.socket).unlink(missing_ok=True)

    def quit(self) -> None:
        """Press `q` and wait until the app has exited with status 0."""
        self.send("q")
        self.wait_for(lambda s: "EXIT=0" in s)

    def paste_buffer(self) -> str:
        """tmux's paste buffer: what an OSC 52 copy put there ("" before any)."""
        try:
            return self._tmux("show-buffer")
        except subprocess.CalledProcessError:  # no buffer yet
            return ""

    def command(self, *args: str) -> str:
        """Run a tmux command on this server (`set -g set-clipboard on`, `show-buffer`…); its output."""
        return self._tmux(*args)
