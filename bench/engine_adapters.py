"""The engines bench/engines.py compares (tantivy and SQLite FTS5; a third, the app's in-memory SearchIndex, was
removed with it when the engine on tantivy replaced it, issue 34), each behind the same two calls: `build(list, folder)`
(index a list's records into `folder`) and `open(folder)` (an object whose `search(query)` gives (matches, ids of
the first rows)). The query is paper-triage's own language, cut down to what the bench asks
(`atoms`): words (with typos and, for the last word, as a prefix), "phrases", an unfinished `"n`,
`author:`/`kw:`/`title:` (a word or a "phrase"), `OR` between two atoms, `NOT` before one.

Typos: the near spellings of a word are found by rapidfuzz in the vocabulary kept beside the index
(`vocab.txt`: every word of the titles, abstracts and authors, with its count) and handed to the
engine as an OR of terms, the word itself boosted above them (typo quality). Title above body: the
title field weighs 3 to the abstract's 1 (BM25 in both engines).
"""
from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from pathlib import Path

WORD = re.compile(r"\w+")
ATOM = re.compile(r'(NOT\s+|-)?(?:(\w+):"([^"]*)"|(\w+):(\S+)|"([^"]*)("?)|(\S+))')
FIELDS = {"author": "authors", "kw": "categories", "title": "title"}
TITLE_WEIGHT = 3.0
ROWS = 40
"""Ids fetched per query: a screenful of rows (the records themselves are read from disk for those only)."""


def records(path: Path):
    """(id, title, authors, categories, abstract) of each snapshot record of a JSON Lines list."""
    with path.open(encoding="utf-8") as source:
        for line in source:
            if line.strip():
                r = json.loads(line)
                yield (r["id"], " ".join(r["title"].split()), r["authors"], r["categories"], " ".join(r["abstract"].split()))


def atoms(query: str) -> list[tuple[str, str, str, bool]]:
    """(kind, field, text, negated) of each atom; kind: word, phrase, open (an unfinished phrase), or;
    field "" for any."""
    out = []
    for m in ATOM.finditer(query):
        negated = bool(m.group(1))
        if m.group(2):
            out.append(("phrase", FIELDS.get(m.group(2), m.group(2)), m.group(3), negated))
        elif m.group(4):
            out.append(("word", FIELDS.get(m.group(4), m.group(4)), m.group(5), negated))
        elif m.group(6) is not None:
            kind = "phrase" if m.group(7) or " " in m.group(6) else "open"
            out.append((kind, "", m.group(6), negated))
        elif m.group(8) == "OR":
            out.append(("or", "", "", False))
        elif m.group(8) == "NOT":
            continue
        else:
            out.append(("word", "", m.group(8), negated))
    return out


class Vocabulary:
    """The words of the index with their counts, and their near spellings by rapidfuzz."""

    def __init__(self, counts: dict[str, int]):
        self.words = list(counts)
        self.counts = counts

    @classmethod
    def load(cls, folder: Path) -> Vocabulary:
        counts = {}
        with (folder / "vocab.txt").open(encoding="utf-8") as source:
            for line in source:
                word, _, count = line.rstrip("\n").partition("\t")
                counts[word] = int(count)
        return cls(counts)

    @staticmethod
    def save(counts: Counter, folder: Path) -> None:
        with (folder / "vocab.txt").open("w", encoding="utf-8") as out:
            out.writelines(f"{w}\t{c}\n" for w, c in counts.most_common())

    def near(self, word: str) -> list[str]:
        """`word` (if it is a word of the index) and its spellings one edit away (two for words of 8 letters or more)."""
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        word = word.lower()
        if len(word) < 4:
            return [word]
        found = process.extract(word, self.words, scorer=Levenshtein.distance, score_cutoff=1 if len(word) < 8 else 2,
                                limit=8)
        near = [w for w, _, _ in sorted(found, key=lambda f: (f[1], -self.counts[f[0]]))]
        return near if word in near else [word, *near]


def _count_words(counts: Counter, *texts: str) -> None:
    for text in texts:
        counts.update(WORD.findall(text.lower()))


# ---- tantivy


