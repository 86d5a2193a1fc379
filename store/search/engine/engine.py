"""`Engine`: an index of a list's papers answering the query language (store.search.query) with
`store.search.highlight.Hits`: every match best first by the README's ranking rules, ties in file order, with the
spans a query matched.

An engine's index is a folder opened (memory-mapped: nothing of it is loaded but what a query reads) or one built in
memory (`Engine.of`: for papers of no file, and when the cache cannot be written). `Engine.opened` opens a folder
that is intact (store.search.engine.folder) and builds it again first when it is not (missing, of other papers or
code, truncated, damaged), saying why; `Engine.ahead` opens an intact one before its papers are there (`Ahead`: a
reopened list's, while it is read). `found` gives the rows alone, or a screen's first rows with the count
(`Found`: bench/engine_search.py times it); `glance` a screen's first hits, with the count and the marked papers among
every hit (what the app shows of a query on a long list before all its hits are read: tui.filtering).
"""
from __future__ import annotations

import threading
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path

import numpy as np
import tantivy

from store.papers.model import Paper, Triage
from store.search.engine.documents import new_index
from store.search.engine.folder import build, checked, fill, ordered, sealed
from store.search.engine.lexicon import Lexicon, made
from store.search.engine.translate import Translator
from store.search.highlight import Highlighter, Hits
from store.search.phrases import literal_pattern, lower
from store.search.qualifiers import NEW, UPDATED
from store.search.query import Query, Term, parse


@dataclass(frozen=True, slots=True)
class Found:
    """What a query found: the `rows` of the papers (their places in the list), best first, with their `scores`;
    `total` papers match (all of them in `rows`, or the first that were asked for); `highlighter` marks what it
    matched."""

    query: Query
    rows: np.ndarray
    scores: np.ndarray
    total: int
    highlighter: Highlighter

    def __len__(self) -> int:
        return self.total


