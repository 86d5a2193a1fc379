"""Changing the text of a one-line `Static` (a header count, a tab label) without laying the screen out.

`Static.update` lays the whole screen out again by default (at 100,000 papers a third of what a query
keystroke cost): here the text is left alone when it reads the same, and the widget is only repainted
when its size cannot change: its width is set (not `auto`), or the new text is as wide as the old.
The widgets are one line high in a bar one line high.
"""
from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


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
