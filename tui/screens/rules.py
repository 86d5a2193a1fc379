"""Standing-rule dialogs: a proposal to answer (`y` make it a rule, `n` not now, `N` never ask again), the rules
picker (each rule with how many papers of the list it matches: `enter` previews, `e` edits, `x` removes), and
the editor of a rule (its query and what it does)."""
from __future__ import annotations

from collections.abc import Callable

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from store.marks.rules import Rule, Rules, problem
from store.search.query import clipped, parse
from tui.screens.dialogs import DIALOG_CSS
from tui.widgets.footer import KeysFooter
from tui.widgets.inputs import Input

QUERY_WIDTH = 200
"""Queries longer than this are cut in the picker's rows."""

Counted = tuple[int, int]
"""How many papers of the list a query matches, and how many of those have no mark."""


class ProposeRule(ModalScreen[str | None]):
    """A rule proposed from the papers you dismissed: `y`/`enter` makes it a rule ("accept"), `n`/`esc` not now
    ("no"), `N` never asks again for it ("never")."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ProposeRule")
    BINDINGS = [
        Binding("y,enter", "dismiss('accept')", "Make it a rule", tooltip="Make the proposed rule", id="rule_accept"),
        Binding("n,escape", "dismiss('no')", "Not now", tooltip="Not now", id="rule_not_now"),
        Binding("N", "dismiss('never')", "Never ask", tooltip="Never propose this rule again", id="rule_never"),
    ]

    def __init__(self, query: str, dismissed: int, counted: Counted) -> None:
        super().__init__()
        self.rule_query, self.dismissed, self.counted = query, dismissed, counted

    def compose(self) -> ComposeResult:
        matched, free = self.counted
        with Vertical():
            yield Label(Content(f"{self.dismissed:,} papers you dismissed match {self.rule_query} — dismiss such papers "
                                "as they arrive?"), classes="dialog-title")
            yield Label(Content(f"It matches {matched:,} papers of this list now, {free:,} of them without a mark. A rule "
                                "marks only papers that arrive (new to the database), never one with a mark; u undoes "
                                "what it did."))
            yield Label(Content(f"y make it a rule · n not now · N never ask again for {clipped(self.rule_query)}"),
                        classes="dialog-hint")
        yield KeysFooter()


def described(text: str) -> tuple[str, str]:
    """What the action field says → (action, tag): "dismiss", "star", "tag NAME" (else ("", text): `problem` says why)."""
    words = text.split()
    if words[:1] == ["tag"] and len(words) == 2:
        return "tag", words[1]
    return (words[0], "") if len(words) == 1 else ("", text)


class EditRule(ModalScreen[Rule | None]):
    """A rule's query and what it does ("dismiss", "star" or "tag NAME"): `enter` saves (the result is the rule),
    `tab` goes to the other field, `esc` cancels."""

    DEFAULT_CSS = DIALOG_CSS.format(name="EditRule") + "EditRule .dialog-hint.-warning { color: $text-warning; }"
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", tooltip="Cancel a dialog", id="cancel")]
    FIELD_KEYS = [Binding("enter", "", "Save"), Binding("tab", "", "Next field")]

    def __init__(self, rule: Rule, title: str) -> None:
        super().__init__()
        self.rule, self.title_text = rule, title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Content(self.title_text), classes="dialog-title")
            yield Label("Query (the filter's syntax: kw:federated, author:\"Ann Lee\", area:robotics…)")
            yield Input(self.rule.query, id="rule-query")
            yield Label("Does: dismiss (not for me), star, or tag NAME")
            yield Input(self.rule.does, id="rule-action")
            yield Label(id="rule-hint", classes="dialog-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._show_hint()

    def _rule(self) -> tuple[Rule, str]:
        """The rule the fields say, and what is wrong with it ("" when nothing is)."""
        query = self.query_one("#rule-query", Input).value.strip()
        action, tag = described(self.query_one("#rule-action", Input).value)
        wrong = problem(query, action, tag) or parse(query).hint
        return Rule(query, action, tag), wrong

    def _show_hint(self) -> str:
        wrong = self._rule()[1]
        hint = self.query_one("#rule-hint", Label)
        hint.update(Content(wrong or
                            "enter save · tab next field · esc cancel — marks the papers that arrive from now on"))
        hint.set_class(bool(wrong), "-warning")
        return wrong

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._show_hint()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        rule, wrong = self._rule()
        if not wrong:
            self.dismiss(rule)


class RulesPicker(ModalScreen[tuple[str, Rule] | None]):
    """The rules, each with how many papers of the list it matches now (and how many of those have no mark):
    `enter` previews one ("preview": the list filtered by its query), `e` edits it, `x` removes it, `esc` cancels.
    The counts are made on a worker thread when the picker opens."""

    DEFAULT_CSS = """
    RulesPicker {
        align: center middle;
        #rules-picker { width: 100; max-width: 95%; height: auto; max-height: 80%; border: round $accent; background: $surface; padding: 0 1; }
        #rules-picker-title { text-style: bold; margin-bottom: 1; }
        OptionList, OptionList:focus { height: auto; max-height: 28; border: none; padding: 0; }
        #rules-picker-hint { color: $text-muted; margin-top: 1; }
    }
    """
    FIELD_KEYS = [Binding("enter", "", "Preview")]
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel", tooltip="Cancel a dialog", id="cancel"),
        Binding("e", "answer('edit')", "Edit", tooltip="Edit the rule", id="rule_edit"),
        Binding("x,delete", "answer('remove')", "Remove", tooltip="Remove the rule", id="rule_remove"),
    ]

    def __init__(self, rules: Rules, count: Callable[[str], Counted | str]) -> None:
        """`count(query)`: (matched, without a mark), or why it is not counted; called on a worker thread."""
        super().__init__()
        self.rules = rules
        self.count = count
        self.counts: dict[int, Counted | str] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="rules-picker"):
            yield Label("Rules: marks made on the papers that arrive (matched now · of them without a mark)",
                        id="rules-picker-title")
            yield OptionList(*(Option(self._row(n, rule), id=str(n)) for n, rule in enumerate(self.rules)))
            yield Label("enter preview · e edit · x remove · ↑/↓ move · esc cancel", id="rules-picker-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._count_all()

    def _row(self, n: int, rule: Rule) -> Content:
        count = self.counts.get(n)
        shown = "…" if count is None else count if isinstance(count, str) else f"{count[0]:,} · {count[1]:,}"
        return Content.assemble((f"{n + 1:>2}", "bold"), "  ", f"{rule.does:<14}", (f"{shown:>14}", "bold"), "  ",
                                (clipped(rule.query, QUERY_WIDTH), "italic"))

    @work(thread=True, exclusive=True, group="rule-counts")
    def _count_all(self) -> None:
        for n, rule in enumerate(self.rules):
            count = self.count(rule.query)
            if get_current_worker().is_cancelled:
                return
            self.app.call_from_thread(self._show_count, n, rule, count)

    def _show_count(self, n: int, rule: Rule, count: Counted | str) -> None:
        if self.is_mounted:
            self.counts[n] = count
            self.query_one(OptionList).replace_option_prompt(str(n), self._row(n, rule))

    def _highlighted(self) -> Rule | None:
        index = self.query_one(OptionList).highlighted
        return self.rules.rules[index] if index is not None and 0 <= index < len(self.rules) else None

    def action_answer(self, what: str) -> None:
        rule = self._highlighted()
        if rule is not None:
            self.dismiss((what, rule))

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.action_answer("preview")
