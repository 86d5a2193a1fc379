"""Standing rules in the app (Pilot, on the ICLR 2024 corpus): five papers dismissed that share a keyword bring
a proposal with its count; `K` then `y` makes the rule; a list with new papers opened later has those the rule
matches dismissed — not the one already starred, nor the old ones — and one `u` undoes them all."""
from __future__ import annotations

import json

from textual.command import CommandInput, CommandList, CommandPalette

from store.marks import rules
from store.marks.db import TriageStore
from store.marks.rules import Rule
from store.papers.model import Triage
from store.readers import read_path
from tests.loopback import sample_records
from tests.test_saved_app import query
from tests.test_views_app import palette, press
from tests.waits import settled, until
from tui.app import TriageApp
from tui.screens.rules import EditRule, ProposeRule, RulesPicker
from tui.widgets.filter_bar import FilterBar

SIZE = (120, 40)


def federated(row: dict) -> bool:
    return "federated learning" in [k.lower() for k in row.get("keywords") or []]


def lists(corpora, tmp_path):
    """day1.jsonl: the first 400 ICLR papers (9 with the keyword federated learning); day2.jsonl: those and 40 more
    (3 more with it)."""
    rows = [json.loads(line) for line in (corpora / "iclr-2024-papers.jsonl").read_text(encoding="utf-8").split("\n")[:800]]
    more = [row for row in rows[400:] if federated(row)][:3] + [row for row in rows[400:] if not federated(row)][:37]
    day1, day2 = tmp_path / "day1.jsonl", tmp_path / "day2.jsonl"
    day1.write_text("".join(json.dumps(row) + "\n" for row in rows[:400]), encoding="utf-8")
    day2.write_text("".join(json.dumps(row) + "\n" for row in rows[:400] + more), encoding="utf-8")
    return day1, day2


def the_ids(app: TriageApp, text: str) -> list[str]:
    return app._search_index().search(text, app.states).ids


async def test_five_dismissed_papers_propose_a_rule_which_marks_the_next_arrivals_as_one_undo_step(corpora, tmp_path):
    day1, day2 = lists(corpora, tmp_path)
    db = str(tmp_path / "db.json")
    app = TriageApp(read_path(str(day1)), db_path=db)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        await query(pilot, 'kw:"federated learning"')
        fl_old = the_ids(app, 'kw:"federated learning"')
        assert len(fl_old) >= 9
        for _ in range(5):  # the first match's keyword is "Multilingual Federated Learning": four share the keyword
            await press(pilot, "d")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app._offered
        await press(pilot, "d")
        await until(pilot, lambda: app._proposal is not None)
        assert app._proposal[0].query.casefold() == 'kw:"federated learning"' and app._proposal[1] == 6
        assert app._proposal[2] == (len(fl_old), len(fl_old) - 6)  # matched now, and of them without a mark
        await press(pilot, "K")
        await until(pilot, lambda: isinstance(app.screen, ProposeRule))
        shown = " ".join(str(label.content) for label in app.screen.query("Label"))
        assert "6 papers you dismissed match kw:" in shown and f"It matches {len(fl_old)} papers of this list now, {len(fl_old) - 6} of them" in shown
        await press(pilot, "y")
        await until(pilot, lambda: app.screen is app.default_screen and len(app.rules) == 1)
        rule = app.rules.numbered(1)
        await press(pilot, "d")  # another dismissal: the same value is not proposed again
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app._proposal is None
    assert [r.query for r in rules.load(TriageStore(db))] == [rule.query]  # stored

    store = TriageStore(db)  # one of the papers to come is starred already: the rule leaves it alone
    starred = next(p for p in read_path(str(day2)).papers if p.position == 400)
    store.put({starred.id: Triage(starred=True)})
    store.close()
    app = TriageApp(read_path(str(day2)), db_path=db)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        fl = the_ids(app, rule.query)
        new_fl = [pid for pid in fl if pid not in fl_old]
        assert len(new_fl) == 3 and starred.id in new_fl
        await until(pilot, lambda: all(app.state_of(pid).dismissed for pid in new_fl if pid != starred.id))
        assert app.state_of(starred.id) == Triage(starred=True, updated=app.state_of(starred.id).updated)
        assert [app.state_of(pid).dismissed for pid in fl_old].count(True) == 7  # the old ones: as they were (6 + 1)
        assert sum(state.dismissed for state in app.states.values()) == 9  # no other new paper touched
        await press(pilot, "u")  # one step undoes the rule's marks
        assert not any(app.state_of(pid).dismissed for pid in new_fl)
        assert sum(state.dismissed for state in app.states.values()) == 7


