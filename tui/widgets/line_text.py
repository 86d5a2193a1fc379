"""Changing the text of a one-line `Static` (a header count, a tab label) without laying the screen out.

`Static.update` lays the whole screen out again by default (at 100,000 papers a third of what a query
keystroke cost): here the text is left alone when it reads the same, and the widget is only repainted
when its size cannot change: its width is set (not `auto`), or the new text is as wide as the old.
The widgets are one line high in a bar one line high. Their counts are `counted`.
"""
from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


GROUPED_FROM = 10_000
"""A list of this many papers and more has the digits of its counts grouped by thousands ("1,875 of 2,699,998
shown"): a shorter list's stay as they are ("30 of 2260"), four digits being read at a glance (as style guides
keep them), and the header of a conference list keeping its width."""


def counted(count: int, total: int) -> str:
    """`count` as a header or tab of a list of `total` papers shows it (`GROUPED_FROM`)."""
    return f"{count:,}" if total >= GROUPED_FROM else str(count)


def show_line(widget: Static, content: Content) -> None:
    """Show `content` in `widget` (one line, no markup): repaint only, unless its width changed."""
    old = widget.content
    old = Content(old) if isinstance(old, str) else old  # (as made: no text yet)
    if isinstance(old, Content):
        if old.plain == content.plain and old.spans == content.spans:
            return
        width = widget.styles.width
        sized = width is not None and not width.is_auto
        widget.update(content, layout=not sized and old.cell_length != content.cell_length)
    else:
        widget.update(content)
