"""A vertical scrollbar that is drawn again only when what it shows changes.

Textual draws a scrollbar again whenever its position or sizes change, however little: a list of
100,000 papers scrolled by one row moves its thumb by 1/2,700 of a cell, which draws exactly what was
there (a thumb is drawn in eighths of a cell), yet every cell of the bar was rendered again, and the
detail pane's bar again for each paper whose text is as long or longer than the pane (at 100,000
papers, under load, 4.5 ms of a `j`'s 32). Here a repaint is skipped while the bar would draw the
same cells in the same colours as it did last, and a look drawn before is not drawn again (the detail pane's
bar, at each paper, takes one of a few: no thumb for a text that fits, or a thumb of a few sizes: ~0.5 ms a
`j`). `SteadyBar` gives a `ScrollView` this bar.
"""
from __future__ import annotations

from math import ceil
from typing import Any

from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip


def _look(bar: ScrollBar) -> tuple[Any, ...] | None:
    """Everything the bar's drawing depends on: its size, the colours, and the eighths of a cell its
    thumb spans (worked out as `ScrollBarRender.render_bar` does); None before it is mounted."""
    if bar.parent is None or not bar.is_mounted:
        return None
    shown = bar.render()
    if not isinstance(shown, ScrollBarRender):
        return None
    size, virtual, window = bar.size.height, shown.virtual_size, shown.window_size
    thumb = None
    if window and size and virtual and size != virtual:
        cells = max(1, window / (virtual / size))
        start = int((size - cells) * (shown.position / (virtual - window)) * len(shown.VERTICAL_BARS))
        thumb = (start, start + ceil(cells * len(shown.VERTICAL_BARS)))
    return bar.size, shown.style, shown.thickness, thumb


KEEP = 32
"""Looks of a bar whose finished lines are kept (a detail pane's bar takes one per length of text)."""


class SteadyScrollBar(ScrollBar):
    """A vertical `ScrollBar` whose repaint is skipped while it would draw what it drew last, and whose lines
    are finished once for each look it takes (the detail pane's bar changes with every paper shown, among a
    few looks: none at all for a text that fits, and a thumb of a few sizes)."""

    _drawn: tuple[Any, ...] | None = None
    """What the bar looked like when it was last rendered (see `_look`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._finished: dict[tuple[Any, ...], list[Strip]] = {}
        """The lines finished for each look (and crop, colours beneath, line filters), the last `KEEP`."""

    def render_lines(self, crop: Region) -> list[Strip]:
        look = _look(self)
        if look is None:
            return super().render_lines(crop)
        key = (look, crop, self.background_colors, tuple(self.get_line_filters()))
        lines = self._finished.get(key)
        if lines is None:
            lines = self._finished[key] = super().render_lines(crop)
            if len(self._finished) > KEEP:
                del self._finished[next(iter(self._finished))]  # (the oldest)
        return lines

    def _render_content(self) -> None:  # (where a widget renders its lines, kept until it is refreshed)
        super()._render_content()
        self._drawn = _look(self)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> SteadyScrollBar:
        if repaint and not (regions or layout or recompose) and self._drawn is not None and _look(self) == self._drawn:
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class SteadyBar:
    """For a `ScrollView` (listed before it): its vertical scrollbar is a `SteadyScrollBar`."""

    _vertical_scrollbar: ScrollBar | None
    scrollbar_size_vertical: int

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is None:  # as Widget.vertical_scrollbar makes it, of the steady kind
            bar = self._vertical_scrollbar = SteadyScrollBar(vertical=True, name="vertical", thickness=self.scrollbar_size_vertical)
            bar.display = False
            self.app._start_widget(self, bar)  # type: ignore[attr-defined]
        return self._vertical_scrollbar
