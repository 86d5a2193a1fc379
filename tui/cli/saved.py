"""`triage list --saved NAME`: a search saved in the app (store.marks.saved) as the command's query."""
from __future__ import annotations

import sys
from pathlib import Path

from store.marks import saved
from store.marks.db import TriageStore
from store.papers.inert import inert
from tui.cli.common import Refused


def saved_query(db: Path, name: str, query: str | None) -> str:
    """The query of the saved search `name` in database `db`; Refused (exit 2) when `query` (a
    --query) is given too, or when no search has that name (the names saved are listed). Stored
    entries that were skipped are said on stderr, one line each."""
    if query is not None:
        raise Refused("give --saved NAME or --query Q, not both")
    store = TriageStore(db)
    try:
        for notice in store.notices:
            print(f"triage: {notice}", file=sys.stderr)
        searches = saved.load(store)
    finally:
        store.close()
    for notice in searches.notices:
        print(f"triage: {notice}", file=sys.stderr)
    search = searches.named(name)
    if search is None:
        names = ", ".join(inert(repr(s.name)) for s in searches)
        saved_ones = f"saved: {names}" if names else "none is saved yet (in the app, M saves the query)"
        raise Refused(f"no saved search {inert(repr(name))} in {db}; {saved_ones}")
    return search.query
