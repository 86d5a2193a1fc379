"""Standing rules (a feed reader's killfile): a query whose matches are marked as they arrive — not for me,
starred, or tagged — and the rules the app proposes from the papers you marked not for me.

Owns the settings document `KEY`, `{"rules": [{"query": Q, "action": "dismiss"|"star"|"tag", "tag": T}, ...],
"declined": [Q, ...]}`: reading it (each entry checked, a bad one skipped with a notice, never an error; at
most `MOST_RULES` rules, queries of at most `MOST_CHARS`), and adding, replacing or removing a rule, or
declining a proposal for good, as a read-modify-write under the database lock (so what another window saved
meanwhile is kept).

Applying rules (`applied`) needs a search: the caller passes `matching(query) -> ids` (the search index, which
this wing does not import), so the rules work on any set of papers. A rule marks only papers that arrived (the
database saw them first just now: `store.library.seen.Opened.arrived`) and never one that has any mark at all
(`untouched`): a paper read, starred, prioritised, dismissed, noted or tagged — by you, by another window, by
`triage set`, an import or a sync — is yours, and no rule changes it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from store.marks.db import TriageStore
from store.papers.inert import inert
from store.papers.model import Paper, Triage

KEY = "rules"
ACTIONS = ("dismiss", "star", "tag")
MOST_RULES = 100
"""The most rules kept: a rule is a search over each arrival, so their number bounds the work."""
MOST_CHARS = 1000
"""The longest query a rule may have."""
MOST_DECLINED = 1000
"""The most proposals remembered as never to ask again (the earliest are forgotten past it)."""
LEAST_SHARED = 5
"""A proposal needs this many papers you marked not for me sharing a keyword, area, category or author."""
MOST_PROPOSAL_CHARS = 200
"""A keyword, area or author longer than this is never proposed (a rule names it in full)."""


@dataclass(frozen=True)
class Rule:
    """Mark the papers matching `query` as they arrive: `action` "dismiss" (not for me), "star", or "tag" (`tag`)."""

    query: str
    action: str = "dismiss"
    tag: str = ""

    def marked(self, state: Triage) -> Triage:
        """`state` with this rule's mark."""
        if self.action == "dismiss":
            return replace(state, dismissed=True)
        if self.action == "star":
            return replace(state, starred=True)
        return replace(state, tags=tuple(dict.fromkeys([*state.tags, self.tag])))

    @property
    def does(self) -> str:
        """What it does, in words: "dismiss", "star", "tag reading-group"."""
        return f"tag {self.tag}" if self.action == "tag" else self.action

    @property
    def done(self) -> str:
        """What it did, in words: "dismissed", "starred", "tagged reading-group"."""
        return {"dismiss": "dismissed", "star": "starred"}.get(self.action, f"tagged {self.tag}")

    def entry(self) -> dict[str, str]:
        return {"query": self.query, "action": self.action, **({"tag": self.tag} if self.action == "tag" else {})}


def problem(query: str, action: str = "dismiss", tag: str = "") -> str:
    """What is wrong with a rule of `query` doing `action` ("" when nothing is). The query's syntax is the search
    wing's to check (`store.search.query.parse`): the app and `triage rules` check it before adding a rule."""
    if not query.strip():
        return "the query is empty"
    if len(query) > MOST_CHARS:
        return f"the query is {len(query):,} characters long (at most {MOST_CHARS:,})"
    if inert(query) != query or "\n" in query:
        return "control characters cannot be saved"
    if action not in ACTIONS:
        return f"the action must be one of {', '.join(ACTIONS)}"
    if action == "tag" and (not tag or tag != "".join(tag.split()) or inert(tag) != tag or "," in tag or len(tag) > 100):
        return "a tag is one word (no spaces, commas or control characters, at most 100 characters)"
    return ""