class Tantivy:
    name = "tantivy"

    @staticmethod
    def _schema():
        import tantivy

        builder = tantivy.SchemaBuilder()
        builder.add_text_field("id", stored=True, tokenizer_name="raw")
        for field in ("title", "authors", "categories", "abstract"):
            builder.add_text_field(field, stored=True)  # the records live in the index's compressed store
        return builder.build()

    @classmethod
    def build(cls, path: Path, folder: Path) -> None:
        import tantivy

        index = tantivy.Index(cls._schema(), path=str(folder))
        writer = index.writer(heap_size=128_000_000)
        counts: Counter = Counter()
        for ident, title, authors, categories, abstract in records(path):
            writer.add_document(tantivy.Document(id=ident, title=title, authors=authors, categories=categories,
                                                 abstract=abstract))
            _count_words(counts, title, authors, abstract)
        writer.commit()
        writer.wait_merging_threads()
        Vocabulary.save(counts, folder)

    def __init__(self, folder: Path):
        import tantivy

        self.tantivy = tantivy
        self.index = tantivy.Index.open(str(folder))
        self.schema = self.index.schema
        self.searcher = self.index.searcher()
        self.vocabulary = Vocabulary.load(folder)

    def _atom(self, kind: str, field: str, text: str, last: bool):
        Query, Occur = self.tantivy.Query, self.tantivy.Occur
        fields = [field] if field else ["title", "abstract"]
        words = [w.lower() for w in WORD.findall(text)] or [""]
        per_field = []
        for name in fields:
            boost = TITLE_WEIGHT if name == "title" and not field else 1.0
            if kind == "word" and len(words) == 1:
                near = self.vocabulary.near(words[0]) if not field or name != "categories" else words
                terms = [Query.boost_query(Query.term_query(self.schema, name, w), 1.0 if i == 0 else 0.5)
                         for i, w in enumerate(near)]
                if last and not field:
                    terms.append(Query.boost_query(Query.phrase_prefix_query(self.schema, name, words), 0.3))
                one = Query.boolean_query([(Occur.Should, t) for t in terms])
            elif kind == "open":
                one = Query.phrase_prefix_query(self.schema, name, words)
            elif len(words) > 1:  # a phrase's last word as typed so far, as the app's ("neural network" finds …networks)
                one = (Query.phrase_query if field else Query.phrase_prefix_query)(self.schema, name, words)
            else:
                one = Query.term_query(self.schema, name, words[0])
            per_field.append(Query.boost_query(one, boost))
        return Query.boolean_query([(Occur.Should, q) for q in per_field])

    def search(self, query: str) -> tuple[int, list[str]]:
        Query, Occur = self.tantivy.Query, self.tantivy.Occur
        parts = atoms(query)
        groups: list[list] = []  # OR-groups, ANDed
        negated = []
        joined = False
        for at, (kind, field, text, negative) in enumerate(parts):
            if kind == "or":
                joined = True
                continue
            one = self._atom(kind, field, text, at == len(parts) - 1)
            if negative:
                negated.append(one)
            elif joined and groups:
                groups[-1].append(one)
            else:
                groups.append([one])
            joined = False
        clauses = [(Occur.Must, Query.boolean_query([(Occur.Should, q) for q in g]) if len(g) > 1 else g[0]) for g in groups]
        clauses += [(Occur.MustNot, q) for q in negated]
        result = self.searcher.search(Query.boolean_query(clauses), ROWS, count=True)
        return result.count, [self.searcher.doc(address)["id"][0] for _, address in result.hits]


# ---- SQLite FTS5


class Fts5:
    name = "fts5"

    @staticmethod
    def build(path: Path, folder: Path) -> None:
        db = sqlite3.connect(folder / "papers.sqlite")
        db.executescript("""
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
            CREATE TABLE papers(rowid INTEGER PRIMARY KEY, id TEXT, title TEXT, authors TEXT, categories TEXT, abstract TEXT);
            CREATE VIRTUAL TABLE fts USING fts5(title, authors, categories, abstract, content='papers',
                                                content_rowid='rowid', prefix='1 2 3');
        """)
        counts: Counter = Counter()

        def rows():
            for record in records(path):
                _count_words(counts, record[1], record[2], record[4])
                yield record

        db.executemany("INSERT INTO papers(id, title, authors, categories, abstract) VALUES (?, ?, ?, ?, ?)", rows())
        db.execute("INSERT INTO fts(rowid, title, authors, categories, abstract) "
                   "SELECT rowid, title, authors, categories, abstract FROM papers")
        db.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        db.commit()
        db.close()
        Vocabulary.save(counts, folder)

    def __init__(self, folder: Path):
        self.db = sqlite3.connect(folder / "papers.sqlite")
        self.vocabulary = Vocabulary.load(folder)

    @staticmethod
    def _quoted(text: str) -> str:
        return '"' + text.replace('"', '""') + '"'

    def _atom(self, kind: str, field: str, text: str, last: bool) -> str:
        words = WORD.findall(text.lower()) or [""]
        if kind == "word" and len(words) == 1 and field != "categories":
            terms = [self._quoted(w) for w in self.vocabulary.near(words[0])]
            if last and not field:
                terms.append(self._quoted(words[0]) + "*")
            expression = "(" + " OR ".join(terms) + ")"
        elif kind == "open" or (kind == "phrase" and not field):
            expression = self._quoted(" ".join(words)) + "*"
        else:
            expression = self._quoted(" ".join(words))
        return f"{{{field}}} : {expression}" if field else f"{{title abstract}} : {expression}"

    def search(self, query: str) -> tuple[int, list[str]]:
        parts, expression, pending = atoms(query), "", ""
        for at, (kind, field, text, negative) in enumerate(parts):
            if kind == "or":
                pending = " OR "
                continue
            one = self._atom(kind, field, text, at == len(parts) - 1)
            expression += (" NOT " if negative else pending or (" AND " if expression else "")) + one
            pending = ""
        count = self.db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expression,)).fetchone()[0]
        rows = self.db.execute(
            "SELECT papers.id FROM (SELECT rowid, bm25(fts, ?, 1.0, 1.0, 1.0) AS score FROM fts WHERE fts MATCH ? "
            "ORDER BY score LIMIT ?) AS best JOIN papers ON papers.rowid = best.rowid ORDER BY best.score",
            (TITLE_WEIGHT, expression, ROWS)).fetchall()
        return count, [r[0] for r in rows]


ENGINES = {"tantivy": Tantivy, "fts5": Fts5}