class Engine:
    """An index open (in a folder, or in memory) over `papers`, the list it was built for (the same objects)."""

    def __init__(self, papers: Sequence[Paper], index: tantivy.Index, lexicon: Lexicon, folder: Path | None = None,
                 ordered: bool = False) -> None:
        self.papers = papers if isinstance(papers, Sequence) else list(papers)  # (a reopened list's: made as hits ask)
        self.folder = folder
        self.lexicon = lexicon
        self._index = index
        self._searcher = index.searcher()
        self._size = self._searcher.num_docs
        self._ordered = ordered

    @classmethod
    def open(cls, papers: Sequence[Paper], folder: Path) -> Engine:
        """The index in `folder` as it is (`opened` checks it first); ValueError when tantivy cannot open it."""
        return cls(papers, tantivy.Index.open(str(folder)), Lexicon.in_folder(folder), folder, ordered(folder))

    @classmethod
    def opened(cls, papers: Sequence[Paper], folder: Path, key: str, stop: threading.Event | None = None) -> tuple[Engine, str | None]:
        """(the engine of `papers` in `folder` under `key`, why it was built now or None): an intact folder opened,
        any other built again first ("missing", "outdated", "damaged": store.search.engine.folder's `checked`).
        OSError when the folder cannot be written; `Abandoned` (one) when `stop` is set while it is built."""
        why = checked(folder, key, len(papers))
        if why is None:
            try:
                return cls.open(papers, folder), None
            except ValueError:
                why = "damaged"
        build(papers, folder, key, stop)
        return cls.open(papers, folder), why

    @classmethod
    def ahead(cls, folder: Path, key: str) -> Ahead | str:
        """The index in `folder`, built under `key`, opened before the papers it was built of are there when the folder
        is intact (store.search.engine.folder's `sealed`: its CRCs worked out without the interpreter's lock); else why
        it is not ("missing", "outdated", "damaged")."""
        found = sealed(folder, key)
        if isinstance(found, str):
            return found
        try:
            return Ahead(folder, key, found, tantivy.Index.open(str(folder)))
        except ValueError:
            return "damaged"

    @classmethod
    def of(cls, papers: Sequence[Paper]) -> Engine:
        """The engine of `papers` built in memory (no folder): the same answers as one in a folder."""
        index = new_index()
        fill(index, papers)
        return cls(papers, index, Lexicon(made(index.searcher()).__getitem__))

    def __len__(self) -> int:
        return self._size

    def search(self, query: str | Query, states: Mapping[str, Triage] | None = None, new: Collection[str] = (),
               updated: Collection[str] = ()) -> Hits:
        """Papers matching `query`, best first (ties in file order): `states` maps
        paper id → `Triage` for the is:/p:/has:note/has:tag/tag: qualifiers (missing ids count as untouched); `new`
        and `updated` are the ids `is:new` and `is:updated` find. Each hit's paper is one of `papers`, its spans the
        query's words and literal text as they are written."""
        found = self.found(query, states, new, updated)
        return Hits(found.query, self.papers, found.rows, found.scores, found.highlighter)

    def glance(self, query: str | Query, states: Mapping[str, Triage], new: Collection[str] = (),
               updated: Collection[str] = (), first: int = 100) -> Glance:
        """The `first` hits of what `search` finds (a screen's), how many there are, and which of the marked papers
        (`states` not blank) they are: at 1,000,000 papers ~0.05 s where `search` takes ~0.4 s (every hit's row and
        score read and sorted)."""
        query, asked, scored, highlighter = self._asked(query, states, new, updated)
        found = self._found(query, asked, scored, highlighter, first)
        marked = [pid for pid, state in states.items() if not state.blank]
        rows: list[int] = []
        if marked:
            among = tantivy.Query.term_set_query(self._index.schema, "id", marked)
            both = tantivy.Query.boolean_query([(tantivy.Occur.Must, asked), (tantivy.Occur.Must, among)])
            matched = self._searcher.search(both, len(marked), count=False).hits
            rows = self._searcher.fast_field_values("row", list(map(itemgetter(1), matched)))
        return Glance(Hits(query, self.papers, found.rows, found.scores, highlighter), found.total, rows)

    def found(self, query: str | Query, states: Mapping[str, Triage] | None = None, new: Collection[str] = (),
              updated: Collection[str] = (), first: int | None = None) -> Found:
        """What `search` finds, as rows; `first`: only the first that many rows (what a screen shows), with the
        count of every match."""
        return self._found(*self._asked(query, states or {}, new, updated), first)

    def _asked(self, query: str | Query, states: Mapping[str, Triage], new: Collection[str], updated: Collection[str]
               ) -> tuple[Query, tantivy.Query, bool, Highlighter]:
        """(the query parsed, the engine's query, whether it ranks, what marks its matches)."""
        if isinstance(query, str):
            query = parse(query)
        translator = Translator(self._index.schema, self.lexicon, self._literal, states, {NEW: new, UPDATED: updated})
        asked, scored = translator.query(query)
        return query, asked, scored, Highlighter(translator.words, translator.patterns)

    def _found(self, query: Query, asked: tantivy.Query, scored: bool, highlighter: Highlighter, first: int | None) -> Found:
        wanted = max(1, self._size if first is None else min(first, self._size))
        if not scored:  # file order
            result = self._searcher.search(asked, wanted, count=True, order_by_field="row", order=tantivy.Order.Asc)
            rows = np.array([row for row, _ in result.hits], dtype=np.int64)
            return Found(query, rows, np.zeros(len(rows)), result.count, highlighter)
        # tantivy breaks ties by document, which is file order in an `ordered` folder; in another, when the one after
        # the last row wanted ties with it, the papers so tied may be any of many, and are asked for (4 times as
        # many, then all)
        result = self._searcher.search(asked, wanted if self._ordered else wanted + 1, count=True)
        hits = result.hits  # (a list made at each read of it: ~0.15 s at 700,000 hits)
        for asking in (4 * wanted, result.count) if not self._ordered else ():
            if len(hits) <= wanted or hits[wanted - 1][0] > hits[-1][0] or len(hits) == result.count:
                break
            result = self._searcher.search(asked, max(asking, len(hits) + 1), count=True)
            hits = result.hits
        rows = np.array(self._searcher.fast_field_values("row", list(map(itemgetter(1), hits))), dtype=np.int64)
        scores = np.fromiter(map(itemgetter(0), hits), dtype=np.float64, count=len(hits))
        order = np.lexsort((rows, -scores))[:wanted]
        return Found(query, rows[order], scores[order], result.count, highlighter)

    def _literal(self, term: Term, narrowed: tantivy.Query) -> tuple[list[str], list[str]]:
        """(ids with `term` in the title and name, ids with it in the display text) among the papers `narrowed`
        finds, checked on their stored texts (smart case)."""
        if term.case_sensitive:
            pattern = literal_pattern(term)

            def holds(text: str) -> bool:
                return pattern.search(text) is not None
        else:
            needle = lower(term.text)

            def holds(text: str) -> bool:
                return needle in lower(text)
        in_title, in_text = [], []
        for _, address in self._searcher.search(narrowed, max(1, self._size), count=False).hits:
            doc = self._searcher.doc(address)
            pid = doc.get_first("id")
            if holds(doc.get_first("head_text").decode("utf-8", "surrogatepass")):
                in_title.append(pid)
            if holds(doc.get_first("plain").decode("utf-8", "surrogatepass")):
                in_text.append(pid)
        return in_title, in_text


@dataclass(frozen=True, slots=True)
class Glance:
    """A query's first `hits` (`Engine.glance`), of `total` matches; `marked`: the rows of the marked papers that match."""

    hits: Hits
    total: int
    marked: list[int]


@dataclass(frozen=True, slots=True)
class Ahead:
    """An intact folder's index opened before its papers are there (`Engine.ahead`), built under `key` of `count` papers."""

    folder: Path
    key: str
    count: int
    index: tantivy.Index

    def engine(self, papers: Sequence[Paper]) -> Engine | None:
        """The engine of `papers`, the very papers the folder was built of (the caller knows them by `key`), or None when
        they are not as many."""
        if len(papers) != self.count:
            return None
        return Engine(papers, self.index, Lexicon.in_folder(self.folder), self.folder, ordered(self.folder))