Change = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A change of the stored document (see `adding`, `removing`, `declining`)."""


@dataclass(frozen=True)
class Rules:
    """The rules that could be read, in the order they were added, the proposals declined for good, and what
    was skipped (one notice each)."""

    rules: tuple[Rule, ...] = ()
    declined: frozenset[str] = frozenset()
    notices: tuple[str, ...] = ()
    doc: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def changed(self, change: Change) -> Rules:
        """These rules with `change` made (as the store will once the change is written)."""
        return read(change(self.doc))

    def numbered(self, number: int) -> Rule | None:
        """The rule listed `number`th (from 1), or None."""
        return self.rules[number - 1] if 1 <= number <= len(self.rules) else None

    def of_query(self, query: str) -> Rule | None:
        return next((rule for rule in self.rules if rule.query == query.strip()), None)


def read(doc: Mapping[str, Any]) -> Rules:
    """The rules of a settings document; each entry that is not a good rule (`problem`), or repeats one, is skipped
    with a notice; past `MOST_RULES` the rest are skipped too."""
    entries = doc.get("rules", [])
    if not isinstance(entries, list):
        return Rules((), frozenset(), ("Rules skipped: the stored document is not a list of rules",), doc)
    rules: list[Rule] = []
    notices = []
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("query"), str) \
                or not isinstance(entry.get("action", "dismiss"), str) or not isinstance(entry.get("tag", ""), str):
            notices.append(f"Rule {number} skipped: it is not a query with an action")
            continue
        rule = Rule(entry["query"].strip(), entry.get("action", "dismiss"), entry.get("tag", "") if entry.get("action") == "tag" else "")
        wrong = problem(rule.query, rule.action, rule.tag)
        if not wrong and rule in rules:
            wrong = "it repeats an earlier rule"
        if not wrong and len(rules) >= MOST_RULES:
            wrong = f"at most {MOST_RULES} rules are kept"
        if wrong:
            notices.append(f"Rule {number} ({inert(repr(entry['query'][:60]))}) skipped: {wrong}")
        else:
            rules.append(rule)
    declined = doc.get("declined", [])
    declined = frozenset(q for q in declined if isinstance(q, str)) if isinstance(declined, list) else frozenset()
    return Rules(tuple(rules), declined, tuple(notices), doc)


def load(store: TriageStore) -> Rules:
    return read(store.setting(KEY))


def apply(store: TriageStore, change: Change) -> Rules:
    """Apply `change` to the stored rules under the database lock; the rules now."""
    return read(store.update_setting(KEY, change))


def _entries(doc: Mapping[str, Any]) -> list[Any]:
    entries = doc.get("rules")
    return list(entries) if isinstance(entries, list) else []


def adding(rule: Rule, instead_of: Rule | None = None) -> Change:
    """The change that adds `rule` (last), or puts it in the place of `instead_of` (an edit; added last when that
    rule is gone meanwhile). A rule already there is not added twice. Raises ValueError (saying why) when
    `problem` finds one, or when `MOST_RULES` are kept already."""
    wrong = problem(rule.query, rule.action, rule.tag)
    if wrong:
        raise ValueError(wrong)
    rule = Rule(rule.query.strip(), rule.action, rule.tag if rule.action == "tag" else "")

    def change(doc: Mapping[str, Any]) -> dict[str, Any]:
        entries = _entries(doc)
        old = instead_of.entry() if instead_of is not None else None
        if rule.entry() in entries:  # (an edit into a rule there already: the old one goes)
            entries = [entry for entry in entries if entry != old or old == rule.entry()]
        elif old is not None and old in entries:
            entries[entries.index(old)] = rule.entry()
        elif len(entries) >= MOST_RULES:
            raise ValueError(f"at most {MOST_RULES} rules are kept: remove one first")
        else:
            entries.append(rule.entry())
        return {**doc, "rules": entries}

    return change


def removing(rule: Rule) -> Change:
    """The change that removes `rule` (gone already: nothing changes)."""

    def change(doc: Mapping[str, Any]) -> dict[str, Any]:
        return {**doc, "rules": [entry for entry in _entries(doc) if entry != rule.entry()]}

    return change


def declining(query: str) -> Change:
    """The change that remembers never to propose `query` again."""

    def change(doc: Mapping[str, Any]) -> dict[str, Any]:
        declined = doc.get("declined")
        declined = [q for q in declined if isinstance(q, str) and q != query] if isinstance(declined, list) else []
        return {**doc, "declined": [*declined, query][-MOST_DECLINED:]}

    return change


# --- applying -------------------------------------------------------------------------------------------------


def untouched(state: Triage | None) -> bool:
    """Whether a rule may mark a paper in `state`: it has no mark at all (see the module docstring)."""
    return state is None or state.blank


@dataclass(frozen=True)
class Applied:
    """What rules did to the papers that arrived: the new state of each paper marked, and each rule that marked
    some with the ids it marked (a paper two rules match is in both)."""

    states: dict[str, Triage] = field(default_factory=dict)
    marked: tuple[tuple[Rule, frozenset[str]], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.states)

    def only(self, keep: Callable[[str], bool]) -> Applied:
        """What is left of this for the papers `keep` holds for (a paper marked meanwhile is left out)."""
        marked = tuple((rule, ids) for rule, ids in ((rule, frozenset(filter(keep, ids))) for rule, ids in self.marked) if ids)
        return Applied({pid: state for pid, state in self.states.items() if keep(pid)}, marked)

    def summary(self) -> str:
        """`3 papers dismissed by rule kw:federated; 1 paper tagged later by rule author:"Ann Lee"`."""
        return "; ".join(f"{len(ids):,} paper{'s' * (len(ids) != 1)} {rule.done} by rule {rule.query}" for rule, ids in self.marked)


def applied(rules: Iterable[Rule], arrived: Iterable[str], states: Mapping[str, Triage],
            matching: Callable[[str], Iterable[str]]) -> Applied:
    """What `rules` do to the papers of `arrived` (ids) whose marks are `states` (absent: none): each paper
    `untouched` that a rule's query matches (`matching(query)`: the ids it matches) gets the rule's mark; a paper
    with any mark is left alone."""
    candidates = {pid for pid in arrived if untouched(states.get(pid))}
    out: dict[str, Triage] = {}
    marked = []
    for rule in rules:
        if not candidates:
            break
        hit = frozenset(candidates.intersection(matching(rule.query)))
        for pid in hit:
            out[pid] = rule.marked(out.get(pid, Triage()))
        if hit:
            marked.append((rule, hit))
    return Applied(out, tuple(marked))


# --- proposals --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Proposal:
    """A rule to propose: `query` (`kw:"federated learning"`), and how many papers you dismissed have the value."""

    query: str
    shared: int


def _quoted(name: str, value: str) -> str | None:
    value = " ".join(value.split())
    if not value or '"' in value or len(value) > MOST_PROPOSAL_CHARS or inert(value) != value:
        return None
    return f'{name}:"{value}"' if " " in value or ":" in value else f"{name}:{value}"


def values_of(paper: Paper) -> Iterator[str]:
    """The queries that name what a paper shares with others: each keyword (or arXiv category), its area, each
    author; each once."""
    found = [_quoted("kw", kw) for kw in paper.keywords]
    found.append(_quoted("area", paper.area) if paper.area else None)
    found += [_quoted("author", name) for name in paper.authors]
    yield from dict.fromkeys(query for query in found if query)


def proposals(papers: Iterable[Paper], states: Mapping[str, Triage], rules: Rules,
              least: int = LEAST_SHARED) -> list[Proposal]:
    """The rules to propose: each keyword, area or author (whatever its case) at least `least` of `papers` you
    marked not for me share, that is not a rule already and was not declined for good, most shared first."""
    shared: Counter[str] = Counter()
    written: dict[str, str] = {}
    for paper in papers:
        state = states.get(paper.id)
        if state is not None and state.dismissed:
            folded = {query.casefold(): query for query in values_of(paper)}
            shared.update(folded.keys())
            for key, query in folded.items():
                written.setdefault(key, query)
    taken = {query.casefold() for query in [*(rule.query for rule in rules), *rules.declined]}
    return [Proposal(written[key], n) for key, n in shared.most_common() if n >= least and key not in taken]
