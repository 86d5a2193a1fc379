"""The papers the marks are on: each marked paper's record (title, authors, venue, year, track, keywords,
area, TL;DR, links, its ids and its abstract) as a plain JSON object (`record`), and the compressed,
append-only file beside the database that keeps them (`shelf`), written under the database's lock by
`store.marks.db.TriageStore` whenever a paper gets a mark or a marked paper is seen with a richer record;
what is new (`seen`): when each paper was first seen and each list last opened, `<database>.seen` and its
identities `<database>.seen.first` (`seen_files`); and one paper across sources (`identity`): which papers of
different lists are the same marked paper, and which version is later, by the keys of the records kept, cached
frame by frame of the file (`keys_cache`).
Imports `papers` and `common`."""
