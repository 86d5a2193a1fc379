"""The app's standing rules (store.marks.rules): marking the papers that arrive, proposing rules, and `K`.

Papers arrive when the database first sees them (`store.library.seen.Opened.arrived`): at the open (once the
index is made: a rule is a search), when a long list lands whole, and when `F` or `R` reads the lists again
(tui.feeding, tui.watching call `mark_arrivals`). The rules' marks on them are one triage action (`change`: one
`u` undoes them all), made only on papers still without a mark when they land, and said in a notification
("3 papers dismissed by rule kw:federated").

Once five papers you marked not for me share a keyword, area or author that is not a rule (nor declined for
good), a notification proposes it once this session, with how many papers it matches now; `K` answers it
(tui.screens.rules.ProposeRule: make it a rule, not now, never ask again). With no proposal waiting, `K` opens
the rules picker (preview, edit, remove); the palette has each rule's preview, edit and removal, and "New rule
from the query shown". A mixin of `TriageApp`; rules are written on the writer thread, as saved searches are.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker
from textual.app import SystemCommand
from textual.markup import escape

from store.marks import rules
from store.marks.db import TriageStore
from store.marks.rules import LEAST_SHARED, Applied, Change, Proposal, Rule, Rules, untouched
from store.papers.model import Paper, Triage
from store.papers.rows import ById
from store.search.query import clipped, parse
from tui.saving import Saver
from tui.screens.rules import QUERY_WIDTH, Counted, EditRule, ProposeRule, RulesPicker
from tui.textual_private import keymap_of
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from store.search.engine import Engine

RULE_SCREENS = (ProposeRule, EditRule, RulesPicker)
"""The dialogs over which the triage keys do nothing (their letters are theirs)."""


def counts(ids: list[str], states: dict[str, Triage]) -> Counted:
    """How many papers a query matched (`ids`), and how many of those have no mark (`states`)."""
    return len(ids), sum(untouched(states.get(pid)) for pid in ids)


class RuleActions:
    """`K` (see TriageApp's key table), the rules' palette commands, and the rules applied to arrivals."""

    store: TriageStore
    states: dict[str, Triage]
    new_ids: frozenset[str]
    arrived: frozenset[str]
    papers_by_id: ById
    _saver: Saver
    _search_index: Callable[[], Engine]
    change: Callable[..., None]
    rules: Rules = Rules()
    """The rules, as this window last saved or read them."""
    _rules_version = 0
    _offered: frozenset[str] = frozenset()
    """The proposals made this session (each is made once)."""
    _proposal: tuple[Proposal, int, Counted] | None = None
    """The proposal `K` answers: the rule, how many dismissed papers it matches, and its counts now."""
    _by_rule = False
    """Whether the marks being made are the rules' (they propose no rule)."""

    def start_rules(self) -> None:
        """Read the rules (at start: each stored entry that was skipped is a notification), and mark the papers that
        arrived with a whole list opened now."""
        self.rules = rules.load(self.store)
        for notice in self.rules.notices:
            self.notify(notice, title="Rules", severity="warning", timeout=20, markup=False)  # type: ignore[attr-defined]
        self.mark_arrivals()

    # --- marking what arrives ------------------------------------------------------------------------------------

    def mark_arrivals(self) -> None:
        """Apply the rules to the papers that arrived since last asked (on a worker thread: it waits for the index)."""
        arrived, self.arrived = self.arrived, frozenset()
        if arrived and self.rules:
            self._apply_rules(arrived, self.rules, dict(self.states), self.new_ids)

    @work(thread=True, group="rules")
    def _apply_rules(self, arrived: frozenset[str], stored: Rules, states: dict[str, Triage], new: frozenset[str]) -> None:
        index = self._search_index()
        done = rules.applied(stored, arrived, states, lambda query: index.search(query, states, new).ids)
        if done:
            self._from_writer(partial(self._marked_by_rules, done))  # type: ignore[attr-defined]

    def _marked_by_rules(self, done: Applied) -> None:
        """Make the rules' marks, one triage action, on the papers still shown and still without a mark."""
        done = done.only(lambda pid: pid in self.papers_by_id and untouched(self.states.get(pid)))
        if not done:
            return
        self._by_rule = True
        try:
            self.change(done.states)
        finally:
            self._by_rule = False
        undo = keymap_of(self).get("undo", "u")  # type: ignore[arg-type]
        self.notify(f"{done.summary()} ({undo} undoes)", title="Rules", timeout=12, markup=False)  # type: ignore[attr-defined]

    # --- proposals -----------------------------------------------------------------------------------------------

    def dismissed_some(self) -> None:
        """After papers were marked not for me: look for a rule to propose, on a worker thread (a newer look cancels
        an older one: ~30 ms over 1,000 dismissed papers)."""
        if not self._by_rule:
            self._find_proposal(dict(self.states), self.new_ids, self.rules, self._offered)

    @work(thread=True, exclusive=True, group="proposal")
    def _find_proposal(self, states: dict[str, Triage], new: frozenset[str], stored: Rules, offered: frozenset[str]) -> None:
        """The first rule to propose not offered yet this session, with its counts; then `_propose`."""
        by_id = self.papers_by_id
        dismissed = [by_id[pid] for pid, state in states.items() if state.dismissed and pid in by_id]
        if len(dismissed) < LEAST_SHARED:
            return
        proposal = next((p for p in rules.proposals(dismissed, states, stored) if p.query not in offered), None)
        if proposal is None or get_current_worker().is_cancelled:
            return
        ids = self._search_index().search(proposal.query, states, new).ids
        matched = sum(states[pid].dismissed for pid in ids if pid in states)
        self._from_writer(partial(self._propose, proposal, matched, counts(ids, states)))  # type: ignore[attr-defined]

    def _counter(self, states: dict[str, Triage], new: frozenset[str]) -> Callable[[str], Counted | str]:
        """How many papers of the list a query matches and how many of those have no mark (on a worker thread)."""
        def count(query: str) -> Counted | str:
            parsed = parse(query)
            if parsed.too_long:
                return "too long"
            return counts(self._search_index().search(parsed, states, new).ids, states)

        return count

    def _propose(self, proposal: Proposal, dismissed: int, counted: Counted) -> None:
        if proposal.query in self._offered or self.rules.of_query(proposal.query):  # (offered, or made a rule, meanwhile)
            return
        self._offered = self._offered | {proposal.query}
        self._proposal = (proposal, dismissed, counted)
        key = keymap_of(self).get("rules", "K")  # type: ignore[arg-type]
        self.notify(f"{dismissed:,} papers you dismissed match {proposal.query} — dismiss such papers as they arrive? "  # type: ignore[attr-defined]
                    f"{key} answers (it matches {counted[0]:,} of this list now)", title="Rule proposed", timeout=20, markup=False)

    # --- K, the palette ------------------------------------------------------------------------------------------

    def action_rules(self) -> None:
        """Answer the rule proposed, or else open the rules picker."""
        if self._proposal is not None:
            proposal, dismissed, counted = self._proposal
            self._proposal = None

            def answered(answer: str | None) -> None:
                if answer == "accept":
                    self._change_rules(rules.adding(Rule(proposal.query)), f"Rule added: dismiss {proposal.query} as such papers arrive")
                elif answer == "never":
                    self._change_rules(rules.declining(proposal.query), f"{proposal.query} will not be proposed again")

            self.push_screen(ProposeRule(proposal.query, dismissed, counted), answered)  # type: ignore[attr-defined]
            return
        if not self.rules:
            self.notify("No rules yet: once 5 papers you marked not for me share a keyword, area or author, one is "  # type: ignore[attr-defined]
                        "proposed; the palette's \"New rule from the query shown\" makes one", markup=False)
            return

        def picked(result: tuple[str, Rule] | None) -> None:
            if result is not None:
                what, rule = result
                {"preview": self.action_preview_rule, "edit": self.action_edit_rule, "remove": self.action_remove_rule}[what](rule)

        self.push_screen(RulesPicker(self.rules, self._counter(dict(self.states), self.new_ids)), picked)  # type: ignore[attr-defined]

    def action_preview_rule(self, rule: Rule) -> None:
        """The list filtered by the rule's query (as if typed), the list focused."""
        self.action_leave_similar()  # type: ignore[attr-defined]
        self.query_one(FilterBar).value = rule.query  # type: ignore[attr-defined]
        self.screen.set_focus(self.query_one(PaperList))  # type: ignore[attr-defined]

    def action_edit_rule(self, rule: Rule | None = None) -> None:
        """Edit `rule` (None: a new rule, from the query shown)."""
        start = rule or Rule(self.query_one(FilterBar).value.strip())  # type: ignore[attr-defined]

        def edited(new: Rule | None) -> None:
            if new is not None and new != rule:
                self._change_rules(rules.adding(new, instead_of=rule), f"Rule {'changed' if rule else 'added'}: {new.does} {new.query}")

        self.push_screen(EditRule(start, "Edit rule" if rule else "New rule: marks the papers that arrive"), edited)  # type: ignore[attr-defined]

    def action_remove_rule(self, rule: Rule) -> None:
        self._change_rules(rules.removing(rule), f"Rule removed: {rule.does} {rule.query}")

    def _change_rules(self, change: Change, done: str) -> None:
        """Show `change` now, then store it on the writer thread and show the merged result."""
        try:
            changed = self.rules.changed(change)
        except ValueError as exc:
            self.notify(str(exc), title="Rules", severity="warning", markup=False)  # type: ignore[attr-defined]
            return
        self._rules_version += 1
        self.rules = changed
        self.notify(done, title="Rules", markup=False)  # type: ignore[attr-defined]
        self._saver.run(self._store_rules, change, self._rules_version)

    def _store_rules(self, change: Change, version: int) -> None:
        merged = rules.apply(self.store, change)
        self._from_writer(partial(self._merged_rules, merged, version))  # type: ignore[attr-defined]

    def _merged_rules(self, merged: Rules, version: int) -> None:
        if version == self._rules_version:
            self.rules = merged

    def rule_commands(self) -> Iterator[SystemCommand]:
        """The palette's commands: a new rule from the query shown, then each rule's preview, edit and removal."""
        yield SystemCommand("New rule from the query shown", "mark the papers that arrive matching it", self.action_edit_rule)
        for verb, action in (("Preview", self.action_preview_rule), ("Edit", self.action_edit_rule),
                             ("Remove", self.action_remove_rule)):
            for rule in self.rules:
                yield SystemCommand(f"{verb} rule: {escape(rule.does)} {escape(clipped(rule.query, QUERY_WIDTH))}", "standing rule",
                                    partial(action, rule))
