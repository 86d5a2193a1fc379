"""A parsed query (store.search.query) as the engine's query: the papers the README's query language finds, ranked by its rules.

What a term matches is worked out in Python over the engine's vocabularies, then handed to tantivy as sets of terms:
- a word: the vocabulary words it matches (store.search.vocabulary's `words_matched` over the lexicon: itself,
  the words it begins, those a few typos away; as written for a word with a capital), in the titles (`head`)
  and the texts (`body`), the authors' names and the notes and tags of the moment (as ids); a word holding
  several (`self-supervised`) needs each;
- `author:`/`kw:`: the name words each part matches, in order within one name (a phrase over positions of
  regexes: the part's prefix, or one of its typos);
- a literal phrase or 'exact piece: a phrase of regexes over the lower-cased words (the first may end a longer
  word, the last begin one; one alone may be inside a word), which is the literal exactly when the phrase is
  lower-case words one space apart (store.search.engine.documents' `GAP`); any other (a capital, a dash) is
  narrowed so and checked on the stored texts (`Literal`, given by the engine);
- a qualifier: the facet values it holds for (the lexicon's), or the ids the marks of the moment give.
Negation, OR groups and a query not understood are as the README says.

Ranking (the README's rules): a title match counts `TITLE` times its match quality (exact 1, a longer word
0.75–0.95, a typo 0.7 or less), above any body score (the quality of a body, author or note match, plus
tantivy's BM25 of the exact word or phrase, far below `TITLE`); the caller breaks ties by file order.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping

import tantivy

from store.papers.model import Triage
from store.search.engine.documents import ALPHABET, CHARS
from store.search.engine.lexicon import Lexicon
from store.search.phrases import literal_pattern, lower
from store.search.qualifiers import NEW, UPDATED, compare, state_test
from store.search.query import Qualifier, Query, Term
from store.search.vocabulary import WORD, Notes, name_form, typos_allowed, words_matched

Q, Occur = tantivy.Query, tantivy.Occur
TITLE = 1000.0
"""A title match's weight (times its quality ≥ 0.55): above any body score (a few units)."""
RECORD = 3.0
"""An author's or a note's match in the body (times its quality): above the word in the text (its quality plus
`EXACT` times a BM25 of a few units), below any title match, as the README says."""
MIXED = 0.55
"""The quality a word holding several (`self-supervised`) counts with when all of them are in the title."""
EXACT = 0.1
"""The weight of tantivy's BM25 for the exact word or phrase in the text (the body's order among equals)."""
_ALTERNATIVES = 500
"""The most words a phrase's first word may end spelled out in its regex (more: a suffix regex)."""
_ITEM_FIELDS = {"author": "authors", "kw": "keywords"}
Literal = Callable[[Term, tantivy.Query], tuple[list[str], list[str]]]
"""Checks a literal term on the stored texts of the papers a query narrowed it to: (ids with it in the title,
ids with it in the text)."""


def _any(queries: list[tantivy.Query]) -> tantivy.Query:
    return queries[0] if len(queries) == 1 else Q.boolean_query([(Occur.Should, q) for q in queries]) if queries else Q.empty_query()


def _all(queries: list[tantivy.Query]) -> tantivy.Query:
    return queries[0] if len(queries) == 1 else Q.boolean_query([(Occur.Must, q) for q in queries])


def _characters(schema: tantivy.Schema, char: str) -> tantivy.Query:
    """The papers whose texts' words hold the character `char` (store.search.engine.documents' `body_chars`)."""
    if char in ALPHABET:
        return Q.boolean_query([(Occur.Must, Q.all_query()), (Occur.MustNot, Q.term_query(schema, CHARS, "-" + char))])
    return Q.term_query(schema, CHARS, char)


def _best(queries: list[tantivy.Query]) -> tantivy.Query:
    return queries[0] if len(queries) == 1 else Q.disjunction_max_query(queries) if queries else Q.empty_query()


def _buckets(matched: Mapping[str, tuple[float, int]], forms: Callable[[str], list[str]] = lambda w: [w]) -> dict[float, list[str]]:
    """The matched words (their index forms) grouped by match quality."""
    grouped: defaultdict[float, list[str]] = defaultdict(list)
    for word, (quality, _) in matched.items():
        grouped[quality] += forms(word)
    return grouped


