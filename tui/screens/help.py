"""The help screen (`?`): every key, grouped, generated from the bindings so it never goes stale."""
from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from store.query import SYNTAX
from tui.keys import GENERAL, GROUPS, declared_bindings, key_display


class HelpScreen(ModalScreen[None]):
    """Every key of the app, grouped; `esc`, `q` or `?` closes it, `j`/`k` scroll."""

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close help", show=True, key_display="esc", id="close_help"),
        Binding("j,down", "scroll(1)", "Scroll down", show=False, tooltip="Scroll the help down", id="help_down"),
        Binding("k,up", "scroll(-1)", "Scroll up", show=False, tooltip="Scroll the help up", id="help_up"),
    ]

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        #help {
            width: 100%;
            max-width: 120;
            height: auto;
            max-height: 100%;
            background: $surface;
            border: round $accent;
            border-title-color: $accent;
            padding: 0 1;
        }
        #help-groups { grid-size: 2; grid-gutter: 0 2; height: auto; }
        .help-group {
            height: auto;
            border: round $panel-lighten-2;
            border-title-color: $text-accent;
            border-title-style: bold;
            padding: 0 1;
        }
        #help-syntax { height: auto; border: round $panel-lighten-2; border-title-color: $text-accent; border-title-style: bold; padding: 0 1; }
        #help-footnote { color: $text-muted; margin: 1 0 0 0; }
    }
    HelpScreen.-narrow #help-groups { grid-size: 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help") as scroll:
            scroll.border_title = "Keys"
            scroll.can_focus = False
            with Grid(id="help-groups"):
                for title, rows in self.groups():
                    group = Static(rows, classes="help-group")
                    group.border_title = title
                    yield group
            syntax = Static(self.table(SYNTAX), id="help-syntax")
            syntax.border_title = "Filter (/) syntax"
            yield syntax
            yield Static(
                Content("esc, q or ? closes this screen · ctrl+p finds any command by name · the mouse works too"),
                id="help-footnote",
            )

    def groups(self) -> list[tuple[str, Content]]:
        """(group title, its key table) for every group that has keys, in `GROUPS` order."""
        app = self.app
        rows: dict[str, list[tuple[str, str]]] = {group.description: [] for group in GROUPS}
        for _, binding in declared_bindings(app):
            group = binding.group or GENERAL
            rows.setdefault(group.description, []).append((key_display(app, binding), binding.tooltip or binding.description))
        return [(title, self.table(entries)) for title, entries in rows.items() if entries]

    @staticmethod
    def table(entries: Sequence[tuple[str, str]]) -> Content:
        """Two columns: what to type (accented) and what it does."""
        width = max(len(keys) for keys, _ in entries)
        lines = [Content.assemble((keys.ljust(width), "bold $text-accent"), "  ", description) for keys, description in entries]
        return Content("\n").join(lines)

    def on_resize(self) -> None:
        self.set_class(self.size.width < 100, "-narrow")

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help", VerticalScroll).scroll_relative(y=lines, animate=False)
