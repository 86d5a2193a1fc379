"""What enters from outside is made inert here, once: a parsed list and a stored mark.

Every string a list file gives a paper (its text, title, authors, venue, key, links, pdf, keywords,
TL;DR, area, track, DOI, arXiv id, other fields, the name of its file), the list's header and its warnings, and the note and tags of a
stored mark lose terminal escape sequences, control and invisible format characters
(`store.inert.inert`). Nothing that reads them later (the app, the command line, citations,
exports, search) need think of it again.

Kept as they are: a paper's id (computed from the text as the file has it, so a mark stays on
its paper), and the list's file paths (`Collection.sources`), which the parse cache and the
session reopen by; wherever they are shown, the output boundaries make them inert (`tui.boundary`)."""
from __future__ import annotations

from dataclasses import fields, replace

from store.inert import inert
from store.model import Collection, Paper, Triage, kept_name, kept_plain, kept_title, replaced

_TEXT_FIELDS = tuple(f.name for f in fields(Paper) if f.name != "id")
_KEPT = {"plain": kept_plain, "title": kept_title, "name": kept_name}
"""The fields read as the paper keeps them, nothing worked out: a display text kept as a patch or worked
out when asked is made of the text, inert already; a title or name still to be derived will be derived
from the display text, inert already."""


def _inert_value(value: object) -> object:
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, tuple):
        return tuple(_inert_value(item) for item in value)
    return value


def inert_paper(paper: Paper) -> Paper:
    """`paper` with every string in it inert (itself when there was nothing to remove)."""
    changes = {}
    for name in _TEXT_FIELDS:
        kept = _KEPT.get(name)
        value = kept(paper) if kept is not None else getattr(paper, name)
        if value and value.__class__ is not int:
            clean = _inert_value(value)
            if clean != value:
                changes[name] = clean
    return replaced(paper, **changes) if changes else paper


def inert_collection(collection: Collection) -> Collection:
    """A parsed `collection` with every paper, its header and its warnings inert, in place. A record
    of nothing but control or invisible characters has no text left: it is no paper."""
    papers = [inert_paper(paper) for paper in collection.papers]
    kept = [paper for paper in papers if paper.text or paper.title]
    if len(kept) < len(papers):
        kept = [paper if paper.position == i else replaced(paper, position=i) for i, paper in enumerate(kept)]
    collection.papers = kept
    collection.header = inert(collection.header)
    collection.venue = inert(collection.venue)
    collection.warnings = [inert(warning) for warning in collection.warnings]
    return collection


def inert_state(state: Triage) -> Triage:
    """A stored mark with its note and tags inert (a note set with `triage set --note $'\\e]52;…'`,
    or by another program writing the database)."""
    note, tags = inert(state.note), tuple(inert(tag) for tag in state.tags)
    return state if (note, tags) == (state.note, state.tags) else replace(state, note=note, tags=tags)
