"""What to read next: the interest model learnt from the marks (For you, suggested) and more like this
(`ranking`), over the papers as vectors (`vectors`: a list's own space, other lists' papers projected into it; kept by
`features_cache`; their words counted a block of papers at a time, `counts`, what the blocks make put aside on disk,
`spool`), and the words its reasons may name (`reasons`). Imports `search`, `papers` and `common`."""
