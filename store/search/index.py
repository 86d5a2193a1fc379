"""Search as you type over many abstracts: an inverted index with typo-tolerant word lookup.

Brute-force fuzzy matching of whole abstracts is far too slow for 100,000 papers, so the
index works on words, as typo-tolerant search engines do: each query word is looked up in
the corpus's vocabulary (exactly, as a prefix of longer words, and within one or two edits
by rapidfuzz), the matching words' posting lists give the papers, and papers are ranked by a
BM25 weight times the quality of the word match. Exact phrases are verified on the
candidates the index leaves. Title (and name) matches rank above body matches; ties keep
file order.

This module owns `SearchIndex`'s answering of a query; what it holds and how it is made (built, retitled,
kept as parts for the cache and made again from them) is store.search.index_made's `Made`, with the `fingerprint`
of what an index is made from. Its other parts live beside it: store.search.index_build (finding
and counting words, postings), store.search.vocabulary (word lookup with typos, names, notes and tags),
store.search.phrases (literal phrases), store.search.qualifiers (`is:`, `has:`, `venue:`…) and store.search.highlight
(spans, context windows, `Hit` and `Hits`).
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from store.search.highlight import Highlighter, Hits
from store.search.index_build import Postings
from store.search.words import TF_BITS, TF_MAX
from store.search.index_made import K1, Made
from store.papers.model import Paper, Triage
from store.search.phrases import literal_pattern, lower
from store.search.qualifiers import NEW, UPDATED
from store.search.query import Qualifier, Query, Term, parse
from store.search.vocabulary import WORD, Notes, in_sequence, name_form, words_matched

TITLE_WEIGHT = 2.0
"""A title match (quality ≥ 0.5) is worth more than any body score (< 1): titles rank first."""
RECORD_WEIGHT = 8.0
"""The body weight of a word matched in the authors, a note or a tag (times the match's quality):
about a rare word's in the abstract, so such matches rank below title matches, among the strong body ones."""


@dataclass(slots=True)
class _Match:
    """What a term matched, one value per paper: whether it matched, its best title quality
    (0 when not in the title) and its BM25 body weight."""

    papers: np.ndarray
    title: np.ndarray
    body: np.ndarray


class SearchIndex(Made):
    """An index over `papers` (in file order) answering `search(query, states)` per keystroke.

    `SearchIndex(papers)` builds it; `parts()` gives the arrays it was built into and
    `SearchIndex.from_parts(papers, parts)` makes the same index again from them (the cache
    of long lists, `store.readers.index_cache.search_index`, keeps them on disk)."""

    def __len__(self) -> int:
        return len(self.papers)

    def _none(self) -> np.ndarray:
        return np.zeros(len(self.papers), dtype=bool)

    def search(self, query: str | Query, states: Mapping[str, Triage] | None = None, new: Collection[str] = (),
               updated: Collection[str] = ()) -> Hits:
        """Papers matching `query`, best first (ties in file order). `states` maps paper id →
        `Triage` for the is:/p:/has:note/has:tag/tag: qualifiers; missing ids count as untouched.
        `new`: the ids of the papers `is:new` finds (`store.library.seen`); `updated`: those `is:updated`
        finds (`store.library.identity`)."""
        if isinstance(query, str):
            query = parse(query)
        states = states or {}
        notes = Notes(states, self._position) if query.needs_states else None
        words: dict[str, int] = {}
        patterns: list[re.Pattern[str]] = []
        # a query of which nothing understood is left (`is:stared`) matches nothing, not everything
        selected = np.ones(len(self.papers), dtype=bool) if query.groups or not query.dropped else self._none()
        title = np.zeros(len(self.papers))
        body = np.zeros(len(self.papers))
        scored = False
        for group in query.groups:
            inside, outside, match = self._group(group, states, {NEW: new, UPDATED: updated}, notes, words, patterns)
            selected &= inside if outside is None else ~outside
            if match is not None:
                title += match.title
                body += match.body
                scored = True
        order = np.flatnonzero(selected)
        if not scored:
            return Hits(query, self.papers, order, np.zeros(len(order)), Highlighter(words, patterns))
        b = body[order]
        scores = TITLE_WEIGHT * title[order] + b / (1 + b)
        rank = np.argsort(-scores, kind="stable")  # stable: ties stay in file order
        return Hits(query, self.papers, order[rank], scores[rank], Highlighter(words, patterns))

    # --- one OR group -------------------------------------------------------------------

    def _group(self, atoms: tuple[Term | Qualifier, ...], states: Mapping[str, Triage], named: Mapping[str, Collection[str]], notes: Notes | None,
               words: dict[str, int], patterns: list[re.Pattern[str]]) -> tuple[np.ndarray, np.ndarray | None, _Match | None]:
        """(papers matched, papers ruled out or None, the best term scores or None) of an OR
        group. A group with a negated atom is described by what it rules out: `a | !b` rules
        out the papers with b but without a."""
        inside = self._none()
        excluded: list[np.ndarray] = []
        best: _Match | None = None
        for atom in atoms:
            if isinstance(atom, Qualifier):
                found = self._facets.holding(atom, states, named)
            elif atom.negated:
                found = self._excluded(atom, notes)
            else:
                match = self._term(atom, notes, words, patterns)
                inside |= match.papers
                if best is None:
                    best = match
                else:
                    np.maximum(best.title, match.title, out=best.title)
                    np.maximum(best.body, match.body, out=best.body)
                continue
            if atom.negated:
                excluded.append(found)
            else:
                inside |= found
        if not excluded:
            return inside, None, best
        outside = excluded[0]
        for found in excluded[1:]:
            outside = outside & found
        return inside, outside & ~inside, best

    # --- words --------------------------------------------------------------------------

    def _matches(self, word: str, fuzzy: bool) -> dict[str, tuple[float, int]]:
        """Vocabulary words `word` (one word, smart case) matches → (quality 0..1, letters to highlight)."""
        cased = word != word.lower()
        found = words_matched(self._vocab[cased], word if cased else word.casefold(), fuzzy)
        if cased:
            return found
        return {s: v for w, v in found.items() for s in self._folded[w]}

    def _term(self, term: Term, notes: Notes | None, words: dict[str, int], patterns: list[re.Pattern[str]]) -> _Match:
        """Papers a term (not negated) matches, with its scores."""
        if term.field in _ITEMS:
            return self._in_items(term, fuzzy=True)
        if term.kind != "word":
            match = self._literal(term, patterns)
            if term.field:  # title: or abstract: keeps only its own side
                kept = match.title if term.field == "title" else match.body
                (match.body if term.field == "title" else match.title)[:] = 0
                match.papers = kept > 0
            return match
        return self._word(term, words, notes)

    def _word(self, term: Term, words: dict[str, int], notes: Notes | None) -> _Match:
        """Papers a fuzzy word matches. A query word holding several (`self-supervised`)
        needs each of them; it counts as a title match when all of them are in the title."""
        parts = [self._one_word(part, words, term.field, notes) for part in WORD.findall(term.text)]
        match = parts[0]
        for part in parts[1:]:
            match.papers &= part.papers
            np.minimum(match.title, part.title, out=match.title)
            match.body += part.body
        if len(parts) > 1:
            match.title *= match.papers
            match.body *= match.papers
        return match

    def _one_word(self, text: str, words: dict[str, int], field: str = "", notes: Notes | None = None) -> _Match:
        """Papers one word matches: in the title and name, the abstract, the authors and `notes`;
        or, with a `field`, in the title only or the abstract only."""
        matched = self._matches(text, fuzzy=True)
        for surface, (_, mark) in matched.items():
            words[surface] = max(words.get(surface, 0), mark)
        ids, quality = _numbered(matched, self._words)  # all their postings at once: a short word begins thousands
        title = _best(len(self.papers), self._title if field != "abstract" else None, ids, quality)
        body = np.zeros(len(self.papers))
        if field != "title" and len(ids):
            df = self._body.sizes(ids)
            postings = self._body.of(ids)
            docs = postings >> TF_BITS
            tf = (postings & TF_MAX).astype(np.float64)
            total = len(self.papers)
            weight = np.repeat(quality * np.log(1 + (total - df + 0.5) / (df + 0.5)) * (K1 + 1), df)
            np.maximum.at(body, docs, weight * tf / (tf + self._norm[docs]))
        if not field:
            named = words_matched(self._names_vocab, name_form(text), fuzzy=True)
            np.maximum(body, RECORD_WEIGHT * _best(len(self.papers), self._author, *_numbered(named, self._names)), out=body)
        if notes is not None and not field:
            for docs, quality in notes.matching(text, fuzzy=True):
                body[docs] = np.maximum(body[docs], RECORD_WEIGHT * quality)
        return _Match((title > 0) | (body > 0), title, body)

    # --- authors and keywords -------------------------------------------------------------

    def _in_items(self, term: Term, fuzzy: bool) -> _Match:
        """Papers with an author (`author:`) or a keyword (`kw:`) holding the term's words in
        order, one after another (each typo-tolerant when `fuzzy`, and matching longer words it
        begins); scored by the worst of the words' match qualities."""
        postings, items = _ITEMS[term.field]
        parts = WORD.findall(name_form(term.text))
        found = np.ones(len(self.papers), dtype=bool)
        quality = np.ones(len(self.papers))
        spelled: list[set[str]] = []  # the words each part matched
        for part in parts:
            matched = words_matched(self._names_vocab, part, fuzzy)
            best = _best(len(self.papers), getattr(self, postings), *_numbered(matched, self._names))
            spelled.append(set(matched))
            found &= best > 0
            np.minimum(quality, best, out=quality)
        if len(parts) > 1:  # all of them in one name or keyword, in order: each distinct one looked at once
            fits: dict[str, bool] = {}
            for k in np.flatnonzero(found).tolist():
                for item in items(self.papers[k]):
                    if item not in fits:
                        fits[item] = in_sequence(WORD.findall(name_form(item)), spelled)
                found[k] = any(fits[item] for item in items(self.papers[k]))
        quality *= found
        return _Match(found, np.zeros(len(self.papers)), RECORD_WEIGHT * quality)

    # --- literal text -------------------------------------------------------------------

    def literal_ready(self) -> None:
        """Work out now what the first phrase typed would otherwise (`Phrases.ready`)."""
        self._phrases.ready()

    def qualifiers_ready(self) -> None:
        """Work out now what the first `has:code`, `venue:`, `year:`… typed would otherwise (`Facets.ready`),
        and the first capitalised word or note (the vocabulary as written, the row of each id: ~45 ms at
        100,000 papers)."""
        self._facets.ready()
        self._vocab[True]  # noqa: B018 (made on first use)
        self._position._made()

    def _literal(self, term: Term, patterns: list[re.Pattern[str]]) -> _Match:
        """Papers whose title or display text contains `term` literally (smart case)."""
        pattern = literal_pattern(term)
        patterns.append(pattern)
        counted = None if term.case_sensitive else self._phrases.counted(lower(term.text))
        if counted is None:
            counted = self._phrases.in_texts(term, pattern, *self._candidates(term))
        return _literal_match(len(self.papers), *counted, self._norm)

    def _candidates(self, term: Term) -> tuple[np.ndarray, np.ndarray]:
        """Papers whose (display text, title) may contain `term` literally, narrowed by the
        words it spans: the first may end a longer word, the last may start one, those
        between are whole words."""
        cased = term.case_sensitive
        keys = WORD.findall(term.text if cased else term.text.casefold())
        in_body = np.ones(len(self.papers), dtype=bool)
        in_title = in_body.copy()
        vocab = self._vocab[cased]
        for k, key in enumerate(keys):
            first, last = k == 0, k == len(keys) - 1
            if first and last:
                matched = vocab.containing(key)
            elif first:
                matched = vocab.ending(key)
            elif last:
                matched = list(vocab.starting(key))
            else:
                matched = [key] if key in vocab else []
            words = matched if cased else [s for w in matched for s in self._folded[w]]
            in_body &= self._papers_with(words, self._body, TF_BITS, at_most=True)
            in_title &= self._papers_with(words, self._title, 0, at_most=True)
        return in_body, in_title

    def _papers_with(self, words: Iterable[str], postings: Postings, shift: int, at_most: bool = False) -> np.ndarray:
        """Papers where any of `words` occurs, from the `postings` of the body or of the titles. With
        `at_most`, every paper when the words have more postings than there are papers (a phrase's
        first letters, which most papers hold): a wider set of candidates, found at no cost."""
        ids = np.array([self._words[word] for word in words if word in self._words], dtype=np.intp)
        if at_most and int(postings.sizes(ids).sum()) > len(self.papers):
            return np.ones(len(self.papers), dtype=bool)
        papers = self._none()
        papers[postings.of(ids) >> shift] = True
        return papers

    def _excluded(self, term: Term, notes: Notes | None) -> np.ndarray:
        """Papers a negated term rules out: a literal match, or a word it spells or begins
        (no typo tolerance, so `!graph` keeps papers about grapes)."""
        if term.field in _ITEMS:
            return self._in_items(term, fuzzy=False).papers
        if term.kind != "word":
            return self._term(replace(term, negated=False), notes, {}, []).papers
        found = np.ones(len(self.papers), dtype=bool)
        for part in WORD.findall(term.text):
            words = self._matches(part, fuzzy=False)
            holds = self._none()
            if term.field != "title":
                holds |= self._papers_with(words, self._body, TF_BITS)
            if term.field != "abstract":
                holds |= self._papers_with(words, self._title, 0)
            if not term.field:
                for name in words_matched(self._names_vocab, name_form(part), fuzzy=False):
                    holds[self._author[self._names[name]]] = True
            if notes is not None and not term.field:
                for docs, _ in notes.matching(part, fuzzy=False):
                    holds[docs] = True
            found &= holds
        return found


_ITEMS: dict[str, tuple[str, Callable[[Paper], Iterable[str]]]] = {
    "author": ("_author", lambda p: p.authors), "kw": ("_keyword", lambda p: p.keywords),
}
"""The fields a term looks for whole items in (`author:`, `kw:`): the postings' attribute, the items."""


def _numbered(matched: Mapping[str, tuple[float, int]], numbers: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """The word ids (`numbers`) of the `matched` words and their match qualities, as arrays."""
    ids = np.fromiter((numbers[word] for word in matched), dtype=np.intp, count=len(matched))
    return ids, np.fromiter((quality for quality, _ in matched.values()), dtype=np.float64, count=len(matched))


def _best(size: int, postings: Postings | None, ids: np.ndarray, quality: np.ndarray) -> np.ndarray:
    """For each of `size` papers, the best `quality` of the words `ids` whose `postings` hold it (0 where none
    does, or without postings): all the postings gathered at once, not a word at a time."""
    best = np.zeros(size)
    if postings is not None and len(ids):
        np.maximum.at(best, postings.of(ids), np.repeat(quality, postings.sizes(ids)))
    return best


def _literal_match(size: int, title: np.ndarray, counts: np.ndarray, norm: np.ndarray) -> _Match:
    """What a literal matched, from whether it is in each paper's title and how often in its text."""
    papers = (title > 0) | (counts > 0)
    df = int(papers.sum()) or 1
    weight = math.log(1 + (size - df + 0.5) / (df + 0.5)) * (K1 + 1)
    return _Match(papers, title, weight * counts / (counts + norm))
