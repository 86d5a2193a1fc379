"""Search as you type over many abstracts: an inverted index with typo-tolerant word lookup.

Brute-force fuzzy matching of whole abstracts is far too slow for 100,000 papers, so the
index works on words, as typo-tolerant search engines do: each query word is looked up in
the corpus's vocabulary (exactly, as a prefix of longer words, and within one or two edits
by rapidfuzz), the matching words' posting lists give the papers, and papers are ranked by a
BM25 weight times the quality of the word match. Exact phrases are verified on the
candidates the index leaves. Title (and name) matches rank above body matches; ties keep
file order.
"""
from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from bisect import bisect_left
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from itertools import count, repeat
from typing import TypeVar, overload

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA

from store.model import Paper, Triage, single_spaced
from store.query import Qualifier, Query, Term, parse
from store.views import to_read

WORD = re.compile(r"[\w\u0300-\u036f]+")
"""A word, for the index and for query words alike (combining accents stay in their word)."""
CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sr.ht")
"""Hosts whose links count as a code link for `has:code`."""

_T = TypeVar("_T")
_R = TypeVar("_R")
Span = tuple[int, int]
"""A [start, end) slice of a text that matched."""

TITLE_WEIGHT = 2.0
"""A title match (quality ≥ 0.5) is worth more than any body score (< 1): titles rank first."""
RECORD_WEIGHT = 8.0
"""The body weight of a word matched in the authors, a note or a tag (times the match's quality):
about a rare word's in the abstract, so such matches rank below title matches, among the strong body ones."""
_K1, _B = 1.2, 0.75  # BM25 constants
_TF_BITS = 4  # a posting is (paper index << 4) | min(term frequency, 15)
_TF_MAX = (1 << _TF_BITS) - 1
_POSTING_COST = 100  # a posting read costs about as much as counting in 100 letters of text
_BATCH = 1024  # papers indexed at a time: a few MB of arrays, a few ms per step
_THREADS = 2  # finding words in batches; the build's own thread names them
_BASE = 0x9E3779B97F4A7C15  # odd, so invertible mod 2**64
_MIX = np.uint64(0x94D049BB133111EB)  # odd: multiplying by it loses nothing mod 2**64
_ACCENTS = re.compile(r"[\u0300-\u036f]")
_ASCII_WORD = np.array([WORD.fullmatch(chr(c)) is not None for c in range(128)])


def name_form(text: str) -> str:
    """A name or keyword as it is looked up: case-folded, accents dropped ('García' → 'garcia')."""
    folded = text.casefold()
    return folded if folded.isascii() else _ACCENTS.sub("", unicodedata.normalize("NFKD", folded))


def typos_allowed(word: str) -> int:
    """Edits a query word may be away from a vocabulary word: none below 5 letters, 2 from 9."""
    return 0 if len(word) < 5 else 1 if len(word) < 9 else 2


def merge(spans: Iterable[Span]) -> tuple[Span, ...]:
    """`spans` sorted, with overlapping or touching spans joined."""
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return tuple((s, e) for s, e in out)


def _densest(spans: Sequence[Span], width: int) -> int:
    """The index of the span that starts the window of `width` characters holding most spans (the
    first such). `spans` are sorted and apart, as `merge` gives them, so their ends rise too and
    one pass with two indexes counts every window: linear in the spans, not quadratic."""
    best, most, last = 0, 0, 0
    for k, (start, _) in enumerate(spans):
        last = max(last, k)
        while last < len(spans) and spans[last][1] <= start + width:
            last += 1
        if last - k > most:
            best, most = k, last - k
    return best


