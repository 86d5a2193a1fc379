"""The tab bar of views (All / Unread / Starred / Prioritised) with live counts, and the sort in use."""
from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from store.search.views import SORTS, VIEWS
from tui.widgets.line_text import counted, show_line


class ViewTab(Static):
    """One view's tab; a click selects it."""

    def __init__(self, view: str) -> None:
        super().__init__(id=f"view-{view}", classes="view-tab", markup=False)
        self.view = view

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(ViewTabs.Selected(self.view))


class ViewTabs(Horizontal):
    """One line: a tab per view with the number of papers it would show, then the sort's name.

    The app owns `view` and `sort` and pushes the counts down; a click on a tab posts `Selected`.
    """

    DEFAULT_CSS = """
    ViewTabs {
        height: 1;
        background: $panel;
        & > .view-tab { width: auto; padding: 0 1; color: $text-muted; }
        & > .view-tab:hover { background: $boost; color: $text; }
        & > .view-tab.-active { background: $accent; color: $text; text-style: bold; }
        & > #sort-name { width: 1fr; content-align-horizontal: right; padding: 0 1; color: $text-muted; }
    }
    """

    view: reactive[str] = reactive("all")
    """The view shown (a key of `store.search.views.VIEWS`)."""
    sort: reactive[str] = reactive("file")
    """The sort in use (a key of `store.search.views.SORTS`)."""
    note: reactive[str] = reactive("")
    """Said in place of "sorted by …" when not empty ("more like …")."""

    class Selected(Message):
        """A tab was clicked."""

        def __init__(self, view: str) -> None:
            super().__init__()
            self.view = view

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._counts: dict[str, int] = dict.fromkeys(VIEWS, 0)
        self._total = 0
        """The papers of the list, whether shown or not (what decides how its counts are written: `counted`)."""

    def compose(self) -> ComposeResult:
        for view in VIEWS:
            yield ViewTab(view)
        yield Static(id="sort-name", markup=False)

    def on_mount(self) -> None:
        self._draw()

    def set_counts(self, counts: Mapping[str, int], total: int) -> None:
        """Show how many papers each view would show, of a list of `total` papers."""
        self._counts, self._total = dict(counts), total
        self._draw()

    def watch_view(self) -> None:
        self._draw()

    def watch_sort(self) -> None:
        self._draw()

    def watch_note(self) -> None:
        self._draw()

    def _draw(self) -> None:
        if not self.is_mounted:
            return
        for tab in self.query(ViewTab):
            show_line(tab, Content(f"{VIEWS[tab.view]} {counted(self._counts.get(tab.view, 0), self._total)}"))
            tab.set_class(tab.view == self.view, "-active")
        show_line(self.query_one("#sort-name", Static), Content(self.note or f"sorted by {SORTS[self.sort]}"))
