"""Small modal dialogs for triage: a note editor, a tag editor, a yes/no confirmation."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label

from tui.widgets.footer import KeysFooter
from tui.widgets.inputs import Input, TextArea

DIALOG_CSS = """
{name} {{
    align: center middle;
    & > Vertical {{
        width: 80%;
        max-width: 100;
        height: auto;
        max-height: 80%;
        padding: 1 2;
        border: thick $accent;
        background: $surface;
    }}
    .dialog-title {{ text-style: bold; margin-bottom: 1; }}
    .dialog-hint {{ color: $text-muted; margin-top: 1; }}
}}
"""


class _Editor(ModalScreen):
    """Edits one value of a paper; `esc` cancels (the result is None)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", tooltip="Cancel a dialog", id="cancel")]

    def __init__(self, title: str, value: object) -> None:
        super().__init__()
        self.paper_title = title
        self.value = value

    def action_cancel(self) -> None:
        self.dismiss(None)


class NoteEditor(_Editor):
    """Edit a paper's note: `ctrl+s` saves (the result is the text), `esc` cancels."""

    DEFAULT_CSS = DIALOG_CSS.format(name="NoteEditor") + "NoteEditor TextArea { height: 12; }"
    # Not a priority binding: ctrl+s must reach the screen through the text area, after the keys and the
    # paste that came before it (a priority binding runs as the key arrives, before the area has them).
    BINDINGS = [Binding("ctrl+s", "save", "Save", tooltip="Save the note", id="save")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Content("Note · " + self.paper_title), classes="dialog-title")
            yield TextArea(str(self.value), id="note", soft_wrap=True)
            yield Label("ctrl+s save · esc cancel", classes="dialog-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.move_cursor(area.document.end)
        area.focus()

    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text.strip())


def parse_tags(text: str) -> tuple[str, ...]:
    """Tags from what the user typed: separated by commas or spaces, each once, in order."""
    return tuple(dict.fromkeys(tag for tag in text.replace(",", " ").split()))


class TagEditor(_Editor):
    """Edit a paper's tags on one line: `enter` saves (the result is a tuple of tags), `esc` cancels."""

    DEFAULT_CSS = DIALOG_CSS.format(name="TagEditor")
    FIELD_KEYS = [Binding("enter", "", "Save")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Content("Tags · " + self.paper_title), classes="dialog-title")
            yield Input(" ".join(self.value), placeholder="tags, separated by spaces or commas", id="tags")
            yield Label("enter save · esc cancel", classes="dialog-hint")
        yield KeysFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(parse_tags(event.value))


class Confirm(ModalScreen[bool]):
    """A yes/no question: `y` or `enter` answers yes, `n` or `esc` no."""

    DEFAULT_CSS = DIALOG_CSS.format(name="Confirm")
    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", tooltip="Answer yes", id="yes"),
        Binding("n,escape", "answer(False)", "No", tooltip="Answer no", id="no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Content(self.question), classes="dialog-title")
            yield Label("y yes · n no", classes="dialog-hint")
        yield KeysFooter()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
