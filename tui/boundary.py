"""The one boundary between data and the terminal, for the app and for the command line.

What a file or the database gives is made inert where it enters (`store.boundary`); this is the
guarantee behind it, for whatever path that missed (a file's own name, a message naming it, a
note typed or pasted in this session, a future widget):

- the app: every cell Textual draws passes `Strip.render`, which turns a line's segments into
  the bytes written to the terminal. `install()` makes it remove, from each segment's text and
  link target, the zero-width control and format characters (`store.inert.invisible_removed`):
  no ESC, C1 or bidi control reaches the terminal but Textual's own styles around the text, and
  as those characters take no cell, no line loses its layout. Not a helper every widget calls,
  which a new widget, a notification or a tooltip would forget.
- the command line: `InertStream` wraps stdout and stderr (`triage list`, `cite`, `export`, `set`,
  messages), making each write inert (`store.inert.inert`); the progress line's own control
  sequence goes through `write_control`, the one thing written as it is.

Textual is imported by `install()` only: the subcommands never load it."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from store.inert import inert, invisible_removed


class InertStream:
    """A text stream whose writes are made inert; everything else is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(inert(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def write_control(self, sequence: str) -> None:
        """Write a control sequence of the command's own (erasing the progress line) as it is."""
        self._stream.write(sequence)

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


def install() -> None:
    """Make Textual's `Strip.render` remove control and invisible format characters from the text
    and link targets it writes (once; Textual is pinned, and tests compare it with the original)."""
    from rich.color import ColorSystem
    from rich.style import Style
    from textual.strip import Strip

    if getattr(Strip.render, "inert", False):
        return

    def safe(style: Style) -> Style:
        link = style._link
        return style + Style(link=invisible_removed(link)) if link and invisible_removed(link) != link else style

    def render(self: Strip, console) -> str:
        if self._render_cache is None:
            color_system = console._color_system or ColorSystem.TRUECOLOR
            style_text = self.render_style
            self._render_cache = "".join(
                [
                    invisible_removed(text) if style is None
                    else style_text(safe(style), invisible_removed(text), color_system=color_system)
                    for text, style, _ in self._segments
                ]
            )
        return self._render_cache

    render.inert = True  # type: ignore[attr-defined]
    render.original = Strip.render  # type: ignore[attr-defined]
    Strip.render = render  # type: ignore[method-assign]
