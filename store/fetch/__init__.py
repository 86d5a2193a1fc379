"""Fetch: papers from arXiv, OpenReview, conference sites and URLs, saved as dated files for the readers.

Owns the polite HTTP client (`client`: pacing, timeouts, retries honouring Retry-After, a
User-Agent naming the program), one module per source behind one interface (`source.Source`:
`arxiv` the API, `announced` arXiv's daily RSS feed, `openreview`, `conference` the virtual sites'
program JSON, `url`; `xml_records` reads a feed's records for the first two), and what a fetch leaves (`saved`: the source's raw response,
its pages combined into one file the readers read, written whole or not at all, in the lists
folder beside the database).

A fetch never builds papers itself: the readers read the file it saved, so a fetched list
reopens offline like any other. Imports `readers`, `papers` and `common`."""
