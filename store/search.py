"""Search as you type over many abstracts: an inverted index with typo-tolerant word lookup.

Brute-force fuzzy matching of whole abstracts is far too slow for 100,000 papers, so the
index works on words, as typo-tolerant search engines do: each query word is looked up in
the corpus's vocabulary (exactly, as a prefix of longer words, and within one or two edits
by rapidfuzz), the matching words' posting lists give the papers, and papers are ranked by a
BM25 weight times the quality of the word match. Exact phrases are verified on the
candidates the index leaves. Title (and name) matches rank above body matches; ties keep
file order.

This module owns `SearchIndex` (its build, its parts for the cache, and answering a query) and
`fingerprint` of what an index is made from. Its parts live beside it: store.index_build (finding
and counting words, postings), store.vocabulary (word lookup with typos, names, notes and tags),
store.phrases (literal phrases), store.qualifiers (`is:`, `has:`, `venue:`…) and store.highlight
(spans, context windows, `Hit` and `Hits`).
"""
from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from copy import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from store import heap
from store.highlight import Highlighter, Hits
from store.index_build import (BATCH, THREADS, TF_BITS, TF_MAX, Counted, Postings, Words, in_order, join_words, split_words,
                               title_postings)
from store.model import Paper, Triage, kept_name, kept_plain, kept_title, untitled
from store.phrases import Lowered, Phrases, head, literal_pattern, lower
from store.qualifiers import Facets
from store.query import Qualifier, Query, Term, parse
from store.vocabulary import WORD, Notes, Vocabulary, in_sequence, name_form, words_matched

TITLE_WEIGHT = 2.0
"""A title match (quality ≥ 0.5) is worth more than any body score (< 1): titles rank first."""
RECORD_WEIGHT = 8.0
"""The body weight of a word matched in the authors, a note or a tag (times the match's quality):
about a rare word's in the abstract, so such matches rank below title matches, among the strong body ones."""
_K1, _B = 1.2, 0.75  # BM25 constants


@dataclass(slots=True)
class _Match:
    """What a term matched, one value per paper: whether it matched, its best title quality
    (0 when not in the title) and its BM25 body weight."""

    papers: np.ndarray
    title: np.ndarray
    body: np.ndarray


