"""Citations and export: BibTeX, plain text and Markdown citations (`citations`), their keys (`keys`), text as BibTeX values
(`bibtex_values`), RIS and CSL-JSON (`interop`, names split by `persons`), and a set of papers with their marks
written to a file (`export`). Imports `papers` and `common`."""