def context(text: str, spans: Sequence[Span], width: int) -> tuple[str, tuple[Span, ...]]:
    """A window of about `width` characters of `text` around its densest cluster of `spans`
    (sorted and apart, as `merge` gives them).

    Returns the window (with '…' where text was cut; whitespace flattened) and the spans
    shifted into it. Without spans, the start of the text. Only the window's neighbourhood is
    looked at, however long the text.
    """
    start = max(0, spans[_densest(spans, width)][0] - width // 4) if spans else 0
    low = max(0, start - 15)
    flat = re.sub(r"\s", " ", text[low : start + width])  # flat[i] is text[low + i], flattened
    if start:
        space = flat.rfind(" ", 0, start - low)
        start = low + space + 1 if space >= 0 else start
    end = min(len(text), start + width - (1 if start else 0))
    if end < len(text):
        space = flat.rfind(" ", start - low, end - low)
        end = low + space if space >= 0 and low + space > start + width // 2 else end - 1
    prefix = "…" if start else ""
    window = prefix + flat[start - low : end - low] + ("…" if end < len(text) else "")
    shift = len(prefix) - start
    inside = tuple((max(s, start) + shift, min(e, end) + shift) for s, e in spans if e > start and s < end)
    return window, inside


class _Highlighter:
    """Finds, in any text, the spans a query matched: its words and its literal phrases."""

    def __init__(self, words: dict[str, int], patterns: list[re.Pattern[str]]) -> None:
        self.words = words  # matched vocabulary word → how many of its letters to mark
        self.patterns = patterns

    def spans(self, text: str) -> tuple[Span, ...]:
        found: list[Span] = []
        if self.words:
            for m in WORD.finditer(text):
                mark = self.words.get(m.group())
                if mark:
                    found.append((m.start(), m.start() + min(mark, m.end() - m.start())))
        for pattern in self.patterns:
            found += [m.span() for m in pattern.finditer(text) if m.end() > m.start()]
        return merge(found)


@dataclass(frozen=True, slots=True)
class Hit:
    """One matching paper: its id, its score (higher is better) and where it matched."""

    paper: Paper
    score: float
    _highlighter: _Highlighter

    @property
    def paper_id(self) -> str:
        return self.paper.id

    @property
    def title_spans(self) -> tuple[Span, ...]:
        """Matched spans of `paper.title` (computed on access)."""
        return self._highlighter.spans(self.paper.title)

    @property
    def text_spans(self) -> tuple[Span, ...]:
        """Matched spans of `paper.plain`, the display text (computed on access)."""
        return self._highlighter.spans(self.paper.plain)

    def spans(self, text: str) -> tuple[Span, ...]:
        """Matched spans of another text of the paper: its title as shown (LaTeX rendered)."""
        return self._highlighter.spans(text)


class Hits(Sequence[Hit]):
    """The ranked result of a search, best first. Hits are made when read, so a result of
    100,000 papers costs nothing until a list shows its visible rows."""

    def __init__(self, query: Query, papers: list[Paper], order: np.ndarray, scores: np.ndarray,
                 highlighter: _Highlighter) -> None:
        self.query = query
        self._papers = papers
        self._order = order
        self._scores = scores
        self._highlighter = highlighter

    def __len__(self) -> int:
        return len(self._order)

    @overload
    def __getitem__(self, k: int) -> Hit: ...
    @overload
    def __getitem__(self, k: slice) -> list[Hit]: ...
    def __getitem__(self, k: int | slice) -> Hit | list[Hit]:
        if isinstance(k, slice):
            return [self._hit(i, s) for i, s in zip(self._order[k].tolist(), self._scores[k].tolist())]
        return self._hit(int(self._order[k]), float(self._scores[k]))

    def _hit(self, i: int, score: float) -> Hit:
        return Hit(self._papers[i], score, self._highlighter)

    @property
    def papers(self) -> list[Paper]:
        """The matching papers, best first."""
        papers = self._papers
        return [papers[i] for i in self._order.tolist()]

    @property
    def ids(self) -> list[str]:
        """The matching paper ids, best first."""
        return [paper.id for paper in self.papers]

    def __repr__(self) -> str:
        return f"<Hits {len(self)} for {self.query.text!r}>"


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
    of long lists, `store.readers.cache.search_index`, keeps them on disk)."""

    def __init__(self, papers: Iterable[Paper]) -> None:
        papers = list(papers)
        # Built in batches with numpy rather than word by word in Python (see _Words): the
        # index of 100,000 abstracts is ~20 million words. numpy lets go of the GIL, so two
        # threads find the words of the next batches while this one names them; batches also
        # keep each step short, so the app's UI thread is never held up for long.
        batches = [papers[start : start + _BATCH] for start in range(0, len(papers), _BATCH)]
        # Authors and keywords (`name_form`) have words of their own (`names`): most names are in no
        # abstract, and they need no cased or phrase lookup.
        texts = [([p.plain for p in batch], [f"{p.title} {p.name}" for p in batch],
                  [name_form(" ".join(p.authors)) for p in batch] + [name_form(" ".join(p.keywords)) for p in batch])
                 for batch in batches]
        words = _Words(longest=max((sum(map(len, t)) + len(t) for three in texts for t in three[:2]), default=0))
        names = _Words(longest=max((sum(map(len, three[2])) + len(three[2]) for three in texts), default=0))
        body: list[tuple[np.ndarray, np.ndarray]] = []
        title: list[tuple[np.ndarray, np.ndarray]] = []
        author: list[tuple[np.ndarray, np.ndarray]] = []
        keyword: list[tuple[np.ndarray, np.ndarray]] = []
        lengths: list[np.ndarray] = []
        lower: list[str] = []
        uneven: list[int] = []
        with ThreadPoolExecutor(_THREADS) as pool:
            found = _in_order(pool, lambda three: (words.find(three[0]), words.find(three[1]), names.find(three[2])), texts)
            for start, batch, (in_body, in_title, in_record) in zip(range(0, len(papers), _BATCH), batches, found):
                ids, docs, tf, size = words.count(in_body)
                body.append((ids, ((docs + start) << _TF_BITS) | np.minimum(tf, _TF_MAX)))
                lengths.append(size)
                ids, docs, _, _ = words.count(in_title)
                title.append((ids, docs + start))
                ids, docs, _, _ = names.count(in_record)  # a text of authors, then one of keywords, per paper
                of_keyword = docs >= len(batch)
                author.append((ids[~of_keyword], docs[~of_keyword] + start))
                keyword.append((ids[of_keyword], docs[of_keyword] - len(batch) + start))
                # Made now rather than on the first phrase typed, a second's stall at 100k.
                texts, spaced = _lowered(batch)
                lower += texts
                uneven += [start + k for k in spaced]
        vocabulary, named = dict(words.ids), dict(names.ids)  # plain dicts: looking up an unknown word adds nothing
        self._assemble(papers, vocabulary, _Postings.placed(body, len(vocabulary)), _Postings.placed(title, len(vocabulary)),
                       np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int64), lower,
                       np.array(uneven, dtype=np.int64), named, _Postings.placed(author, len(named)),
                       _Postings.placed(keyword, len(named)))

    def parts(self) -> dict[str, np.ndarray]:
        """What `from_parts` makes this index again from, as plain arrays (no Python objects):
        the postings of body, titles, authors and keywords, the number of words of each text, the vocabulary
        in word id order as UTF-8 text, a word a line (no word holds a line break), and that of the
        authors and keywords; and which display texts have other spacing than single spaces (few: the
        rest need no look)."""
        return {
            "words": _joined(self._words), "body": self._body.values, "body_bounds": self._body.bounds,
            "title": self._title.values, "title_bounds": self._title.bounds, "lengths": self._lengths,
            "uneven": self._uneven, "names": _joined(self._names), "author": self._author.values,
            "author_bounds": self._author.bounds,
            "keyword": self._keyword.values, "keyword_bounds": self._keyword.bounds,
        }

    def term_counts(self) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """The index as word counts, for models over its words (store.ranking): the vocabulary in word
        id order, then for each posting its paper (row in file order), its word id and how often the
        word occurs there (capped at 15 in the body; a title word counts once more)."""
        parts = self.parts()
        words = _split(parts["words"])
        body, title = parts["body"].astype(np.int64), parts["title"].astype(np.int64)
        every = np.arange(len(words))
        of_word = np.concatenate([np.repeat(every, np.diff(parts["body_bounds"])), np.repeat(every, np.diff(parts["title_bounds"]))])
        times = np.concatenate([(body & _TF_MAX).astype(np.float32), np.ones(len(title), np.float32)])
        return words, np.concatenate([body >> _TF_BITS, title]), of_word, times

    @classmethod
    def from_parts(cls, papers: Iterable[Paper], parts: Mapping[str, np.ndarray]) -> SearchIndex:
        """The index `parts()` of an index of these same `papers` describes; ValueError when the
        parts do not fit together or do not fit `papers` (not when they describe other papers
        of the same number: the caller makes sure of that)."""
        papers = list(papers)
        try:
            words, lengths, uneven, names = _split(parts["words"]), parts["lengths"], parts["uneven"], _split(parts["names"])
            body = _Postings.checked(parts["body_bounds"], parts["body"], len(words), len(papers) << _TF_BITS)
            title = _Postings.checked(parts["title_bounds"], parts["title"], len(words), len(papers))
            author, keyword = (_Postings.checked(parts[f"{name}_bounds"], parts[name], len(names), len(papers))
                               for name in ("author", "keyword"))
        except KeyError as missing:
            raise ValueError(f"no {missing} part") from None
        vocabulary, named = dict(zip(words, range(len(words)))), dict(zip(names, range(len(names))))
        if (len(vocabulary) != len(words) or len(named) != len(names) or lengths.dtype != np.int64 or lengths.shape != (len(papers),)
                or uneven.dtype != np.int64 or uneven.ndim != 1 or (len(uneven) and not 0 <= uneven.min() <= uneven.max() < len(papers))):
            raise ValueError("index parts do not fit together")
        index = cls.__new__(cls)
        index._assemble(papers, vocabulary, body, title, lengths, None, uneven, named, author, keyword)
        return index

    def _assemble(self, papers: list[Paper], words: dict[str, int], body: _Postings, title: _Postings,
                  lengths: np.ndarray, lower: list[str] | None, uneven: np.ndarray, names: dict[str, int],
                  author: _Postings, keyword: _Postings) -> None:
        """Set up the index from what a build or a cache gives; the rest is quick to work out
        (the lower-cased texts of a cached index when a phrase first needs them: `literal_ready`)."""
        self.papers = papers
        self._position = {p.id: i for i, p in enumerate(papers)}
        self._words = words
        self._body = body
        self._title = title
        self._names = names
        self._author = author
        self._keyword = keyword
        self._lengths = lengths
        self._lower = lower
        self._lower_heads: list[str] | None = None
        self._lowered_words: list[tuple[str, str]] | None = None
        self._letters = 0
        self._uneven = uneven
        size = lengths.astype(np.float64)
        self._norm = _K1 * (1 - _B + _B * size / (size.mean() if len(size) and size.mean() else 1.0))
        folded: defaultdict[str, list[str]] = defaultdict(list)
        for word in self._words:
            folded[word.casefold()].append(word)
        self._folded = dict(folded)
        self._vocab = {False: _Vocabulary(self._folded), True: _Vocabulary(self._words)}
        self._names_vocab = _Vocabulary(self._names, ends=False)
        self._code = self._where(lambda p: any(h in link for link in p.links for h in CODE_HOSTS))
        self._linked = self._where(lambda p: bool(p.links))
        self._venues = _grouped(f"{p.venue} {p.track}".strip().casefold() for p in self.papers)  # venue:oral too
        self._years = _grouped(p.year for p in self.papers)
        self._areas = _grouped(p.area.casefold() for p in self.papers)
        self._tracks = _grouped(p.track for p in self.papers)

    def __len__(self) -> int:
        return len(self.papers)

    def _where(self, test: Callable[[Paper], bool]) -> np.ndarray:
        return np.fromiter((test(p) for p in self.papers), dtype=bool, count=len(self.papers))

    def _none(self) -> np.ndarray:
        return np.zeros(len(self.papers), dtype=bool)

    def search(self, query: str | Query, states: Mapping[str, Triage] | None = None) -> Hits:
        """Papers matching `query`, best first (ties in file order). `states` maps paper id →
        `Triage` for the is:/p:/has:note/has:tag/tag: qualifiers; missing ids count as untouched."""
        if isinstance(query, str):
            query = parse(query)
        states = states or {}
        notes = _Notes(states, self._position) if query.needs_states else None
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
            return Hits(query, self.papers, order, np.zeros(len(order)), _Highlighter(words, patterns))
        b = body[order]
        scores = TITLE_WEIGHT * title[order] + b / (1 + b)
        rank = np.argsort(-scores, kind="stable")  # stable: ties stay in file order
        return Hits(query, self.papers, order[rank], scores[rank], _Highlighter(words, patterns))

    # --- one OR group -------------------------------------------------------------------

    def _group(self, atoms: tuple[Term | Qualifier, ...], states: Mapping[str, Triage], notes: _Notes | None,
               words: dict[str, int], patterns: list[re.Pattern[str]]) -> tuple[np.ndarray, np.ndarray | None, _Match | None]:
        """(papers matched, papers ruled out or None, the best term scores or None) of an OR
        group. A group with a negated atom is described by what it rules out: `a | !b` rules
        out the papers with b but without a."""
        inside = self._none()
        excluded: list[np.ndarray] = []
        best: _Match | None = None
        for atom in atoms:
            if isinstance(atom, Qualifier):
                found = self._qualified(atom, states)
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
        found = _matched(self._vocab[cased], word if cased else word.casefold(), fuzzy)
        if cased:
            return found
        return {s: v for w, v in found.items() for s in self._folded[w]}

    def _term(self, term: Term, notes: _Notes | None, words: dict[str, int], patterns: list[re.Pattern[str]]) -> _Match:
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

    def _word(self, term: Term, words: dict[str, int], notes: _Notes | None) -> _Match:
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

    def _one_word(self, text: str, words: dict[str, int], field: str = "", notes: _Notes | None = None) -> _Match:
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
                docs = postings >> _TF_BITS
                tf = (postings & _TF_MAX).astype(np.float64)
                df = len(postings)
                weight = quality * math.log(1 + (total - df + 0.5) / (df + 0.5)) * (_K1 + 1)
                body[docs] = np.maximum(body[docs], weight * tf / (tf + self._norm[docs]))
        if not field:
            for surface, (quality, _) in _matched(self._names_vocab, name_form(text), fuzzy=True).items():
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
            matched = _matched(self._names_vocab, part, fuzzy)
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
                        fits[item] = _in_sequence(WORD.findall(name_form(item)), spelled)
                found[k] = any(fits[item] for item in items(self.papers[k]))
        quality *= found
        return _Match(found, np.zeros(len(self.papers)), RECORD_WEIGHT * quality)

    # --- literal text -------------------------------------------------------------------

    def literal_ready(self) -> tuple[list[str], list[str]]:
        """The display texts, and the titles with names, lower-cased with single spaces, as a
        phrase is looked for in them: worked out once, when first needed (~1 s at 100,000 papers,
        which the app spends on its index thread, not on the first phrase typed)."""
        if self._lower is None:
            self._lower = _lowered(self.papers, self._uneven.tolist())[0]
        if self._lower_heads is None:
            self._lower_heads = [_flat(f"{p.title}\n{p.name}".lower()) for p in self.papers]
            self._letters = sum(map(len, self._lower))
        return self._lower, self._lower_heads

    def _literal(self, term: Term, patterns: list[re.Pattern[str]]) -> _Match:
        """Papers whose title or display text contains `term` literally (smart case)."""
        pattern = _pattern(term)
        patterns.append(pattern)
        if term.case_sensitive:
            def count(texts: list[str]) -> list[int]:
                return [len(pattern.findall(text)) for text in texts]
            texts = [p.plain for p in self.papers]
            heads = None
        else:  # str.count on lower-cased text with single spaces: C speed, no regex per paper
            needle = _flat(term.text.lower())

            def count(texts: list[str]) -> list[int]:
                return list(map(str.count, texts, repeat(needle, len(texts))))
            texts, heads = self.literal_ready()
            counted = self._counted(needle)
            if counted is not None:
                return _literal_match(len(self.papers), *counted, self._norm)
        in_body, in_title = self._candidates(term)
        title = np.zeros(len(self.papers))
        counts = np.zeros(len(self.papers))
        chosen = np.flatnonzero(in_title).tolist()
        every = self.papers
        title[chosen] = np.array(count([f"{every[i].title}\n{every[i].name}" for i in chosen] if heads is None
                                       else [heads[i] for i in chosen])) > 0
        chosen = np.flatnonzero(in_body).tolist()
        counts[chosen] = count(texts if len(chosen) == len(texts) else [texts[i] for i in chosen])
        return _literal_match(len(self.papers), title, counts, self._norm)

    def _counted(self, needle: str) -> tuple[np.ndarray, np.ndarray] | None:
        """(in the title or not, times in the display text) of each paper for a lower-case needle of
        ASCII word characters (`"ne`), from the postings of the words holding it rather than by
        counting in every text; None for another needle, or when those words occur so often that
        counting in the texts is quicker (a single letter).

        Exact: such a needle occurs only inside words (their lower-cased letters: lower-casing is
        letter by letter and never makes a word character of another), so a text holds it as often
        as the sum, over its words, of the word's count times the needle's count in the word. Where
        a word's count reached the postings' cap the text is counted as before."""
        if not (needle.isascii() and WORD.fullmatch(needle) and needle == needle.lower()):
            return None
        lower, _ = self.literal_ready()
        found = [(word, low.count(needle)) for word, low in self._lower_words() if needle in low]
        ids = np.array([self._words[word] for word, _ in found], dtype=np.intp)
        starts, ends = self._body.bounds[ids], self._body.bounds[ids + 1]
        sizes = ends - starts
        if int(sizes.sum()) * _POSTING_COST > self._letters:
            return None
        postings = self._body.values[np.repeat(starts - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))]
        docs, tf = postings >> _TF_BITS, postings & _TF_MAX
        times = np.repeat(np.array([n for _, n in found], dtype=np.float64), sizes)
        counts = np.bincount(docs, weights=tf * times, minlength=len(self.papers)).astype(np.float64)
        capped = np.unique(docs[tf == _TF_MAX]).tolist()
        counts[capped] = [lower[i].count(needle) for i in capped]
        title = self._none()
        for word in ids.tolist():
            title[self._title[word]] = True
        return title.astype(np.float64), counts

    def _lower_words(self) -> list[tuple[str, str]]:
        """Each vocabulary word as written and lower-cased (worked out once)."""
        if self._lowered_words is None:
            self._lowered_words = [(word, word.lower()) for word in self._words]
        return self._lowered_words

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
            in_body &= self._papers_with(words, self._body, _TF_BITS, at_most=True)
            in_title &= self._papers_with(words, self._title, 0, at_most=True)
        return in_body, in_title

    def _papers_with(self, words: Iterable[str], postings: _Postings, shift: int, at_most: bool = False) -> np.ndarray:
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

    def _excluded(self, term: Term, notes: _Notes | None) -> np.ndarray:
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
                holds |= self._papers_with(words, self._body, _TF_BITS)
            if term.field != "abstract":
                holds |= self._papers_with(words, self._title, 0)
            if not term.field:
                for name in _matched(self._names_vocab, name_form(part), fuzzy=False):
                    holds[self._author[self._names[name]]] = True
            if notes is not None and not term.field:
                for docs, _ in notes.matching(part, fuzzy=False):
                    holds[docs] = True
            found &= holds
        return found

    # --- qualifiers ---------------------------------------------------------------------

    def _qualified(self, q: Qualifier, states: Mapping[str, Triage]) -> np.ndarray:
        """Papers a qualifier holds for (before its own negation is applied by the caller)."""
        if q.field == "has" and q.value in ("code", "link"):
            return (self._code if q.value == "code" else self._linked).copy()
        found = self._none()
        if q.field in ("venue", "year", "area", "track"):
            holds = _compare(q.op, int(q.value)) if q.field == "year" else (lambda v: str(q.value) in v)
            grouped = {"venue": self._venues, "year": self._years, "area": self._areas, "track": self._tracks}[q.field]
            for value, docs in grouped.items():
                if value is not None and holds(value):
                    found[docs] = True
            return found
        state = _state_test(q)
        default = state(Triage())  # untouched papers qualify too (is:unread, p:0)
        if default:
            found[:] = True
        for pid, triage in states.items():
            if pid in self._position:
                found[self._position[pid]] = state(triage)
        return found


_ITEMS: dict[str, tuple[str, Callable[[Paper], Iterable[str]]]] = {
    "author": ("_author", lambda p: p.authors), "kw": ("_keyword", lambda p: p.keywords),
}
"""The fields a term looks for whole items in (`author:`, `kw:`): the postings' attribute, the items."""