class SearchIndex:
    """An index over `papers` (in file order) answering `search(query, states)` per keystroke.

    `SearchIndex(papers)` builds it; `parts()` gives the arrays it was built into and
    `SearchIndex.from_parts(papers, parts)` makes the same index again from them (the cache
    of long lists, `store.readers.index_cache.search_index`, keeps them on disk)."""

    def __init__(self, papers: Iterable[Paper], bodies: Sequence[Counted | None] = ()) -> None:
        """`bodies`: the words of the display texts of each `BATCH` of `papers`, counted already (by the
        parse's worker processes: `store.readers.records.counting`), or () when not; None for a batch not."""
        with heap.large_apart():  # what the build frees goes back to the system after it (see store.heap)
            self._build(list(papers), bodies)

    def _build(self, papers: list[Paper], bodies: Sequence[Counted | None]) -> None:
        # Built in batches with numpy rather than word by word in Python (see Words): the
        # index of 100,000 abstracts is ~20 million words. numpy lets go of the GIL, so two
        # threads find the words of the next batches while this one names them; batches also
        # keep each step short, so the app's UI thread is never held up for long.
        batches = [papers[start : start + BATCH] for start in range(0, len(papers), BATCH)]
        # Authors and keywords (`name_form`) have words of their own (`names`): most names are in no
        # abstract, and they need no cased or phrase lookup.
        bodies = list(bodies) or [None] * len(batches)
        texts = [([p.plain for p in batch] if counted is None else [], [head(p) for p in batch],
                  [name_form(" ".join(p.authors)) for p in batch] + [name_form(" ".join(p.keywords)) for p in batch])
                 for batch, counted in zip(batches, bodies)]
        words = Words(longest=max((sum(map(len, t)) + len(t) for three in texts for t in three[:2]), default=0))
        names = Words(longest=max((sum(map(len, three[2])) + len(three[2]) for three in texts), default=0))
        body: list[tuple[np.ndarray, np.ndarray]] = []
        title: list[tuple[np.ndarray, np.ndarray]] = []
        author: list[tuple[np.ndarray, np.ndarray]] = []
        keyword: list[tuple[np.ndarray, np.ndarray]] = []
        lengths: list[np.ndarray] = []
        with ThreadPoolExecutor(THREADS) as pool:
            # (the lowered texts phrases are looked for in are made later: `literal_ready`, once search is)
            found = in_order(pool, lambda item: (item[0] or words.find(item[1][0]), words.find(item[1][1]), names.find(item[1][2])),
                             zip(bodies, texts))
            for start, batch, (in_body, in_title, in_record) in zip(range(0, len(papers), BATCH), batches, found):
                ids, docs, tf, size = words.named(in_body) if isinstance(in_body, Counted) else words.count(in_body)
                body.append((ids, ((docs + start) << TF_BITS) | np.minimum(tf, TF_MAX)))
                lengths.append(size)
                ids, docs, _, _ = words.count(in_title)
                title.append((ids, docs + start))
                ids, docs, _, _ = names.count(in_record)  # a text of authors, then one of keywords, per paper
                of_keyword = docs >= len(batch)
                author.append((ids[~of_keyword], docs[~of_keyword] + start))
                keyword.append((ids[of_keyword], docs[of_keyword] - len(batch) + start))
        vocabulary, named = dict(words.ids), dict(names.ids)  # plain dicts: looking up an unknown word adds nothing
        self._assemble(papers, vocabulary, Postings.placed(body, len(vocabulary)), Postings.placed(title, len(vocabulary)),
                       np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int64), None,
                       named, Postings.placed(author, len(named)),
                       Postings.placed(keyword, len(named)))

    def retitled(self) -> SearchIndex:
        """This index with the titles and names its papers have now, which it was made before (`provisional`):
        the index a build makes of them now, the body's postings kept (~0.3 s at 100,000 papers)."""
        words, title = title_postings([head(p) for p in self.papers], self._words)
        if len(words) > len(self._words):  # words only the titles hold (rare: a derived title's are its text's)
            index = SearchIndex.__new__(SearchIndex)
            index._assemble(self.papers, words, self._body.widened(len(words)), title, self._lengths, None,
                            self._names, self._author, self._keyword)
            return index
        index = copy(self)  # the same words: all but what holds the titles' postings is this index's
        index._title, index._phrases = title, Phrases(self.papers, words, self._body, title, None)
        index.provisional = any(map(untitled, self.papers))
        return index

    def parts(self) -> dict[str, np.ndarray]:
        """What `from_parts` makes this index again from, as plain arrays (no Python objects):
        the postings of body, titles, authors and keywords, the number of words of each text, the vocabulary
        in word id order as UTF-8 text, a word a line (no word holds a line break), and that of the
        authors and keywords; how often each letter is in each display text, and which papers hold which
        character beyond ASCII (`store.phrases.Lowered`: made now if it is not yet). ValueError for a
        `provisional` index: what it is made of is not what its papers will be."""
        if self.provisional:
            raise ValueError("an index made before its papers' titles were derived")
        lowered = self._phrases.lowered
        return {
            "words": join_words(self._words), "body": self._body.values, "body_bounds": self._body.bounds,
            "title": self._title.values, "title_bounds": self._title.bounds, "lengths": self._lengths,
            "letters": lowered.letters, "chars": lowered.chars, "char_bounds": lowered.wide.bounds, "char_papers": lowered.wide.values,
            "names": join_words(self._names), "author": self._author.values,
            "author_bounds": self._author.bounds,
            "keyword": self._keyword.values, "keyword_bounds": self._keyword.bounds,
        }

    def term_counts(self) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """The index as word counts, for models over its words (store.ranking): the vocabulary in word
        id order, then for each posting its paper (row in file order), its word id and how often the
        word occurs there (capped at 15 in the body; a title word counts once more)."""
        words = list(self._words)  # (in id order: ids are given in order)
        body, title = self._body.values.astype(np.int64), self._title.values.astype(np.int64)
        every = np.arange(len(words))
        of_word = np.concatenate([np.repeat(every, np.diff(self._body.bounds)), np.repeat(every, np.diff(self._title.bounds))])
        times = np.concatenate([(body & TF_MAX).astype(np.float32), np.ones(len(title), np.float32)])
        return words, np.concatenate([body >> TF_BITS, title]), of_word, times

    @classmethod
    def from_parts(cls, papers: Iterable[Paper], parts: Mapping[str, np.ndarray]) -> SearchIndex:
        """The index `parts()` of an index of these same `papers` describes; ValueError when the
        parts do not fit together or do not fit `papers` (not when they describe other papers
        of the same number: the caller makes sure of that)."""
        papers = list(papers)
        try:
            words, lengths, names = split_words(parts["words"]), parts["lengths"], split_words(parts["names"])
            body = Postings.checked(parts["body_bounds"], parts["body"], len(words), len(papers) << TF_BITS)
            title = Postings.checked(parts["title_bounds"], parts["title"], len(words), len(papers))
            author, keyword = (Postings.checked(parts[f"{name}_bounds"], parts[name], len(names), len(papers))
                               for name in ("author", "keyword"))
            lowered = Lowered(papers, parts["letters"], parts["chars"], Postings(parts["char_bounds"], parts["char_papers"]))
        except KeyError as missing:
            raise ValueError(f"no {missing} part") from None
        vocabulary, named = dict(zip(words, range(len(words)))), dict(zip(names, range(len(names))))
        if len(vocabulary) != len(words) or len(named) != len(names) or lengths.dtype != np.int64 or lengths.shape != (len(papers),):
            raise ValueError("index parts do not fit together")
        index = cls.__new__(cls)
        index._assemble(papers, vocabulary, body, title, lengths, lowered, named, author, keyword)
        return index

    def _assemble(self, papers: list[Paper], words: dict[str, int], body: Postings, title: Postings,
                  lengths: np.ndarray, lowered: Lowered | None, names: dict[str, int],
                  author: Postings, keyword: Postings) -> None:
        """Set up the index from what a build or a cache gives; the rest is quick to work out."""
        self.papers = papers
        self.provisional = any(map(untitled, papers))
        """Whether the index was made before some of its papers' titles were derived (see `retitled`)."""
        self._position = {p.id: i for i, p in enumerate(papers)}
        self._words = words
        self._body = body
        self._title = title
        self._names = names
        self._author = author
        self._keyword = keyword
        self._lengths = lengths
        self._phrases = Phrases(papers, words, body, title, lowered)
        size = lengths.astype(np.float64)
        self._norm = _K1 * (1 - _B + _B * size / (size.mean() if len(size) and size.mean() else 1.0))
        folded: defaultdict[str, list[str]] = defaultdict(list)
        for word in self._words:
            folded[word.casefold()].append(word)
        self._folded = dict(folded)
        self._vocab = {False: Vocabulary(self._folded), True: Vocabulary(self._words)}
        self._names_vocab = Vocabulary(self._names, ends=False)
        self._facets = Facets(papers, self._position)

    def __len__(self) -> int:
        return len(self.papers)

    def _none(self) -> np.ndarray:
        return np.zeros(len(self.papers), dtype=bool)

    def search(self, query: str | Query, states: Mapping[str, Triage] | None = None) -> Hits:
        """Papers matching `query`, best first (ties in file order). `states` maps paper id →
        `Triage` for the is:/p:/has:note/has:tag/tag: qualifiers; missing ids count as untouched."""
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
            inside, outside, match = self._group(group, states, notes, words, patterns)
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

    def _group(self, atoms: tuple[Term | Qualifier, ...], states: Mapping[str, Triage], notes: Notes | None,
               words: dict[str, int], patterns: list[re.Pattern[str]]) -> tuple[np.ndarray, np.ndarray | None, _Match | None]:
        """(papers matched, papers ruled out or None, the best term scores or None) of an OR
        group. A group with a negated atom is described by what it rules out: `a | !b` rules
        out the papers with b but without a."""
        inside = self._none()
        excluded: list[np.ndarray] = []
        best: _Match | None = None
        for atom in atoms:
            if isinstance(atom, Qualifier):
                found = self._facets.holding(atom, states)
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
        title = np.zeros(len(self.papers))
        body = np.zeros(len(self.papers))
        total = len(self.papers)
        for surface, (quality, mark) in self._matches(text, fuzzy=True).items():
            words[surface] = max(words.get(surface, 0), mark)
            word = self._words[surface]
            if field != "abstract":
                docs = self._title[word]
                title[docs] = np.maximum(title[docs], quality)
            if field == "title":
                continue
            postings = self._body[word]
            if len(postings):
                docs = postings >> TF_BITS
                tf = (postings & TF_MAX).astype(np.float64)
                df = len(postings)
                weight = quality * math.log(1 + (total - df + 0.5) / (df + 0.5)) * (_K1 + 1)
                body[docs] = np.maximum(body[docs], weight * tf / (tf + self._norm[docs]))
        if not field:
            for surface, (quality, _) in words_matched(self._names_vocab, name_form(text), fuzzy=True).items():
                docs = self._author[self._names[surface]]
                body[docs] = np.maximum(body[docs], RECORD_WEIGHT * quality)
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
            best = np.zeros(len(self.papers))
            matched = words_matched(self._names_vocab, part, fuzzy)
            for surface, (q, _) in matched.items():
                docs = getattr(self, postings)[self._names[surface]]
                best[docs] = np.maximum(best[docs], q)
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
        """Work out now what the first `has:code`, `venue:`, `year:`… typed would otherwise (`Facets.ready`)."""
        self._facets.ready()

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
        ids = [self._words[word] for word in words if word in self._words]
        if at_most and int((postings.bounds[np.array(ids, dtype=np.intp) + 1] - postings.bounds[ids]).sum()) > len(self.papers):
            return np.ones(len(self.papers), dtype=bool)
        papers = self._none()
        for word in ids:
            papers[postings[word] >> shift] = True
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