async def test_the_rules_picker_previews_edits_and_removes_and_the_palette_makes_the_query_shown_a_rule(seed_path, tmp_path):
    db = str(tmp_path / "db.json")
    store = TriageStore(db)
    rules.apply(store, rules.adding(Rule("diffusion")))
    store.close()
    app = TriageApp(read_path(seed_path), db_path=db)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        await press(pilot, "K")
        await until(pilot, lambda: isinstance(app.screen, RulesPicker) and app.screen.counts)
        matched = the_ids(app, "diffusion")
        assert app.screen.counts[0] == (len(matched), 0)  # the list's first open: its papers arrived, the rule marked them
        assert matched and all(app.state_of(pid).dismissed for pid in matched)
        await press(pilot, "enter")  # preview: the list filtered by its query
        await until(pilot, lambda: app.query_one(FilterBar).value == "diffusion" and not app._results_pending())
        await press(pilot, "K")
        await until(pilot, lambda: isinstance(app.screen, RulesPicker))
        await press(pilot, "e")
        await until(pilot, lambda: isinstance(app.screen, EditRule))
        action = app.screen.query_one("#rule-action")
        action.value = "tag later"
        app.screen.query_one("#rule-query").value = "is:stared"
        await pilot.pause()
        assert "is: needs one of" in str(app.screen.query_one("#rule-hint").content)  # a bad query is not saved
        await press(pilot, "enter")
        assert isinstance(app.screen, EditRule)
        app.screen.query_one("#rule-query").value = "diffusion model"
        await press(pilot, "enter")
        await until(pilot, lambda: app.screen is app.default_screen)
        assert [(r.query, r.does) for r in app.rules] == [("diffusion model", "tag later")]
        await query(pilot, "graph")
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        app.screen.query_one(CommandInput).value = "new rule from the query shown"
        await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
        await press(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, EditRule))
        assert app.screen.query_one("#rule-query").value == "graph"
        await press(pilot, "enter")
        await until(pilot, lambda: app.screen is app.default_screen and len(app.rules) == 2)
        await palette(pilot, "remove rule: tag later")
        await until(pilot, lambda: [r.query for r in app.rules] == ["graph"])
    await until(pilot, lambda: [r.query for r in rules.load(TriageStore(db))] == ["graph"])


async def test_R_reloading_a_list_grown_on_disk_marks_its_new_papers_as_one_more_undo_step(tmp_path):
    records = sample_records(24)  # "federated" on papers 10 and 22
    listing = tmp_path / "daily.jsonl"
    listing.write_text("".join(json.dumps(r) + "\n" for r in records[:12]), encoding="utf-8")
    db = str(tmp_path / "db.json")
    store = TriageStore(db)
    rules.apply(store, rules.adding(Rule("kw:federated")))
    store.close()
    app = TriageApp(read_path(str(listing)), db_path=db)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        first = the_ids(app, "kw:federated")
        await until(pilot, lambda: [app.state_of(pid).dismissed for pid in first] == [True])  # the first open's arrivals
        listing.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        await until(pilot, lambda: app.changed_on_disk)
        await press(pilot, "R")
        await until(pilot, lambda: len(app.papers_by_id) == 24 and len(the_ids(app, "is:dismissed")) == 2)
        assert set(the_ids(app, "is:dismissed")) == set(the_ids(app, "kw:federated"))
        await press(pilot, "u")  # the reload's rule marks: the first open's stay
        assert the_ids(app, "is:dismissed") == first
