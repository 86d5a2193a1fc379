"""The split of the main screen between the paper list and the detail pane: the list's share (of the
width side by side, of the height stacked), which `<` and `>` change, and `z`, the list alone to scan
titles full width. The session keeps both (`Split.saved` / `Split.restored`).

The screen follows through CSS classes on `#panes` (`-split-N`, `-list-only`; rules in app.tcss), so
the share holds across the side-by-side and stacked layouts as the terminal is resized.

`PaneActions`, a mixin of `TriageApp`, has the keys that move between and within the two panes:
`enter`/`l` and `h`/`esc`, the detail's page keys, `<`, `>` and `z`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from textual.widget import Widget

from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList

SHARES = (30, 40, 50, 60, 70)
"""The list's share of the width, in percent, that `<` and `>` step through (stacked: 20 less of the height,
so the default keeps the abstract 60% of an 80x24 screen)."""

DEFAULT_SHARE = 60
"""The list's default share: at 120 columns its 72 cells leave a title 51 beside the first author."""


@dataclass(frozen=True)
class Split:
    """How the main screen is shared: `share` percent to the list, or the list alone (`detail` False)."""

    share: int = DEFAULT_SHARE
    detail: bool = True

    def step(self, steps: int) -> Split:
        """The split `steps` shares wider (negative: narrower) for the list, within `SHARES`; the
        detail pane comes back when it was hidden."""
        index = SHARES.index(self.share) + steps
        return replace(self, share=SHARES[max(0, min(index, len(SHARES) - 1))], detail=True)

    def toggled(self) -> Split:
        """The detail pane hidden (the list alone) or shown again."""
        return replace(self, detail=not self.detail)

    def classes(self) -> str:
        """The classes of `#panes` for this split, to compose it with (no restyle after the first frame)."""
        return f"-split-{self.share}" + ("" if self.detail else " -list-only")

    def apply(self, panes: Widget) -> None:
        """Give `panes` (the list and the detail pane's container) the classes of this split."""
        for share in SHARES:
            panes.set_class(share == self.share, f"-split-{share}")
        panes.set_class(not self.detail, "-list-only")

    def saved(self) -> dict[str, object]:
        """What the session stores of the split."""
        return {"split": self.share, "detail": self.detail}

    @classmethod
    def restored(cls, session: Mapping[str, object]) -> Split:
        """The split a stored session had (the default for what is missing or not understood)."""
        share = session.get("split")
        detail = session.get("detail")
        return cls(share if share in SHARES else DEFAULT_SHARE, detail if isinstance(detail, bool) else True)


class PaneActions:
    """`enter`/`l`, `h`/`esc`, `ctrl+d` `ctrl+u` `pagedown` `pageup`, `<` `>` `z` (see TriageApp's key table)."""

    _split: Split

    def action_focus_detail(self) -> None:
        if not self._split.detail:
            self._set_split(self._split.toggled())
        self.query_one(DetailPane).focus()

    def action_split(self, steps: int) -> None:
        self._set_split(self._split.step(steps))

    def action_list_alone(self) -> None:
        if self._split.detail and self.default_screen.focused is self.query_one(DetailPane):
            self.query_one(PaperList).focus()
        self._set_split(self._split.toggled())

    def _set_split(self, split: Split) -> None:
        self._split = split
        split.apply(self.query_one("#panes"))
        self._session_changed()

    def action_focus_papers(self) -> None:
        self.query_one(PaperList).focus()

    def action_scroll_detail(self, pages: float) -> None:
        """Scroll the detail pane by a fraction of its height; the focus stays where it is."""
        detail = self.query_one(DetailPane)
        detail.scroll_relative(y=round(pages * max(1, detail.scrollable_content_region.height - 1)), animate=False)
