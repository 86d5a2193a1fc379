"""Search: the query language (`query`), the words of many texts found and counted as numbers (`words`), the index
(`index`'s `SearchIndex`, built by `index_build` and `index_made`, kept small by `index_entry`), word lookup with typos (`vocabulary`), literal phrases
(`phrases`, `as_lines`), qualifiers (`qualifiers`), what a match highlights (`highlight`), and the views and
sorts of a list (`views`); and the engine on disk that is to replace the index (`engine`, issue 34: a tantivy
index opened from a folder, not yet wired in). Imports `papers` and `common`."""
