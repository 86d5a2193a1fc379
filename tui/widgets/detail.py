"""The detail pane: the title, where the paper comes from, and the full abstract, wrapped and scrollable."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from store import Paper, Triage
from tui.keys import READ


class DetailPane(VerticalScroll, can_focus=True):
    """Shows one paper in full. Text is set as `Content`, never parsed as markup.

    Focused (`enter` / `l` from the list), it scrolls with `j` / `k` as well as the arrows and page keys.
    """

    BINDINGS = [
        Binding("j", "scroll_down", "Scroll down", show=False, group=READ, tooltip="Detail one line down (while reading it)"),
        Binding("k", "scroll_up", "Scroll up", show=False, group=READ, tooltip="Detail one line up (while reading it)"),
    ]

    DEFAULT_CSS = """
    DetailPane {
        padding: 0 1;
        background: $surface;
        &:focus { background-tint: $foreground 4%; }
        #detail-title { text-style: bold; color: $text-accent; margin-bottom: 1; }
        #detail-meta { color: $text-muted; margin-bottom: 1; }
        #detail-state { color: $text-secondary; margin-bottom: 1; }
        #detail-body { margin-bottom: 1; }
        #detail-links { color: $text-secondary; }
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="detail-title")
        yield Static(id="detail-meta")
        yield Static(id="detail-state")
        yield Static(id="detail-body")
        yield Static(id="detail-links")

    def show(self, paper: Paper | None) -> None:
        """Show `paper` from its top (or an empty pane for None)."""
        if paper is None:
            parts = ("", "", "Nothing to show.", "")
        else:
            meta = " · ".join(str(part) for part in (paper.venue, paper.year, paper.id) if part)
            if paper.authors:
                meta = ", ".join(paper.authors) + "\n" + meta
            parts = (paper.title, meta, paper.plain or paper.text, "\n".join(paper.links))
        for widget_id, text in zip(("title", "meta", "body", "links"), parts):
            widget = self.query_one(f"#detail-{widget_id}", Static)
            widget.update(Content(text))
            widget.display = bool(text)
        self.query_one("#detail-state", Static).display = paper is not None
        self.scroll_home(animate=False)

    def show_state(self, state: Triage) -> None:
        """Show the marks of the paper shown: read or not, star, priority, tags, note."""
        marks = ["read" if state.read else "unread"]
        if state.starred:
            marks.append("★ starred")
        if state.priority:
            marks.append(f"priority {state.priority}")
        if state.tags:
            marks.append("tags: " + ", ".join(state.tags))
        text = " · ".join(marks) + (f"\n\nNote: {state.note}" if state.note else "")
        self.query_one("#detail-state", Static).update(Content(text))