def _in_sequence(tokens: list[str], spelled: list[set[str]]) -> bool:
    """Whether `tokens` hold, one after another, a word of each of `spelled` in order."""
    span = len(spelled)
    return any(all(tokens[start + k] in spelled[k] for k in range(span)) for start in range(len(tokens) - span + 1))


class _Notes:
    """The words of the notes and tags in `states` (they change as you work, so they are read at
    each search rather than indexed): which papers each word is in."""

    def __init__(self, states: Mapping[str, Triage], position: Mapping[str, int]) -> None:
        where: defaultdict[str, list[int]] = defaultdict(list)
        for pid, state in states.items():
            if (state.note or state.tags) and pid in position:
                for word in set(WORD.findall(" ".join((state.note, *state.tags)).casefold())):
                    where[word].append(position[pid])
        self._where = {word: np.array(docs, dtype=np.intp) for word, docs in where.items()}
        self._vocabulary = _Vocabulary(self._where, ends=False) if where else None

    def matching(self, word: str, fuzzy: bool) -> Iterator[tuple[np.ndarray, float]]:
        """(papers, match quality) for each note or tag word `word` matches (any case)."""
        if self._vocabulary is not None:
            for found, (quality, _) in _matched(self._vocabulary, word.casefold(), fuzzy).items():
                yield self._where[found], quality


