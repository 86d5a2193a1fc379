"""What a paper is: `Paper`, `Collection` and `Triage` (`model`), a paper's identity (its id, the
fingerprint that finds its marks again, what a list's papers are matched by across sources: `matching`), its text
for display and search (`text`, `latex`, kept as less than a string: `patch`, `packed`), a reopened list's papers
made a chunk at a time as they are asked for (`chunked`), its derived title
(`names`, `name_candidates`, `acronyms`), which words of a title a citation braces (`title_case`), and what makes
text from outside inert (`inert`, `boundary`). Imports only `common`."""