class Translator:
    """Translates queries over one open index, with the marks of the moment."""

    def __init__(self, schema: tantivy.Schema, lexicon: Lexicon, literal: Literal, states: Mapping[str, Triage],
                 named: Mapping[str, Collection[str]]) -> None:
        self._schema, self._lexicon, self._literal = schema, lexicon, literal
        self._states, self._named = states, named
        self._notes: tuple[Notes, list[str]] | None = None
        self.words: dict[str, int] = {}
        """The words as written a query's terms matched (not negated) → how many of their letters to mark
        (store.search.highlight.Highlighter)."""
        self.patterns: list[re.Pattern[str]] = []
        """Its literal terms (not negated), as regexes (store.search.phrases.literal_pattern)."""

    def _set(self, field: str, values: Collection[str], weight: float | None = None) -> tantivy.Query:
        found = Q.term_set_query(self._schema, field, list(values)) if values else Q.empty_query()
        return found if weight is None else Q.const_score_query(found, weight)

    def _weighted(self, field: str, buckets: Mapping[float, list[str]], weight: float) -> list[tantivy.Query]:
        return [self._set(field, words, weight * quality) for quality, words in buckets.items()]

    def query(self, query: Query) -> tuple[tantivy.Query, bool]:
        """(the engine's query, whether it scores: a query of qualifiers alone keeps file order)."""
        if not query.groups:
            return (Q.empty_query() if query.dropped else Q.all_query()), False
        groups, scored = [], False
        for group in query.groups:
            positive, negative = [], []
            for atom in group:
                if isinstance(atom, Qualifier):
                    found = self._qualifier(atom)
                    (negative if atom.negated else positive).append(found if atom.negated else Q.const_score_query(found, 0.0))
                elif atom.negated:
                    negative.append(self._excluded(atom))
                else:
                    positive.append(self._term(atom))
                    scored = True
            if negative:  # a | !b holds without b, or with a
                positive.append(Q.const_score_query(Q.boolean_query([(Occur.Must, Q.all_query()),
                                                                      (Occur.MustNot, _all(negative))]), 0.0))
            groups.append(_best(positive))
        return _all(groups), scored

    # --- words --------------------------------------------------------------------------

    def _term(self, term: Term) -> tantivy.Query:
        if term.field in _ITEM_FIELDS:
            return self._items(term, fuzzy=True)
        if term.kind != "word":
            self.patterns.append(literal_pattern(term))
            return self._literal_term(term)
        parts = WORD.findall(term.text)
        if len(parts) == 1 or term.field == "title":
            return _all([self._word(part, term.field) for part in parts])
        # a word holding several counts as in the title when each of them is (at its worst quality)
        title = Q.const_score_query(_all([self._word(part, "title", 0.0) for part in parts]), TITLE * MIXED)
        anywhere = _all([self._word(part, term.field, 0.0) for part in parts])
        return anywhere if term.field else Q.boolean_query([(Occur.Must, anywhere), (Occur.Should, title)])

    def _word(self, part: str, field: str, title: float = TITLE) -> tantivy.Query:
        """Papers one word matches, scored: in the title and name (`title` times the quality), the text, the
        authors and the notes; or, with a `field`, in the title only or the text only."""
        lexicon, cased = self._lexicon, part != part.lower()
        if cased:
            matched = words_matched(lexicon.cased, part, True)
            buckets, names, written = _buckets(matched), ("head_cased", "body_cased"), lambda word: [word]
        else:
            part = part.casefold()
            matched = words_matched(lexicon.folded, part, True)
            buckets, names, written = _buckets(matched, lexicon.lowered), ("head", "body"), lexicon.written
        for word, (_, mark) in matched.items():
            for form in written(word):
                self.words[form] = max(self.words.get(form, 0), mark)
        found = []
        if field != "abstract":
            found.append(_best(self._weighted(names[0], buckets, title)))
        if field != "title":
            found.append(_best(self._weighted(names[1], buckets, 1.0)))
            if not cased and buckets.get(1.0):
                found += [Q.boost_query(Q.term_query(self._schema, "body", word), EXACT) for word in buckets[1.0]]
        if not field:
            named = words_matched(lexicon.names, name_form(part), True)
            found.append(_best(self._weighted("authors", _buckets(named), RECORD)))
            found += self._in_notes(part, fuzzy=True)
        return _any(found)

    def _in_notes(self, word: str, fuzzy: bool) -> list[tantivy.Query]:
        """The papers whose note or tags hold `word` (as ids: notes change at every key), weighted by quality."""
        if not self._states:
            return []
        if self._notes is None:
            ids = list(self._states)
            self._notes = Notes(self._states, {pid: k for k, pid in enumerate(ids)}), ids
        notes, ids = self._notes
        return [self._set("id", [ids[k] for k in docs.tolist()], RECORD * quality) for docs, quality in notes.matching(word, fuzzy)]

    def _excluded(self, term: Term) -> tantivy.Query:
        """Papers a negated term rules out: a literal, or a word it spells or begins (no typo tolerance)."""
        if term.field in _ITEM_FIELDS:
            return self._items(term, fuzzy=False)
        if term.kind != "word":
            return self._literal_term(term)
        lexicon, parts = self._lexicon, []
        for part in WORD.findall(term.text):
            cased = part != part.lower()
            words = (list(lexicon.cased.starting(part)) if cased else
                     [form for word in lexicon.folded.starting(part.casefold()) for form in lexicon.lowered(word)])
            head, body = ("head_cased", "body_cased") if cased else ("head", "body")
            holds = [self._set(body, words)] if term.field != "title" else []
            holds += [self._set(head, words)] if term.field != "abstract" else []
            if not term.field:
                holds.append(self._set("authors", list(lexicon.names.starting(name_form(part)))))
                holds += self._in_notes(part, fuzzy=False)
            parts.append(_any(holds))
        return _all(parts)

    # --- authors and keywords -------------------------------------------------------------

    def _items(self, term: Term, fuzzy: bool) -> tantivy.Query:
        """Papers with an author (`author:`) or a keyword (`kw:`) holding the term's words in order, one after
        another, each typo-tolerant when `fuzzy` and matching longer words it begins."""
        field, names = _ITEM_FIELDS[term.field], self._lexicon.names
        parts = WORD.findall(name_form(term.text))
        if len(parts) == 1:
            return _best(self._weighted(field, _buckets(words_matched(names, parts[0], fuzzy)), RECORD))
        patterns = []
        for part in parts:
            typos = [word for word, _ in names.near(part, typos_allowed(part))] if fuzzy else []
            patterns.append("|".join([f"{part}.*", *typos]))
        return Q.const_score_query(Q.regex_phrase_query(self._schema, field, patterns), RECORD)

    # --- literal text -------------------------------------------------------------------

    def _ending(self, key: str) -> str:
        """A regex of the index's lower-cased words ending with `key`: those words themselves when the lexicon
        gives them (a suffix regex reads the whole term dictionary), else `.*key`."""
        if key.casefold() != key:
            return f".*{key}"
        words = [form for word in self._lexicon.folded.ending(key) for form in self._lexicon.lowered(word) if form.endswith(key)]
        if not words:
            return ""
        spelled = "|".join(words)
        if len(words) <= _ALTERNATIVES:
            try:  # (tantivy refuses a regex of over 1,000 states: many words, or long ones, spelled out)
                Q.regex_query(self._schema, "body", spelled)
                return spelled
            except ValueError:
                pass
        return f".*{key}"

    def _literal_term(self, term: Term) -> tantivy.Query:
        """Papers whose title (with name) or display text holds `term` literally (smart case)."""
        low = lower(term.text)
        keys = WORD.findall(low)
        if len(keys) == 1:
            patterns = [f".*{keys[0]}.*"]
        else:
            patterns = [self._ending(keys[0]), *keys[1:-1], f"{keys[-1]}.*"] if keys else []
            if patterns and not patterns[0]:  # (no word ends so)
                return Q.empty_query()
        sides = [(side, weight) for side, weight, left in (("head", TITLE, "abstract"), ("body", 1.0, "title")) if term.field != left]

        def near(side: str) -> tantivy.Query:
            if len(patterns) == 1 and len(keys[0]) == 1 and side == "body":  # (one character: one term, scored as its regex)
                return Q.const_score_query(_characters(self._schema, keys[0]), 1.0)
            if len(patterns) == 1:
                return Q.regex_query(self._schema, side, patterns[0])
            return Q.regex_phrase_query(self._schema, side, patterns) if patterns else Q.all_query()

        spaced = low == " ".join(keys)  # lower-case words one space apart: the phrase query is the literal exactly
        if spaced and not term.case_sensitive:  # (in the text: tantivy's BM25 of the phrase, far below a title's)
            return _any([Q.const_score_query(near(side), weight) if side == "head" else Q.boost_query(near(side), EXACT)
                         for side, weight in sides])
        narrowed = (_any([near(side) for side, _ in sides]) if spaced or len(patterns) < 2 else
                    _all([_any([Q.regex_query(self._schema, side, pattern) for side, _ in sides]) for pattern in patterns]))
        in_title, in_text = self._literal(term, narrowed)
        found = dict(zip(("head", "body"), (in_title, in_text)))
        return _any([self._set("id", found[side], weight) for side, weight in sides])

    # --- qualifiers -----------------------------------------------------------------------

    def _qualifier(self, q: Qualifier) -> tantivy.Query:
        """Papers a qualifier holds for (before its own negation)."""
        if q.field == "has" and q.value in ("code", "link"):
            return Q.term_query(self._schema, "has", str(q.value))
        if q.field in ("venue", "year", "area", "track", "session", "announce"):
            values = self._lexicon.facets[q.field]
            if q.field == "year":
                holds = compare(q.op, int(q.value))
                values = [v for v in values if v.isdigit() and holds(int(v))]
            else:
                values = [v for v in values if (v == q.value if q.field == "announce" else str(q.value) in v)]
            return self._set(q.field, values)
        if q.field == "is" and q.value in (NEW, UPDATED):
            return self._set("id", list(self._named.get(str(q.value), ())))
        state = state_test(q)
        if state(Triage()):  # untouched papers qualify too (is:unread, p:0): all but those marked otherwise
            failing = [pid for pid, triage in self._states.items() if not state(triage)]
            return Q.boolean_query([(Occur.Must, Q.all_query()), (Occur.MustNot, self._set("id", failing))])
        return self._set("id", [pid for pid, triage in self._states.items() if state(triage)])
