"""What to read next: the interest model learnt from the marks (For you, suggested) and more like this
(`ranking`). Imports `search`, `papers` and `common`."""
