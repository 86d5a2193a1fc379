"""Standing rules in the database (store.marks.rules): kept across reopening and processes, bad entries skipped,
applied to exactly the papers that arrived, never to a paper with a mark; proposals from the papers dismissed."""
from __future__ import annotations

import pytest

from store.marks import rules
from store.marks.db import TriageStore
from store.marks.rules import Rule
from store.papers.model import Paper, Triage, paper_id
from store.search.engine import Engine


def paper(n: int, keywords: tuple[str, ...] = (), authors: tuple[str, ...] = (), area: str = "", **more: object) -> Paper:
    text = f"Abstract number {n} about topic {n}."
    return Paper(paper_id(text), text, title=f"Paper {n}", keywords=keywords, authors=authors or (f"Author {n}",),
                 area=area, position=n, **more)


def matcher(papers: list[Paper], states: dict[str, Triage] | None = None):
    index = Engine.of(papers)
    return lambda query: index.search(query, states or {}).ids


def test_rules_survive_reopening_and_two_windows_keep_each_others(tmp_path):
    path = tmp_path / "triage.json"
    first, second = TriageStore(path), TriageStore(path)
    rules.apply(first, rules.adding(Rule("kw:federated")))
    rules.apply(second, rules.adding(Rule('author:"Ann Lee"', "star")))
    rules.apply(first, rules.adding(Rule("area:robotics", "tag", "later")))
    rules.apply(first, rules.adding(Rule("kw:federated")))  # already there: not twice
    first.close(), second.close()

    again = rules.load(TriageStore(path))
    assert [(r.query, r.does) for r in again] == [
        ("kw:federated", "dismiss"), ('author:"Ann Lee"', "star"), ("area:robotics", "tag later")]
    assert again.notices == ()
    edited = rules.apply(TriageStore(path), rules.adding(Rule("kw:federated learning"), instead_of=again.numbered(1)))
    assert [r.query for r in edited] == ["kw:federated learning", 'author:"Ann Lee"', "area:robotics"]  # in its place
    assert [r.query for r in rules.apply(TriageStore(path), rules.removing(edited.numbered(2)))] == [
        "kw:federated learning", "area:robotics"]


@pytest.mark.parametrize("query, action, tag, why", [
    ("", "dismiss", "", "empty"),
    ("x" * (rules.MOST_CHARS + 1), "dismiss", "", "characters long"),
    ("kw:a\x1b[31m", "dismiss", "", "control characters"),
    ("kw:a", "delete", "", "one of dismiss, star, tag"),
    ("kw:a", "tag", "two words", "a tag is one word"),
    ("kw:a", "tag", "", "a tag is one word"),
])
def test_a_bad_rule_is_refused_saying_why(query, action, tag, why):
    with pytest.raises(ValueError, match=why):
        rules.adding(Rule(query, action, tag))


def test_stored_entries_that_are_not_rules_are_skipped_with_a_notice_and_at_most_MOST_RULES_are_read(tmp_path):
    store = TriageStore(tmp_path / "triage.json")
    good = [{"query": f"kw:k{n}", "action": "dismiss"} for n in range(rules.MOST_RULES + 2)]
    store.put_setting(rules.KEY, {"rules": ["not a rule", {"query": "kw:x", "action": "explode"}, *good],
                                  "declined": ["kw:old", 3]})
    read = rules.load(store)
    assert len(read) == rules.MOST_RULES and read.numbered(1).query == "kw:k0"
    assert read.declined == {"kw:old"}
    assert read.notices[:2] == ("Rule 1 skipped: it is not a query with an action",
                                "Rule 2 ('kw:x') skipped: the action must be one of dismiss, star, tag")
    assert len(read.notices) == 4 and all("at most 100 rules" in notice for notice in read.notices[2:])
    with pytest.raises(ValueError, match="at most 100 rules"):
        rules.apply(store, rules.adding(Rule("kw:one-more")))
    store.close()


def test_a_rule_marks_only_the_papers_that_arrived_and_never_a_paper_with_any_mark():
    papers = [paper(n, keywords=("federated learning",)) for n in range(8)]
    ids = [p.id for p in papers]
    marks = [Triage(read=True), Triage(starred=True), Triage(priority=3), Triage(note="mine"), Triage(tags=("x",)),
             Triage(dismissed=True)]
    states = dict(zip(ids, marks))  # papers 0–5 marked one way each; 6 and 7 untouched
    arrived = ids[:7]  # paper 7 was seen before: it did not arrive
    done = rules.applied([Rule("kw:federated"), Rule("kw:federated", "tag", "fl")], arrived, states, matcher(papers))
    assert set(done.states) == {ids[6]}
    assert done.states[ids[6]] == Triage(dismissed=True, tags=("fl",))  # two rules: both marks, from blank
    assert done.summary() == "1 paper dismissed by rule kw:federated; 1 paper tagged fl by rule kw:federated"
    assert not rules.applied([Rule("kw:nothing-like-it")], arrived, states, matcher(papers))


def test_the_papers_that_arrived_are_those_the_database_never_saw_in_any_list(tmp_path):
    store = TriageStore(tmp_path / "triage.json")
    day1 = [paper(n) for n in range(3)]
    assert store.opened([str(tmp_path / "a.jsonl")], day1).arrived == {p.id for p in day1}
    day2 = [*day1, paper(3)]
    opened = store.opened([str(tmp_path / "a.jsonl")], day2)
    assert opened.arrived == {day2[3].id} == opened.new
    # another list, never opened: all of it is new there, but only its unseen paper arrived
    revised = Paper(paper_id("A revised abstract."), "A revised abstract.", title="Paper 0", authors=("Author 0",))
    other = store.opened([str(tmp_path / "b.jsonl")], [*day2, revised, paper(4)])
    assert other.new == {p.id for p in [*day2, revised, paper(4)]}
    assert other.arrived == {paper(4).id}  # the revised abstract keeps its title and first author: not arrived
    store.close()


def test_proposals_come_from_five_dismissed_papers_sharing_a_value_not_a_rule_nor_declined(tmp_path):
    papers = [paper(n, keywords=("Federated Learning", f"own {n}"), area="privacy" if n < 4 else "",
                    authors=("Ann Lee", f"Author {n}")) for n in range(7)]
    states = {p.id: Triage(dismissed=True) for p in papers[:5]}
    states[papers[5].id] = Triage(starred=True)
    found = rules.proposals(papers, states, rules.Rules())
    assert [(p.query, p.shared) for p in found] == [('kw:"Federated Learning"', 5), ('author:"Ann Lee"', 5)]  # area: 4
    store = TriageStore(tmp_path / "triage.json")
    rules.apply(store, rules.adding(Rule('kw:"federated learning"')))  # a rule already, whatever its case
    kept = rules.apply(store, rules.declining('author:"Ann Lee"'))  # never ask again
    assert rules.proposals(papers, states, kept) == []
    assert rules.proposals(papers, states, rules.load(store), least=4) == [rules.Proposal("area:privacy", 4)]
    store.close()


def test_what_rules_did_leaves_out_the_papers_marked_meanwhile():
    papers = [paper(n, keywords=("federated learning",)) for n in range(3)]
    done = rules.applied([Rule("kw:federated")], [p.id for p in papers], {}, matcher(papers))
    assert done.summary() == "3 papers dismissed by rule kw:federated"
    left = done.only(lambda pid: pid != papers[0].id)
    assert set(left.states) == {papers[1].id, papers[2].id} and left.summary() == "2 papers dismissed by rule kw:federated"
    assert not done.only(lambda pid: False)
