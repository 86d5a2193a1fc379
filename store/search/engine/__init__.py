"""The search engine on disk (issue 34): a tantivy index of a list's papers, kept in a folder of the cache,
opened (memory-mapped), not loaded, answering the project's query language (store.search.query).

`documents` owns what a paper becomes in the index (its fields and their tokens); `folder` builds an index
folder, seals it with a manifest and checks it (a damaged one is built again, never served); `lexicon` the
vocabularies kept beside the index (rapidfuzz's typo lookup runs over them, store.search.vocabulary) and the
values the qualifiers look among; `translate` turns a parsed query into the engine's query, with the marks of
the moment (`is:starred`, notes, tags) as sets of ids; `engine`'s `Engine` answers a query: rows best first,
literal text the index can only narrow checked on the stored texts.

Where a list's folder lives is store.readers.engine_cache's. Not wired into the app or the CLI yet:
store.search.index's SearchIndex still answers there. Imports `papers` and the rest of `search`.
"""
from store.search.engine.engine import Engine, Found

__all__ = ["Engine", "Found"]
