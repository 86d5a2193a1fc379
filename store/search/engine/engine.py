"""`Engine`: an index folder opened (memory-mapped: nothing of it is loaded but what a query reads) answering the
query language, as SearchIndex.search does, with the same papers in an order that keeps its ranking rules.

`Engine.opened` opens a folder that is intact (store.search.engine.folder) and builds it again first when it is
not (missing, of other papers or code, truncated, damaged). `search` gives a `Found`: the rows (places in the
list) of the papers matching, best first, ties in file order.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import tantivy

from store.papers.model import Paper, Triage
from store.search.engine.folder import build, intact, ordered
from store.search.engine.lexicon import Lexicon
from store.search.engine.translate import Translator
from store.search.phrases import literal_pattern, lower
from store.search.qualifiers import NEW, UPDATED
from store.search.query import Query, Term, parse


@dataclass(frozen=True, slots=True)
class Found:
    """What a query found: the `rows` of the papers (their places in the list), best first, with their `scores`;
    `total` papers match (all of them in `rows`, or the first that were asked for)."""

    query: Query
    rows: np.ndarray
    scores: np.ndarray
    total: int

    def __len__(self) -> int:
        return self.total


class Engine:
    """An index folder, open."""

    def __init__(self, folder: Path) -> None:
        """Opens `folder` as it is (`opened` checks it first); ValueError when tantivy cannot."""
        self.folder = folder
        self._index = tantivy.Index.open(str(folder))
        self._searcher = self._index.searcher()
        self._size = self._searcher.num_docs
        self._ordered = ordered(folder)
        self.lexicon = Lexicon(folder)

    @classmethod
    def opened(cls, papers: Sequence[Paper], folder: Path, key: str) -> tuple[Engine, bool]:
        """(the engine of `papers` in `folder` under `key`, whether it was built now): an intact folder opened,
        any other built again first."""
        if intact(folder, key, len(papers)):
            try:
                return cls(folder), False
            except ValueError:
                pass
        build(papers, folder, key)
        return cls(folder), True

    def __len__(self) -> int:
        return self._size

    def search(self, query: str | Query, states: Mapping[str, Triage] | None = None, new: Collection[str] = (),
               updated: Collection[str] = (), first: int | None = None) -> Found:
        """Papers matching `query`, best first (ties in file order); `states`, `new` and `updated` as for
        SearchIndex.search (the marks of the moment, the ids `is:new` and `is:updated` find). `first`: only the
        first that many rows (what a screen shows), not every match."""
        if isinstance(query, str):
            query = parse(query)
        translator = Translator(self._index.schema, self.lexicon, self._literal, states or {}, {NEW: new, UPDATED: updated})
        asked, scored = translator.query(query)
        wanted = max(1, self._size if first is None else min(first, self._size))
        if not scored:  # file order
            result = self._searcher.search(asked, wanted, count=True, order_by_field="row", order=tantivy.Order.Asc)
            rows = np.array([row for row, _ in result.hits], dtype=np.int64)
            return Found(query, rows, np.zeros(len(rows)), result.count)
        # tantivy breaks ties by document, which is file order in an `ordered` folder; in another, when the one after
        # the last row wanted ties with it, the papers so tied may be any of many, and are asked for (4 times as
        # many, then all)
        result = self._searcher.search(asked, wanted if self._ordered else wanted + 1, count=True)
        for asking in (4 * wanted, result.count) if not self._ordered else ():
            hits = result.hits
            if len(hits) <= wanted or hits[wanted - 1][0] > hits[-1][0] or len(hits) == result.count:
                break
            result = self._searcher.search(asked, max(asking, len(hits) + 1), count=True)
        hits = result.hits
        rows = np.array(self._searcher.fast_field_values("row", [address for _, address in hits]), dtype=np.int64)
        scores = np.array([score for score, _ in hits], dtype=np.float64)
        order = np.lexsort((rows, -scores))[:wanted]
        return Found(query, rows[order], scores[order], result.count)

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
