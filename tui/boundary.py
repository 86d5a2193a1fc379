"""The one boundary between data and the terminal, for the app and for the command line.

What a file or the database gives is made inert where it enters (`store.papers.boundary`); this is the
guarantee behind it, for whatever path that missed (a file's own name, a message naming it, a
note typed or pasted in this session, a future widget):

- the app: every cell Textual draws passes `Strip.render`, which turns a line's segments into
  the bytes written to the terminal. `tui.textual_private.inert_strips()` makes it remove, from each segment's text and
  link target, the zero-width control and format characters (`store.papers.inert.invisible_removed`):
  no ESC, C1 or bidi control reaches the terminal but Textual's own styles around the text, and
  as those characters take no cell, no line loses its layout. Not a helper every widget calls,
  which a new widget, a notification or a tooltip would forget.
- the command line: `InertStream` wraps stdout and stderr (`triage list`, `cite`, `export`, `set`,
  messages), making each write inert (`store.papers.inert.inert`); the progress line's own control
  sequence goes through `write_control`, the one thing written as it is. Being the one way out, it also
  names a write the stream refused (a full disk, an I/O error): `OutputFailed`, which `tui.cli` reports.

This module imports no Textual: the subcommands never load it."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from store.papers.inert import inert


class OutputFailed(Exception):
    """A write to (or flush of) `stream` refused for `reason` (its OSError's): not a reader that stopped reading,
    which stays a BrokenPipeError."""

    def __init__(self, stream: TextIO, reason: str) -> None:
        super().__init__(reason)
        self.stream, self.reason = stream, reason


class InertStream:
    """A text stream whose writes are made inert; everything else is the wrapped stream's. A write or flush
    it refuses raises `OutputFailed`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._written(self._stream.write, inert(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def write_control(self, sequence: str) -> None:
        """Write a control sequence of the command's own (erasing the progress line) as it is."""
        self._written(self._stream.write, sequence)

    def flush(self) -> None:
        self._written(self._stream.flush)

    def _written(self, call, *args) -> None:
        try:
            call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(self._stream, exc.strerror or str(exc)) from exc

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def write_control(stream: TextIO, sequence: str) -> None:
    """`sequence` (the command's own, never data) to `stream`, through its boundary when it has one."""
    (stream.write_control if isinstance(stream, InertStream) else stream.write)(sequence)


@contextmanager
def inert_output() -> Iterator[None]:
    """Standard output and standard error made inert for the duration."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = InertStream(sys.stdout), InertStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
