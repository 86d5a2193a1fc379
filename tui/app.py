"""The Textual app: a paper list beside (or above) a detail pane."""
from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Header

from store import Collection, describe_skipped
from tui.keys import MOVE, READ, declared_bindings, is_enabled, key_display
from tui.screens.help import HelpScreen
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList


class TriageApp(App[None]):
    """Triage a list of abstracts from the keyboard.

    | Key | Action |
    | :- | :- |
    | `enter` / `l` | Read the abstract (focus the detail pane) |
    | `h` / `esc` | Back to the list |
    | `ctrl+d` / `ctrl+u` | Detail half a page down / up |
    | `pagedown` / `pageup` | Detail a page down / up |
    | `?` | Help |
    | `q` | Quit |
    """

    CSS_PATH = "app.tcss"
    TITLE = "paper-triage"
    HORIZONTAL_BREAKPOINTS = [(0, "-stacked"), (110, "-wide")]
    """Side by side from 110 columns, the list above the detail below that."""

    BINDINGS = [
        Binding("enter,l", "focus_detail", "Read", group=READ, tooltip="Read the abstract: focus the detail pane"),
        Binding("h,escape", "focus_papers", "List", group=READ, tooltip="Back to the list", key_display="h/esc"),
        Binding("ctrl+d", "scroll_detail(0.5)", "Detail ½ page down", group=READ, show=False),
        Binding("ctrl+u", "scroll_detail(-0.5)", "Detail ½ page up", group=READ, show=False),
        Binding("pagedown", "scroll_detail(1)", "Detail page down", group=READ, show=False),
        Binding("pageup", "scroll_detail(-1)", "Detail page up", group=READ, show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, collection: Collection, db_path: str | None = None) -> None:
        super().__init__()
        self.collection = collection
        self.db_path = db_path

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="panes"):
            yield PaperList(id="papers")
            yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        c = self.collection
        where = " ".join(str(part) for part in (c.venue, c.year) if part) or c.header
        self.sub_title = f"{where} · {len(c.papers)} papers" if where else f"{len(c.papers)} papers"
        paper_list = self.query_one(PaperList)
        paper_list.set_papers(c.papers)
        paper_list.focus()
        if c.warnings:
            self.notify(describe_skipped(c.warnings), title="Some records were skipped", severity="warning",
                        timeout=12, markup=False)

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        self.query_one(DetailPane).show(message.paper)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "focus_detail":
            return self.default_screen.focused is self.query_one(PaperList)
        if action == "focus_papers":
            return self.default_screen.focused is self.query_one(DetailPane)
        return True

    def action_focus_detail(self) -> None:
        self.query_one(DetailPane).focus()

    def action_focus_papers(self) -> None:
        self.query_one(PaperList).focus()

    def action_scroll_detail(self, pages: float) -> None:
        """Scroll the detail pane by a fraction of its height; the focus stays where it is."""
        detail = self.query_one(DetailPane)
        detail.scroll_relative(y=round(pages * max(1, detail.scrollable_content_region.height - 1)), animate=False)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette offers every action the keys do (but moving and scrolling), then Textual's own (theme, quit…)."""
        textual_commands = list(super().get_system_commands(screen))
        taken = {command.title for command in textual_commands}
        for node, binding in declared_bindings(self):
            if binding.group not in (MOVE, READ) and binding.description not in taken and is_enabled(node, binding):
                title = binding.tooltip or binding.description
                yield SystemCommand(title, f"key: {key_display(self, binding)}", partial(self.run_action, binding.action, node))
        yield from textual_commands
