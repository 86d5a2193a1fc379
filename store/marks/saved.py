"""Saved searches: queries kept under a name and a letter, in the triage database beside the session.

Owns the settings document `KEY`, `{"searches": {NAME: {"query": QUERY, "letter": LETTER}}}`:
reading it (each entry is checked; a bad one is skipped with a notice, never an error), and saving
or forgetting one search as a read-modify-write under the database lock, so what another window
saved meanwhile is kept, and entries this version cannot read are left as they are.

Saved searches are global, not per source list as the session is: a query (`is:starred has:code`,
`diffusion -video`) means the same over any list, and one saved over ICLR should run over ICML.
"""
from __future__ import annotations

import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from store.marks.db import TriageStore
from store.papers.inert import inert

KEY = "saved searches"
LETTERS = string.ascii_lowercase
"""The letters a saved search can be on (`'` then the letter runs it)."""


@dataclass(frozen=True)
class SavedSearch:
    name: str
    query: str
    letter: str


@dataclass(frozen=True)
class SavedSearches:
    """The saved searches that could be read, in letter order, and what was skipped (one notice each)."""

    searches: tuple[SavedSearch, ...] = ()
    notices: tuple[str, ...] = ()
    doc: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """The stored document they were read from (with the entries that were skipped)."""

    def __iter__(self) -> Iterator[SavedSearch]:
        return iter(self.searches)

    def __len__(self) -> int:
        return len(self.searches)

    def named(self, name: str) -> SavedSearch | None:
        return next((search for search in self.searches if search.name == name), None)

    def on(self, letter: str) -> SavedSearch | None:
        return next((search for search in self.searches if search.letter == letter), None)

    def of_query(self, query: str) -> SavedSearch | None:
        """The search saved for this query text (the first by letter), if any."""
        return next((search for search in self.searches if search.query == query.strip()), None)

    def changed(self, change: Change) -> SavedSearches:
        """These searches with `change` made (as the store will once the change is written)."""
        return read(change(self.doc))

    def free_letter(self) -> str | None:
        """The first letter no search is on (None when all 26 are taken)."""
        taken = {search.letter for search in self.searches}
        return next((letter for letter in LETTERS if letter not in taken), None)


def problem(name: str, query: str, letter: str) -> str:
    """What is wrong with saving `query` as `name` on `letter` ("" when nothing is)."""
    if not query.strip():
        return "the query is empty"
    if not name.strip():
        return "a saved search needs a name"
    if inert(name) != name or inert(query) != query or "\n" in name + query or "\t" in name:
        return "control characters cannot be saved"
    if len(letter) != 1 or letter not in LETTERS:
        return "the letter must be one of a–z"
    return ""


Change = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A change of the stored document (see `saving`, `forgetting`)."""


def read(doc: Mapping[str, Any]) -> SavedSearches:
    """The saved searches of a settings document; each entry that is not a name with a query and a
    free letter is skipped with a notice."""
    entries = doc.get("searches", {})
    if not isinstance(entries, Mapping):
        return SavedSearches((), ("Saved searches skipped: the stored document is not a list of searches",), doc)
    searches: dict[str, SavedSearch] = {}
    notices = []
    for name, entry in entries.items():
        shown = inert(repr(name))
        query = entry.get("query") if isinstance(entry, Mapping) else None
        letter = entry.get("letter") if isinstance(entry, Mapping) else None
        wrong = (
            "it is not a query with a letter" if not isinstance(query, str) or not isinstance(letter, str)
            else problem(name, query, letter)
        )
        if not wrong and letter in searches:
            wrong = f"its letter {letter} is {searches[letter].name!r}'s"
        if wrong:
            notices.append(f"Saved search {shown} skipped: {wrong}")
        else:
            searches[letter] = SavedSearch(name, query.strip(), letter)
    return SavedSearches(tuple(searches[letter] for letter in sorted(searches)), tuple(notices), doc)


def load(store: TriageStore) -> SavedSearches:
    return read(store.setting(KEY))


def saving(name: str, query: str, letter: str) -> Change:
    """The change that saves `query` as `name` on `letter`: it replaces the search of that name and
    the one on that letter. Raises ValueError (saying why) when `problem` finds one."""
    wrong = problem(name, query, letter)
    if wrong:
        raise ValueError(wrong)
    name = name.strip()

    def change(doc: Mapping[str, Any]) -> dict[str, Any]:
        entries = doc.get("searches")
        entries = dict(entries) if isinstance(entries, Mapping) else {}
        for other, entry in list(entries.items()):
            if other == name or (isinstance(entry, Mapping) and entry.get("letter") == letter):
                del entries[other]
        return {**doc, "searches": {**entries, name: {"query": query.strip(), "letter": letter}}}

    return change


def forgetting(name: str) -> Change:
    """The change that deletes the saved search `name` (none: nothing changes)."""

    def change(doc: Mapping[str, Any]) -> dict[str, Any]:
        entries = doc.get("searches")
        if not isinstance(entries, Mapping) or name not in entries:
            return dict(doc)
        return {**doc, "searches": {other: entry for other, entry in entries.items() if other != name}}

    return change


def apply(store: TriageStore, change: Change) -> SavedSearches:
    """Apply `change` (`saving`, `forgetting`) to the stored searches under the database lock, so what
    another process saved meanwhile is kept; the saved searches now."""
    return read(store.update_setting(KEY, change))
