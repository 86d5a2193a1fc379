"""Marks beyond one database: sync through a folder other machines write to (`folder`), the portable
file of marks it and a backup hold (`marksfile`), backup and restore (`backup`). Imports `marks`, `readers`,
`papers` and `common`."""
