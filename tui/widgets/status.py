"""The status line: how many papers are shown of how many, their marks, and a progress bar of papers read."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import ProgressBar, Static


class StatusLine(Horizontal):
    """"7 of 19 shown · 12 unread · 3 ★ · 4 prioritised" and a bar of the papers read out of all of them."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        background: $panel;
        & > #status-counts { width: 1fr; padding: 0 1; color: $text; }
        & > #status-read { width: auto; color: $text-muted; }
        & > ProgressBar { width: auto; padding: 0 1; }
        & > ProgressBar Bar { width: 20; }
    }
    StatusLine.-narrow > ProgressBar Bar { width: 10; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="status-counts", markup=False)
        yield Static(id="status-read", markup=False)
        yield ProgressBar(total=1, show_eta=False, id="status-progress")

    def show(self, *, shown: int, total: int, unread: int, starred: int, prioritised: int, read: int) -> None:
        """`unread`, `starred`, `prioritised` count the papers shown; `read` counts all `total` papers."""
        counts = f"{shown} of {total} shown · {unread} unread · {starred} ★ · {prioritised} prioritised"
        self.query_one("#status-counts", Static).update(Content(counts))
        self.query_one("#status-read", Static).update(Content(f"{read} read"))
        self.query_one(ProgressBar).update(total=max(total, 1), progress=read)

    def on_resize(self) -> None:
        self.set_class(self.size.width < 100, "-narrow")