def fingerprint(papers: Sequence[Paper]) -> bytes:
    """A digest of all that an index of `papers` is made from: their display texts, titles and names (as
    far as they are known: `kept_title`), authors and keywords, in order. (An index also uses links, venues, years, areas and tracks,
    but works them out anew.) A display text the paper works out from its text (or keeps as a patch
    over it: `store.model.kept_plain`) is the text's under this very code, which the index entry's
    key names too: the text stands for it, and no display text is made to be hashed."""
    digest = hashlib.blake2b(digest_size=16)
    for start in range(0, len(papers), BATCH):  # a batch at a time: one string of a long list is big
        fields = [field for p in papers[start : start + BATCH]
                  for field in (_plain_part(p), kept_title(p), kept_name(p), "\n".join(p.authors), "\n".join(p.keywords))]
        digest.update("".join(fields).encode("utf-8", "surrogatepass"))
        digest.update(np.fromiter(map(len, fields), np.int64, len(fields)).tobytes())  # where each one ends
    return digest.digest()


def _plain_part(paper: Paper) -> str:
    """What stands for a paper's display text in its `fingerprint`: the display text when the paper
    holds one of its own, else the text it is worked out from, marked apart (a text is no display text)."""
    kept = kept_plain(paper)
    return kept if isinstance(kept, str) else "\x00" + paper.text


def _literal_match(size: int, title: np.ndarray, counts: np.ndarray, norm: np.ndarray) -> _Match:
    """What a literal matched, from whether it is in each paper's title and how often in its text."""
    papers = (title > 0) | (counts > 0)
    df = int(papers.sum()) or 1
    weight = math.log(1 + (size - df + 0.5) / (df + 0.5)) * (_K1 + 1)
    return _Match(papers, title, weight * counts / (counts + norm))
