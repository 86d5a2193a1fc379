"""What to read next: the interest model learnt from the marks (For you, suggested) and more like this
(`ranking`), and the words its reasons may name (`reasons`). Imports `search`, `papers` and `common`."""
