"""Marks beyond one database: sync through a folder other machines write to (`folder`), the portable
file of marks (and of the marked papers' records) it and a backup hold (`marksfile`), backup and restore
(`backup`). Imports `marks`, `library`, `readers`, `papers` and `common`."""
