"""The filter bar: the query typed, what was not understood in it, and how many papers match."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.widgets import Static

from tui.keys import SEARCH
from tui.widgets.inputs import Input
from tui.widgets.line_text import counted, show_line

PLACEHOLDER = 'filter: words (typos ok), "phrase", a OR b, NOT a, is:unread, p<=2…'
"""What the bar says before a query is typed: whole at 80 columns (its input then has 72 cells)."""
TYPING = "type a query · enter: back to the list · esc: clear · ? after leaving: the syntax"


class QueryInput(Input):
    """The query's input. Its width is the bar's share (`1fr`), not its text's: the text's width it keeps
    as its virtual size (how far it scrolls) without laying the screen out again, which Textual's
    `Input` does on every character typed."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)


class FilterBar(Horizontal):
    """A one-line query input with a hint and a count ("7 of 19"; greyed, "7 of 19 · not shown", while
    "more like this" is shown instead of the matches).

    | Key | Action |
    | :- | :- |
    | `enter` | Back to the list, keeping the filter |
    | `esc` | Clear the filter and go back to the list |
    """

    BINDINGS = [
        Binding("escape", "clear", "Clear filter", group=SEARCH, tooltip="Clear the filter, back to the list", id="clear_filter"),
    ]

    DEFAULT_CSS = """
    FilterBar {
        height: 1;
        background: $panel;
        & > #filter-prompt { width: auto; padding: 0 0 0 1; color: $text-muted; }
        & > Input, & > Input:focus { width: 1fr; height: 1; border: none; padding: 0 1; background: $panel; }
        & > Input:focus { background: $surface; }
        & > #filter-hint { width: auto; max-width: 50%; padding: 0 1; color: $text-warning; }
        & > #filter-count { width: auto; padding: 0 1; color: $text-muted; }
        &.-aside > #filter-count { color: $text-disabled; }
    }
    """

    class Changed(Message):
        """The query text changed (on every keystroke)."""

        def __init__(self, filter_bar: FilterBar, value: str) -> None:
            super().__init__()
            self.filter_bar = filter_bar
            self.value = value

        @property
        def control(self) -> FilterBar:
            return self.filter_bar

    class Done(Message):
        """The user is done with the filter (`enter`, or `esc` after clearing it)."""

        def __init__(self, filter_bar: FilterBar) -> None:
            super().__init__()
            self.filter_bar = filter_bar

        @property
        def control(self) -> FilterBar:
            return self.filter_bar

    _count = ""
    """The count shown ("7 of 19"), '' without a query."""

    def compose(self) -> ComposeResult:
        yield Static("/", id="filter-prompt", markup=False)
        yield QueryInput(placeholder=PLACEHOLDER, id="filter-input", select_on_focus=False)
        yield Static(id="filter-hint", markup=False)
        yield Static(id="filter-count", markup=False)

    @property
    def input(self) -> Input:
        """The input the query is typed in."""
        return self.query_one(Input)

    @property
    def value(self) -> str:
        return self.input.value

    @value.setter
    def value(self, text: str) -> None:
        """Set the query (a restored session's); `Changed` follows as if it had been typed."""
        self.input.value = text

    def focus_input(self) -> None:
        """Focus the input now, not after the queued events (`focus()` waits for them): the keys
        typed right after `/` then go to the query, however fast they come."""
        self.screen.set_focus(self.input)

    def show_result(self, shown: int, total: int, hint: str) -> None:
        """Show how many papers match ("7 of 19"; nothing when the filter is empty) and the query's hint."""
        self._count = f"{counted(shown, total)} of {counted(total, total)}" if self.value.strip() else ""
        self._show_count()
        hint_widget = self.query_one("#filter-hint", Static)
        show_line(hint_widget, Content(hint))
        hint_widget.display = bool(hint)

    def set_aside(self, aside: bool) -> None:
        """While "more like this" is shown instead of the query's matches, the count is greyed and says so."""
        if aside != self.has_class("-aside"):
            self.set_class(aside, "-aside")
            self._show_count()

    def _show_count(self) -> None:
        aside = self._count and self.has_class("-aside")
        show_line(self.query_one("#filter-count", Static), Content(f"{self._count} · not shown" if aside else self._count))

    def show_indexing(self) -> None:
        """Say that results wait for the index (being built when a long list was just opened)."""
        show_line(self.query_one("#filter-count", Static), Content("indexing…"))

    def on_descendant_focus(self) -> None:
        self.input.placeholder = TYPING

    def on_descendant_blur(self) -> None:
        self.input.placeholder = PLACEHOLDER

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(self, event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Done(self))

    def action_clear(self) -> None:
        self.input.value = ""
        self.post_message(self.Done(self))
