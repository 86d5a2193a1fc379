"""The citation picker (`C`): choose the format `c` copies in, with a preview of the current paper."""
from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from store.cite.citations import FORMATS
from tui.keys import MOVE
from tui.widgets.footer import KeysFooter

PREVIEW_LINES = 12


class CitePicker(ModalScreen[str | None]):
    """Pick a citation format: `enter` copies in it and makes it the default, `esc` cancels.

    | Key | Action |
    | :- | :- |
    | `j`/`k`, `↓`/`↑` | Move |
    | `enter` | Copy in this format; it becomes the default |
    | `esc` | Cancel |
    """

    FIELD_KEYS = [Binding("enter", "", "Copy")]
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel", tooltip="Cancel a dialog", id="cancel"),
        Binding("j", "move(1)", "Down", group=MOVE, tooltip="Next format (copy as…)", id="picker_down"),
        Binding("k", "move(-1)", "Up", group=MOVE, tooltip="Previous format (copy as…)", id="picker_up"),
    ]

    DEFAULT_CSS = """
    CitePicker {
        align: center middle;
        #cite-picker { width: 90; max-width: 95%; height: auto; border: round $accent; background: $surface; padding: 0 1; }
        #cite-picker-title { text-style: bold; margin-bottom: 1; }
        OptionList, OptionList:focus { height: auto; border: none; padding: 0; }
        #cite-preview { color: $text-muted; margin-top: 1; height: auto; max-height: 14; }
    }
    """

    def __init__(self, current: str, preview: Callable[[str], str]) -> None:
        """`current`: the default format now; `preview(fmt)`: the current paper in `fmt`."""
        super().__init__()
        self.current = current
        self.preview = preview

    def compose(self) -> ComposeResult:
        with Vertical(id="cite-picker"):
            yield Label("Copy as… (enter copies and makes it the default for c)", id="cite-picker-title")
            yield OptionList(*(Option(label, id=fmt) for fmt, label in FORMATS.items()))
            yield Static(id="cite-preview")
        yield KeysFooter()

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = options.get_option_index(self.current)
        options.focus()

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        lines = self.preview(message.option_id or self.current).splitlines()
        more = ["…"] if len(lines) > PREVIEW_LINES else []
        self.query_one("#cite-preview", Static).update(Content("\n".join(lines[:PREVIEW_LINES] + more)))

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        self.dismiss(message.option_id)

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        options.action_cursor_down() if step > 0 else options.action_cursor_up()
