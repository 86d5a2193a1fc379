"""Lines finished once: a Line-API widget whose screen lines are kept by the content line they were made of.

Textual finishes each line a widget's `render_line` gives (its padding, background, tint and the
app's line filters: `StylesCache.render_line`) again whenever the widget is refreshed, and a
`ScrollView` scrolled by one row is refreshed whole: at 100,000 papers a `j` that scrolled the list
finished all its 36 rows again (~0.1 ms each), though 35 of them only moved up. `KeptLines` keeps
each finished line beside the content strip it came from (the widgets using it give the same `Strip`
object for the same row until that row changes) and finishes only the lines it has not seen, so a
scroll by one row finishes one line. What is kept is dropped whenever anything else the finishing
depends on changes: the widget's size, its colours and those beneath it, its opacity, the line
filters, its styles (`notify_style_update`) or its focus (a tint may follow it).
"""
from __future__ import annotations

from typing import Any

from textual.geometry import Region
from textual.strip import Strip

KEEP = 512
"""Finished lines kept at most (a few pages of the list: what a scroll back up finds again)."""


class KeptLines:
    """For a Line-API widget (listed before it) without a border or top and bottom padding: content row
    y is screen row y, so a finished line depends on its content line alone (else lines are finished as
    Textual does, every time)."""

    _kept: dict[int, tuple[Strip, Strip]]
    _kept_for: tuple[Any, ...] | None = None

    def _finishing(self) -> tuple[Any, ...] | None:
        """What finishing a line depends on besides the line itself; None when rows are not lines."""
        styles = self.styles  # type: ignore[attr-defined]
        if styles.border_top[0] or styles.border_bottom[0] or styles.padding.top or styles.padding.bottom or self.BLANK:  # type: ignore[attr-defined]
            return None
        return (self.region.size, self.background_colors, self.opacity, tuple(self.get_line_filters()), self.has_focus)  # type: ignore[attr-defined]

    def render_lines(self, crop: Region) -> list[Strip]:
        finishing = self._finishing()
        if finishing is None:
            return super().render_lines(crop)  # type: ignore[misc]
        if finishing != self._kept_for:
            self._kept, self._kept_for = {}, finishing
        kept = self._kept
        content = [self.render_line(y) for y in crop.line_range]  # type: ignore[attr-defined]
        new = [y for y, line in zip(crop.line_range, content) if id(line) not in kept]
        if new:
            width = self.region.width  # type: ignore[attr-defined]
            finished = super().render_lines(Region(0, new[0], width, new[-1] - new[0] + 1))  # type: ignore[misc]
            made = {id(content[y - crop.y]): (content[y - crop.y], finished[y - new[0]]) for y in new}
            if len(kept) + len(made) > KEEP:  # (those on screen stay)
                kept = self._kept = {id(line): kept[id(line)] for line in content if id(line) in kept}
            kept.update(made)  # (each content line kept alive beside its finished line: its id stays its own)
        lines = [kept[id(line)][1] for line in content]
        if crop.column_span != (0, self.region.width):  # type: ignore[attr-defined]
            lines = [line.crop(*crop.column_span) for line in lines]
        return lines

    def notify_style_update(self) -> None:
        self._kept_for = None
        super().notify_style_update()  # type: ignore[misc]
