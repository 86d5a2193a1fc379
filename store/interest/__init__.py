"""What to read next: the interest model learnt from the marks (For you, suggested) and more like this
(`ranking`), over the papers as vectors (`vectors`: a list's own space, other lists' papers projected into it; kept by
`features_cache`), and the words its reasons may name (`reasons`). Imports `search`, `papers` and `common`."""
