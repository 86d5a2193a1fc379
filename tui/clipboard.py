"""Copying text for the user: the system clipboard through pyperclip when it has a backend there,
else OSC 52 — an escape sequence the terminal itself turns into a clipboard write, which works over
SSH and inside tmux with `set -g set-clipboard on`. tmux's default, `external`, ignores the sequence
from programs (neither its buffer nor the outer terminal gets it), as does `off`: inside tmux the
option is asked first, and a copy that would not land is refused with how to turn it on.

Imports no Textual: the CLI's `--copy` uses it too, handing in its own way to send OSC 52.
"""
from __future__ import annotations

import base64
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pyperclip

OSC52 = "OSC 52"
OSC52_MAX = 786_432
"""The longest text (in UTF-8 bytes) sent by OSC 52: 1 MiB once in base64, which tmux takes and
drops longer sequences without a word. Other terminals take as much or more."""


class ClipboardError(Exception):
    """Nothing could take the text: no pyperclip backend and no terminal to send OSC 52 to."""


@contextmanager
def _output_pipes_hidden() -> Iterator[None]:
    """Children started inside get /dev/null in place of our stdout/stderr when those are pipes.

    xclip and xsel stay running as the clipboard's owner; holding our output pipe, they would keep
    a reader such as `$(triage cite ID --copy)` waiting for the end of the output until the next copy.
    """
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    saved: list[tuple[int, int]] = []
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            try:
                mode = os.fstat(fd).st_mode
            except OSError:
                continue
            if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                saved.append((fd, os.dup(fd)))
                os.dup2(devnull, fd)
        yield
    finally:
        for fd, original in saved:
            os.dup2(original, fd)
            os.close(original)
        os.close(devnull)


def _reads_back(paste: Callable[[], str], text: str, attempts: int = 6) -> bool:
    """Whether the clipboard holds `text`, asking a few times: xclip takes the selection from a
    background child, which on a busy machine can answer a moment after `copy` returned."""
    for attempt in range(attempts):
        if paste() == text:
            return True
        time.sleep(0.05 * (attempt + 1))
    return False


def system_copy(text: str) -> str | None:
    """Copy through pyperclip's backend for this machine; its name ("xclip", "wl", "windows"…), or
    None when there is none or it did not take the text (read back to be sure: xclip with no
    reachable X server fails silently)."""
    try:
        copy, paste = pyperclip.determine_clipboard()
        if not copy:
            return None
        with _output_pipes_hidden():
            copy(text)
        if not _reads_back(paste, text):
            return None
    except (pyperclip.PyperclipException, OSError):
        return None
    return copy.__name__.removeprefix("copy_")


def tmux_refuses_osc52() -> str | None:
    """Inside tmux, why an OSC 52 from us would not be taken (its `set-clipboard` is not `on`), as
    the user should read it; None outside tmux, when it is `on`, or when tmux cannot be asked."""
    if not os.environ.get("TMUX"):
        return None
    try:
        asked = subprocess.run(
            ["tmux", "show-options", "-gv", "set-clipboard"], capture_output=True, text=True, timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = asked.stdout.strip()
    if asked.returncode != 0 or value not in ("off", "external"):
        return None
    return f"tmux's set-clipboard is {value}, so tmux drops OSC 52 from programs; run `tmux set -g set-clipboard on`"


def osc52(text: str) -> str:
    """The OSC 52 sequence that asks a terminal to put `text` on its clipboard."""
    return f"\x1b]52;c;{base64.b64encode(text.encode('utf-8')).decode('ascii')}\a"


def copy(text: str, send_osc52: Callable[[str], None]) -> str:
    """Put `text` on a clipboard; return how, for the message the user sees ("xclip", "OSC 52").
    `send_osc52(text)` writes the sequence to the terminal (the app's `copy_to_clipboard`)."""
    backend = system_copy(text)
    if backend:
        return backend
    size = len(text.encode("utf-8"))
    if size > OSC52_MAX:  # sent, it could vanish while we said "copied"
        raise ClipboardError(
            f"too long for the terminal's clipboard: {size / 1e6:.1f} MB, and OSC 52 carries at most"
            f" {OSC52_MAX // 1024} KB; export the papers instead (x, or triage export)"
        )
    refused = tmux_refuses_osc52()
    if refused:
        raise ClipboardError(refused)
    try:
        send_osc52(text)
    except OSError as exc:
        raise ClipboardError(f"no clipboard: no pyperclip backend and no terminal for OSC 52 ({exc.strerror or exc})") from None
    return OSC52
