"""The export dialog (`x`): asks where to write the papers shown; the extension picks the format.

It shows the file it will write as an absolute path (a relative name lands in the folder triage was
started from) and, under the field, why it cannot (an unknown extension, an existing file).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Label, Static

from store.cite import export
from store.common.errors import ReadError
from tui.widgets.footer import KeysFooter
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

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", tooltip="Cancel a dialog", id="cancel")]
    FIELD_KEYS = [Binding("enter", "", "Write"), Binding("tab", "", "Overwrite box")]

    DEFAULT_CSS = """
    ExportDialog {
        align: center middle;
        #export-dialog { width: 80; max-width: 95%; height: auto; border: round $accent; background: $surface; padding: 0 1; }
        #export-title { text-style: bold; }
        #export-help { color: $text-muted; margin-bottom: 1; }
        #export-target { color: $text-muted; }
        #export-error { color: $error; }
    }
    """

    def __init__(self, count: int, write: Callable[[str, bool], str], which: str = "shown") -> None:
        """`write(path, force)` writes and returns what to tell the user, or raises `ReadError`; `which`
        papers they are ("shown", "selected")."""
        super().__init__()
        self.count = count
        self.which = which
        self.write = write

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog"):
            yield Label(f"Export the {self.count} papers {self.which} to", id="export-title")
            yield Label(".md reading list by priority · .bib · .ris · .json CSL-JSON · .csv · .jsonl", id="export-help")
            yield Input(DEFAULT_NAME, id="export-path", select_on_focus=False)
            yield Static(id="export-target", markup=False)
            yield Static(id="export-error", markup=False)
            yield Checkbox("Overwrite if it exists", id="export-force")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show_target(DEFAULT_NAME)

    def on_input_changed(self, message: Input.Changed) -> None:
        message.stop()
        self.show_target(message.value.strip())

    def show_target(self, path: str) -> None:
        """The absolute path that `path` writes, and under it the extension's problem if it has one."""
        target = self.query_one("#export-target", Static)
        error = self.query_one("#export-error", Static)
        if not path:
            target.update("")
            error.update("")
            return
        try:
            fmt = export.format_for(path)
        except ReadError as exc:
            fmt, problem = None, exc.message
        else:
            problem = ""
        where = Path(path).expanduser().resolve()
        target.update(Content(f"writes {where}" + (f" ({fmt})" if fmt else "")))
        error.update(Content(problem))

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        path = message.value.strip()
        if not path:
            return
        try:
            done = self.write(path, self.query_one("#export-force", Checkbox).value)
        except export.Exists as exc:
            self.query_one("#export-error", Static).update(Content(f"{exc}: tick Overwrite to replace it"))
            return
        except ReadError as exc:
            self.query_one("#export-error", Static).update(Content(str(exc)))
            return
        self.dismiss(done)
