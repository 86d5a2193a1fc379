"""Copying text for the user: the system clipboard through pyperclip when it has a backend there,
else OSC 52 — an escape sequence the terminal itself turns into a clipboard write, which works over
SSH and inside tmux (`set -g set-clipboard on`).

Imports no Textual: the CLI's `--copy` uses it too, handing in its own way to send OSC 52.
"""
from __future__ import annotations

import base64
from collections.abc import Callable

import pyperclip

OSC52 = "OSC 52"


class ClipboardError(Exception):
    """Nothing could take the text: no pyperclip backend and no terminal to send OSC 52 to."""


def system_copy(text: str) -> str | None:
    """Copy through pyperclip's backend for this machine; its name ("xclip", "wl", "windows"…), or
    None when there is none or it did not take the text (read back to be sure: xclip with no
    reachable X server fails silently)."""
    try:
        copy, paste = pyperclip.determine_clipboard()
        if not copy:
            return None
        copy(text)
        if paste() != text:
            return None
    except (pyperclip.PyperclipException, OSError):
        return None
    return copy.__name__.removeprefix("copy_")


def osc52(text: str) -> str:
    """The OSC 52 sequence that asks a terminal to put `text` on its clipboard."""
    return f"\x1b]52;c;{base64.b64encode(text.encode('utf-8')).decode('ascii')}\a"


def copy(text: str, send_osc52: Callable[[str], None]) -> str:
    """Put `text` on a clipboard; return how, for the message the user sees ("xclip", "OSC 52").
    `send_osc52(text)` writes the sequence to the terminal (the app's `copy_to_clipboard`)."""
    backend = system_copy(text)
    if backend:
        return backend
    try:
        send_osc52(text)
    except OSError as exc:
        raise ClipboardError(f"no clipboard: no pyperclip backend and no terminal for OSC 52 ({exc.strerror or exc})") from None
    return OSC52
