"""The search engine (issue 34): a tantivy index of a list's papers, kept in a folder of the cache and opened
(memory-mapped), not loaded, or built in memory, answering the project's query language (store.search.query) with
store.search.highlight's `Hits`: `Engine.search(query, states, new, updated)`.

`documents` owns what a paper becomes in the index (its fields and their tokens); `folder` fills an index with
papers and builds an index folder, seals it with a manifest and checks it (a damaged one is built again, never
served); `lexicon` the vocabularies kept beside the index (rapidfuzz's typo lookup runs over them,
store.search.vocabulary; the forms as written a highlight marks) and the values the qualifiers look among;
`translate` turns a parsed query into the engine's query, with the marks of the moment (`is:starred`, notes, tags)
as sets of ids, and gathers what a highlight marks; `engine`'s `Engine` answers a query: every match best first,
ties in file order, literal text the index can only narrow checked on the stored texts.

Where a list's folder lives, and the in-memory engine when the cache cannot be written, is
store.readers.engine_cache's `engine_for`. Imports `papers` and the rest of `search`.
"""
from store.search.engine.engine import Ahead, Engine, Found

__all__ = ["Ahead", "Engine", "Found"]
