"""The export dialog (`x`): asks where to write the papers shown; the extension picks the format."""
from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Label, Static

from store.errors import ReadError
from tui.widgets.inputs import Input

DEFAULT_NAME = "reading-list.md"


class ExportDialog(ModalScreen[str | None]):
    """Export the papers shown to a file: `enter` writes, `esc` cancels. An existing file is kept
    unless "Overwrite" is ticked; the dialog stays open with the reason when the write fails.

    | Key | Action |
    | :- | :- |
    | `enter` | Write the file |
    | `tab` | To the Overwrite box (`space` ticks it) |
    | `esc` | Cancel |
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    DEFAULT_CSS = """
    ExportDialog {
        align: center middle;
        #export-dialog { width: 80; max-width: 95%; height: auto; border: round $accent; background: $surface; padding: 0 1; }
        #export-title { text-style: bold; }
        #export-help { color: $text-muted; margin-bottom: 1; }
        #export-error { color: $error; }
    }
    """

    def __init__(self, count: int, write: Callable[[str, bool], str]) -> None:
        """`write(path, force)` writes and returns what to tell the user, or raises `ReadError`."""
        super().__init__()
        self.count = count
        self.write = write

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog"):
            yield Label(f"Export the {self.count} papers shown to", id="export-title")
            yield Label(".md reading list by priority · .bib BibTeX · .csv · .jsonl", id="export-help")
            yield Input(DEFAULT_NAME, id="export-path", select_on_focus=False)
            yield Checkbox("Overwrite if it exists", id="export-force")
            yield Static(id="export-error")

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        path = message.value.strip()
        if not path:
            return
        try:
            done = self.write(path, self.query_one("#export-force", Checkbox).value)
        except ReadError as exc:
            self.query_one("#export-error", Static).update(Content(str(exc)))
            return
        self.dismiss(done)
