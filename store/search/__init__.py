"""Search: the query language (`query`), the index (`index`'s `SearchIndex`, built by `index_build` and
`index_made`, kept small by `index_entry`), word lookup with typos (`vocabulary`), literal phrases
(`phrases`, `as_lines`), qualifiers (`qualifiers`), what a match highlights (`highlight`), and the views and
sorts of a list (`views`). Imports `papers` and `common`."""
