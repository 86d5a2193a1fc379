"""Saved-search dialogs: saving the query under a name and a letter (`M`), and the picker (`'`) that
lists the saved searches with how many papers each matches and runs one by its letter."""
from __future__ import annotations

from collections.abc import Callable

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from store.search.query import clipped
from store.marks.saved import LETTERS, SavedSearch, SavedSearches, problem
from tui.screens.dialogs import DIALOG_CSS
from tui.widgets.footer import KeysFooter
from tui.widgets.inputs import Input

NAME_WIDTH = 24
"""Names longer than this are cut in the picker's rows (the query follows them)."""
QUERY_WIDTH = 200
"""Queries longer than this are cut in the picker's rows (a saved query may be megabytes long)."""


class SaveSearch(ModalScreen[tuple[str, str] | None]):
    """Save the query under a name and a letter: `enter` saves (the result is (name, letter)), `tab`
    goes to the other field, `esc` cancels. A search of that name, or on that letter, is replaced."""

    DEFAULT_CSS = DIALOG_CSS.format(name="SaveSearch") + """
    SaveSearch #saved-letter { width: 10; }
    SaveSearch .dialog-hint.-warning { color: $text-warning; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", tooltip="Cancel a dialog", id="cancel")]
    FIELD_KEYS = [Binding("enter", "", "Save"), Binding("tab", "", "Next field")]

    def __init__(self, query: str, searches: SavedSearches) -> None:
        super().__init__()
        self.search_query = query.strip()
        self.searches = searches
        existing = searches.of_query(query)
        self.start = (existing.name, existing.letter) if existing else (self.search_query, searches.free_letter() or "a")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Content("Save search · " + self.search_query), classes="dialog-title")
            yield Label("Name (triage list --saved NAME runs it)")
            yield Input(self.start[0], id="saved-name")
            yield Label("Letter: ' then it runs the search")
            yield Input(self.start[1], id="saved-letter", max_length=1, restrict=f"[{LETTERS[0]}-{LETTERS[-1]}]?")
            yield Label(id="saved-hint", classes="dialog-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._show_hint()

    def _fields(self) -> tuple[str, str]:
        return self.query_one("#saved-name", Input).value.strip(), self.query_one("#saved-letter", Input).value

    def _show_hint(self) -> str:
        """Say what saving would do (replace which search) or what is wrong; the problem ("" if none)."""
        name, letter = self._fields()
        wrong = problem(name, self.search_query, letter)
        notes = []
        other, same = self.searches.on(letter), self.searches.named(name)
        if other is not None and other.name != name:
            notes.append(f"replaces {other.name} on {letter}")
        if same is not None and same.query != self.search_query:
            notes.append(f"replaces the query of {name}")
        replaces = "".join(f" · {note}" for note in notes)
        hint = self.query_one("#saved-hint", Label)
        hint.update(Content(wrong.capitalize() if wrong else f"enter save{replaces} · tab next field · esc cancel"))
        hint.set_class(bool(wrong or replaces), "-warning")
        return wrong

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._show_hint()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not self._show_hint():
            self.dismiss(self._fields())


class SavedPicker(ModalScreen[str | None]):
    """The saved searches with the number of papers each matches: a search's letter, or `enter` on
    it, runs it (the result is its name); `esc` cancels.

    The counts are made on a worker thread when the picker opens, over the marks as they were then."""

    DEFAULT_CSS = """
    SavedPicker {
        align: center middle;
        #saved-picker { width: 90; max-width: 95%; height: auto; max-height: 80%; border: round $accent; background: $surface; padding: 0 1; }
        #saved-picker-title { text-style: bold; margin-bottom: 1; }
        OptionList, OptionList:focus { height: auto; max-height: 28; border: none; padding: 0; }
        #saved-picker-hint { color: $text-muted; margin-top: 1; }
    }
    """
    FIELD_KEYS = [Binding("enter", "", "Run")]
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", tooltip="Cancel a dialog", id="cancel")]

    def __init__(self, searches: SavedSearches, count: Callable[[str], int | str]) -> None:
        """`count(query)`: how many papers the query matches, or why it is not counted ("too long"),
        called on a worker thread."""
        super().__init__()
        self.searches = searches
        self.count = count
        self.counts: dict[str, int | str] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="saved-picker"):
            yield Label("Saved searches", id="saved-picker-title")
            yield OptionList(*(Option(self._row(search), id=search.letter) for search in self.searches))
            yield Label("letter or enter: run it · ↑/↓ move · esc cancel · forget one: ctrl+p \"Forget\"", id="saved-picker-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._count_all()

    def _row(self, search: SavedSearch) -> Content:
        count = self.counts.get(search.letter)
        return Content.assemble(
            (search.letter, "bold"), "  ", f"{clipped(search.name, NAME_WIDTH):<{NAME_WIDTH}}", "  ",
            (f"{'…' if count is None else count:>6}", "bold"), "  ", (clipped(search.query, QUERY_WIDTH), "italic"),
        )

    @work(thread=True, exclusive=True, group="saved-counts")
    def _count_all(self) -> None:
        for search in self.searches:
            count = self.count(search.query)
            if get_current_worker().is_cancelled:
                return
            self.app.call_from_thread(self._show_count, search, count)

    def _show_count(self, search: SavedSearch, count: int | str) -> None:
        # (a count that comes as the picker closes, a letter pressed: its list may be gone before the picker is, and
        # the app ended on it with a traceback)
        for options in self.query(OptionList):
            self.counts[search.letter] = count
            options.replace_option_prompt(search.letter, self._row(search))

    def on_key(self, event: events.Key) -> None:
        """A letter runs the search on it: the letters are the searches', not key bindings (a keys file
        cannot move them, as vim's marks)."""
        if event.character is not None and len(event.character) == 1 and event.character in LETTERS:
            event.stop()
            event.prevent_default()
            self.run(event.character)

    def run(self, letter: str) -> None:
        search = self.searches.on(letter)
        if search is None:
            self.app.bell()
        else:
            self.dismiss(search.name)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.run(message.option_id or "")