def fingerprint(papers: Sequence[Paper]) -> bytes:
    """A digest of all that an index of `papers` is made from: their display texts, titles, names,
    authors and keywords, in order. (An index also uses links, venues, years, areas and tracks,
    but works them out anew.)"""
    digest = hashlib.blake2b(digest_size=16)
    for start in range(0, len(papers), _BATCH):  # a batch at a time: one string of a long list is big
        fields = [field for p in papers[start : start + _BATCH]
                  for field in (p.plain, p.title, p.name, "\n".join(p.authors), "\n".join(p.keywords))]
        digest.update("".join(fields).encode("utf-8", "surrogatepass"))
        digest.update(np.fromiter(map(len, fields), np.int64, len(fields)).tobytes())  # where each one ends
    return digest.digest()


def _lowered(papers: Iterable[Paper], uneven: Iterable[int] | None = None) -> tuple[list[str], list[int]]:
    """The display texts lower-cased with single spaces, as literal matching looks in them, and
    the positions of those whose spacing had to be evened out. Given `uneven`, the positions
    an earlier call on these same papers found, only those texts are looked at (telling the
    others apart costs more than lower-casing them all)."""
    lower = [p.plain.lower() for p in papers]
    found = []
    for k in range(len(lower)) if uneven is None else uneven:
        flat = _flat(lower[k])
        if flat is not lower[k]:  # _flat gives back the very text when it has nothing to do
            lower[k] = flat
            found.append(k)
    return lower, found


