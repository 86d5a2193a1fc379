"""Search: the query language (`query`), the engine that answers it (`engine`: a tantivy index of a list's papers in a
folder of the cache, opened, not loaded), word lookup with typos over its vocabularies (`vocabulary`), what a literal
phrase is (`phrases`), qualifiers (`qualifiers`), what a match highlights (`highlight`), the views and sorts of a list
(`views`), and the words of many texts counted as numbers (`words`: what the interest model's vectors are made of).
Imports `papers` and `common`."""
