r"""Everything that works without a terminal, in wings: each a package whose docstring says what it owns
and which wings it may import. No module here imports textual, rich or tui (tests/test_import_hygiene.py),
and the arrows point one way (tests/test_import_contract.py):

    interest  fetch   sync   cite   For you, more like this; sources saved as dated lists; marks shared
        \      /        |      |     and backed up; citations and export
        readers         |      |    files of any format → papers
           |            |      |
        search        marks    |    the query language and the index; the database of marks
           |            |      |
           |         library   |    the papers the marks are on: their records, kept compressed beside the marks
            \          |      /
                  papers            what a paper is: its text, its title, its identity, inert text
                    |
                  common            plumbing every wing may use: errors, files written whole, work run ahead

A wing imports only the wings below it along the lines of the drawing: `interest` may import `readers`,
`search`, `papers` and `common`; `fetch` may import `readers`, `papers` and `common`; `sync` may import
`marks`, `library`, `papers` and `common`; `marks` may import `library`, which imports `papers` and `common`. The table is `tests/test_import_contract.py`'s `MAY_IMPORT`. This package
itself imports nothing: import each name from the module that defines it.
"""