def _literal_match(size: int, title: np.ndarray, counts: np.ndarray, norm: np.ndarray) -> _Match:
    """What a literal matched, from whether it is in each paper's title and how often in its text."""
    papers = (title > 0) | (counts > 0)
    df = int(papers.sum()) or 1
    weight = math.log(1 + (size - df + 0.5) / (df + 0.5)) * (_K1 + 1)
    return _Match(papers, title, weight * counts / (counts + norm))


def _joined(words: Iterable[str]) -> np.ndarray:
    """`words` as one array of UTF-8 bytes, a word a line."""
    return np.frombuffer("\n".join(words).encode("utf-8", "surrogatepass"), dtype=np.uint8)


def _split(joined: np.ndarray) -> list[str]:
    """The words `_joined` made the array of; ValueError for anything else."""
    if joined.dtype != np.uint8 or joined.ndim != 1:
        raise ValueError("words are not UTF-8 bytes")
    text = joined.tobytes().decode("utf-8", "surrogatepass")
    return text.split("\n") if text else []


def _flat(text: str) -> str:
    """`text` with each run of whitespace made one space (the very text when it has them already)."""
    return text if single_spaced(text) else " ".join(text.split())


def _grouped(values: Iterable[object]) -> dict[object, np.ndarray]:
    """value → the indices where it occurs."""
    where: defaultdict[object, list[int]] = defaultdict(list)
    for i, value in enumerate(values):
        where[value].append(i)
    return {value: np.array(indices, dtype=np.intp) for value, indices in where.items()}


