"""What enters from outside is made inert, once: a parsed list and a stored mark.

Every string a list file gives a paper (its text, title, authors, venue, key, links, pdf, keywords,
TL;DR, area, track, DOI, arXiv id, other fields, the name of its file) is made inert as the paper is
made (`store.readers.records.make_paper`, which every reader makes its papers with); here, the list's
header and its warnings, and the note and tags of a stored mark: each loses terminal escape sequences,
control and invisible format characters (`store.papers.inert.inert`). Nothing that reads them later (the app,
the command line, citations, exports, search) need think of it again.

Kept as they are: a paper's id (computed from the text as the file has it, so a mark stays on
its paper), and the list's file paths (`Collection.sources`), which the parse cache and the
session reopen by; wherever they are shown, the output boundaries make them inert (`tui.boundary`)."""
from __future__ import annotations

from dataclasses import replace

from store.papers.inert import inert
from store.papers.model import Collection, Triage


def inert_collection(collection: Collection) -> Collection:
    """A parsed `collection` (its papers inert as made: a record of nothing but control or invisible characters has
    no text left, and is no paper, `store.readers.uniques`) with its header and its warnings inert, in place."""
    collection.header = inert(collection.header)
    collection.venue = inert(collection.venue)
    collection.warnings = [inert(warning) for warning in collection.warnings]
    return collection


def inert_state(state: Triage) -> Triage:
    """A stored mark with its note and tags inert (a note set with `triage set --note $'\\e]52;…'`,
    or by another program writing the database)."""
    note, tags = inert(state.note), tuple(inert(tag) for tag in state.tags)
    return state if (note, tags) == (state.note, state.tags) else replace(state, note=note, tags=tags)