@dataclass(slots=True)
class _Runs:
    """The words of a batch of texts, found by `_Words.find` and not yet named."""

    joined: str
    """The texts, one per line."""
    starts: np.ndarray
    ends: np.ndarray
    """Where each word starts and ends in `joined`."""
    order: np.ndarray
    """An order of the words bringing each word's occurrences together, in text order…"""
    first: np.ndarray
    """…and where each word's occurrences begin in it."""
    exact: bool
    """Whether every group was checked to hold one word (False: two words share a hash)."""
    text: np.ndarray
    """The text of each word."""
    lengths: np.ndarray
    """The number of words in each text."""


class _Words:
    """Counts the words of texts, as `WORD.findall` finds them, as numbers: each distinct word
    gets an id (`ids`: word → id, in order of first appearance).

    Making a Python string of each of 20 million words costs seconds, so a batch of texts is
    handled as one array of code points in numpy (`find`, which any thread may run): which
    are word characters, where runs of them start and end, a hash of each run, and one sort
    by hash that brings each word's occurrences together, in text order. Runs with equal
    hashes are then compared letter by letter, so the counts are exact whatever the hash does
    (should two words share a hash, `count` spells out the batch's words in Python instead).
    `count` names one string per distinct word and batch.
    """

    def __init__(self, longest: int) -> None:
        """`longest`: the most characters a batch of texts, joined, will have."""
        self.ids: dict[str, int] = defaultdict(count().__next__)
        self._power = _powers(_BASE, longest + 1)
        self._unpower = _powers(pow(_BASE, -1, 2**64), longest + 1) * _MIX

    def find(self, texts: list[str]) -> _Runs:
        """The words of `texts`, grouped by hash."""
        joined = "\n".join(texts)  # no word runs from one text into the next
        chars = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        inside = _word_characters(chars)
        edges = np.flatnonzero(np.diff(inside, prepend=False, append=False))
        starts, ends = edges[0::2], edges[1::2]
        order, first = _grouped_by(self._hashes(chars, starts, ends))
        text_starts = np.cumsum([0] + [len(text) + 1 for text in texts[:-1]])
        text = np.searchsorted(text_starts, starts, side="right") - 1
        return _Runs(joined, starts, ends, order, first, _same_letters(chars, inside, starts, ends, order, first),
                     text.astype(np.uint32), np.bincount(text, minlength=len(texts)))

    def count(self, runs: _Runs) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(word id, text, count) of each word in each text, a word's texts together and in
        order, and the number of words in each text."""
        joined, starts, ends, order, first = runs.joined, runs.starts, runs.ends, runs.order, runs.first
        if not runs.exact:
            spelled = [joined[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
            ids = np.fromiter(map(self.ids.__getitem__, spelled), np.uint64, len(spelled))
            order, first = _grouped_by(ids << np.uint64(32))  # ids < 2**32: in the high bits, exact
        text = runs.text[order]
        group = np.cumsum(first) - 1  # of each word, in sorted order
        spelled = [joined[s:e] for s, e in zip(starts[order[first]].tolist(), ends[order[first]].tolist())]
        ids = np.fromiter(map(self.ids.__getitem__, spelled), np.uint32, len(spelled))[group]
        pair = np.flatnonzero(first | np.diff(text, prepend=np.uint32(0)).astype(bool))  # a new word or text
        counts = np.diff(pair, append=len(text)).astype(np.uint32)
        return ids[pair], text[pair], counts, runs.lengths

    def _hashes(self, chars: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """A hash of each run chars[start:end] from prefix sums of chars[i] * _BASE**i: the sum
        of chars[start + k] * _BASE**k mod 2**64, times _MIX so that its high bits, which
        `_grouped_by` sorts on, depend on the low bits too (the first letter's, for one)."""
        prefix = np.zeros(len(chars) + 1, dtype=np.uint64)
        np.cumsum(chars * self._power[: len(chars)], out=prefix[1:])  # wraps mod 2**64, as meant
        return (prefix[ends] - prefix[starts]) * self._unpower[starts]


def _in_order(pool: ThreadPoolExecutor, work: Callable[[_T], _R], items: Iterable[_T]) -> Iterator[_R]:
    """work(item) for each of `items`, in order, run on `pool` a few items ahead (not all at
    once: finished batches wait in memory until they are used)."""
    pending: deque[Future[_R]] = deque()
    for item in items:
        pending.append(pool.submit(work, item))
        if len(pending) > 2 * _THREADS:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _powers(base: int, n: int) -> np.ndarray:
    """base**i mod 2**64 for i < n."""
    power = np.full(n, base, dtype=np.uint64)
    power[0] = 1
    return np.cumprod(power, out=power)


def _word_characters(chars: np.ndarray) -> np.ndarray:
    """Which of the code points `chars` `WORD` counts as word characters."""
    inside = _ASCII_WORD[np.minimum(chars, 127)]
    other = np.flatnonzero(chars > 127)
    if len(other):
        points, where = np.unique(chars[other], return_inverse=True)
        inside[other] = np.array([WORD.fullmatch(chr(c)) is not None for c in points.tolist()])[where]
    return inside


def _grouped_by(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An order that brings equal `keys` together, keeping their order among themselves, and
    where each group starts in it. One plain sort of the keys' high bits with each key's
    position in the low bits (sorting is the costly step; this avoids a slower argsort)."""
    bits = max(1, len(keys).bit_length())
    mask = np.uint64((1 << bits) - 1)
    ranked = (keys & ~mask) | np.arange(len(keys), dtype=np.uint64)
    ranked.sort()
    high = ranked >> np.uint64(bits)
    return (ranked & mask).astype(np.intp), np.diff(high, prepend=~high[:1]).astype(bool)


def _same_letters(chars: np.ndarray, inside: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                  order: np.ndarray, first: np.ndarray) -> bool:
    """Whether the runs chars[start:end] grouped together by `order` and `first` are equal."""
    lengths = ends - starts
    same = np.empty(len(order), dtype=np.intp)  # the first run of each run's group
    same[order] = order[first][np.cumsum(first) - 1]
    if not np.array_equal(lengths, lengths[same]):
        return False
    at = np.repeat(starts[same] - (np.cumsum(lengths) - lengths), lengths)
    at += np.arange(len(at))  # where each letter of each run's group's first run is
    return np.array_equal(chars[inside], chars[at])


class _Postings:
    """The posting lists of all words in one array; `postings[word id]` is that word's slice."""

    def __init__(self, bounds: np.ndarray, values: np.ndarray) -> None:
        self.bounds = bounds
        """Where each word's postings start in `values` (and, last, where they end)."""
        self.values = values

    @classmethod
    def placed(cls, batches: list[tuple[np.ndarray, np.ndarray]], words: int) -> _Postings:
        """The postings of `batches`: (word id, posting) pairs, a word's postings together in
        each batch and the batches in paper order. Placed by counting rather than sorted: no
        comparisons."""
        runs = []
        sizes = np.zeros(words, dtype=np.intp)
        for ids, _ in batches:
            start = np.flatnonzero(np.diff(ids, prepend=~ids[:1]) != 0) if len(ids) else np.zeros(0, np.intp)
            runs.append((ids[start], start, np.diff(start, append=len(ids))))
            sizes[ids[start]] += runs[-1][2]
        bounds = np.concatenate(([0], np.cumsum(sizes)))
        values = np.empty(bounds[-1], dtype=np.uint32)
        filled = bounds[:-1].copy()
        for (_, postings), (word, start, length) in zip(batches, runs):
            values[np.repeat(filled[word] - start, length) + np.arange(len(postings))] = postings
            filled[word] += length
        batches.clear()
        return cls(bounds, values)

    @classmethod
    def checked(cls, bounds: np.ndarray, values: np.ndarray, words: int, end: int) -> _Postings:
        """Postings as `placed` makes them, of `words` words, each value below `end`; else ValueError."""
        if bounds.dtype != np.int64 or bounds.shape != (words + 1,) or values.dtype != np.uint32 or values.ndim != 1:
            raise ValueError("postings of another shape")
        if bounds[0] != 0 or bounds[-1] != len(values) or np.any(np.diff(bounds) < 0) or (len(values) and values.max() >= end):
            raise ValueError("postings out of bounds")
        return cls(bounds, values)

    def __getitem__(self, word: int) -> np.ndarray:
        return self.values[self.bounds[word] : self.bounds[word + 1]]


class _Vocabulary:
    """The distinct words of the corpus (case-folded or as written), sorted for prefix lookup
    and grouped by length for edit-distance lookup."""

    def __init__(self, words: Iterable[str], ends: bool = True) -> None:
        """`ends`: whether `ending` is asked (it keeps every word reversed too)."""
        self.sorted = sorted(words)
        self._set = set(self.sorted)
        self._reversed = sorted(w[::-1] for w in self.sorted) if ends else []
        self.by_length: defaultdict[int, list[str]] = defaultdict(list)
        for word in self.sorted:
            self.by_length[len(word)].append(word)

    def __contains__(self, word: str) -> bool:
        return word in self._set

    def starting(self, prefix: str) -> Iterable[str]:
        """Words that begin with `prefix` (the word itself included)."""
        words = self.sorted
        for k in range(bisect_left(words, prefix), len(words)):
            if not words[k].startswith(prefix):
                break
            yield words[k]

    def near(self, word: str, typos: int) -> list[tuple[str, int]]:
        """Words within `typos` edits of `word` (a swap of two letters is one edit), with the distance."""
        if not typos:
            return []
        found = []
        for length in range(max(1, len(word) - typos), len(word) + typos + 1):
            # processor=None on purpose: both sides are already case-folded (or smart-case exact).
            found += [(w, int(d)) for w, d, _ in process.extract(
                word, self.by_length.get(length, ()), scorer=OSA.distance, processor=None,
                score_cutoff=typos, limit=None) if d]
        return found

    def containing(self, part: str) -> list[str]:
        return [w for w in self.sorted if part in w]

    def ending(self, suffix: str) -> list[str]:
        reverse = suffix[::-1]
        words = self._reversed
        found = []
        for k in range(bisect_left(words, reverse), len(words)):
            if not words[k].startswith(reverse):
                break
            found.append(words[k][::-1])
        return found


def _matched(vocab: _Vocabulary, key: str, fuzzy: bool) -> dict[str, tuple[float, int]]:
    """Words of `vocab` that `key` matches → (quality 0..1, letters to highlight): itself, words it
    begins, and (when `fuzzy`) words a few edits away."""
    found = {w: (1.0 if w == key else 0.75 + 0.2 * len(key) / len(w), len(key)) for w in vocab.starting(key)}
    if fuzzy:
        for w, distance in vocab.near(key, typos_allowed(key)):
            found.setdefault(w, (0.7 - 0.15 * (distance - 1), len(w)))
    return found


def _pattern(term: Term) -> re.Pattern[str]:
    """The literal text of a phrase or 'exact term as a regex; any run of spaces matches any."""
    body = r"\s+".join(re.escape(part) for part in term.text.split())
    return re.compile(body, 0 if term.case_sensitive else re.IGNORECASE)


def _compare(op: str, value: int) -> Callable[[int], bool]:
    return {
        ":": lambda x: x == value, "<": lambda x: x < value, "<=": lambda x: x <= value,
        ">": lambda x: x > value, ">=": lambda x: x >= value,
    }[op]


def _state_test(q: Qualifier) -> Callable[[Triage], bool]:
    """The test an is:/p:/has:note/has:tag/tag: qualifier applies to one paper's `Triage`."""
    if q.field == "is":
        return {
            "read": lambda t: t.read, "unread": to_read, "starred": lambda t: t.starred,
            "dismissed": lambda t: t.dismissed,
        }[str(q.value)]
    if q.field == "has":
        return (lambda t: bool(t.note.strip())) if q.value == "note" else (lambda t: bool(t.tags))
    if q.field == "tag":
        name = str(q.value)
        return lambda t: any(tag.casefold() == name for tag in t.tags)
    priority = _compare(q.op, int(q.value))
    if q.op == ":":
        return lambda t: priority(t.priority)
    return lambda t: t.priority > 0 and priority(t.priority)  # p<=2 means set and at most 2
