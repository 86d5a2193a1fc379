"""Where and when a paper is presented, and how arXiv announced it: record fields the readers keep in
`Paper.fields` under these names (a conference site's events: `store.readers.conference`; arXiv's
daily feed: `store.readers.rss`), read here for the detail pane, the `session:` and `announce:`
qualifiers and the sort by session time.

- `session` ('Poster Session 2'), `time` and `end` (ISO 8601 in the venue's time, as the site gives
  them: '2024-05-07T16:30:00+02:00'), `room` ('Halle B'), `board` (the poster's place: '#123').
- `also session`, `also time`...: the paper's other slot (an oral paper's poster, a poster's oral talk).
- `announce`: arXiv's announce type, `new`, `cross` (a cross-list), `replace` or `replace-cross`."""
from __future__ import annotations

from datetime import datetime

from store.papers.model import Paper

SLOT = ("session", "time", "end", "room", "board")
ALSO = tuple(f"also {name}" for name in SLOT)
ANNOUNCE = "announce"


def _named(paper: Paper, names: tuple[str, ...]) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in paper.fields:
        if name in names and value.strip():
            found.setdefault(name, " ".join(value.split()))
    return found


def _when(stamp: str) -> datetime | None:
    try:
        return datetime.fromisoformat(stamp)
    except ValueError:
        return None


def slot(paper: Paper, also: bool = False) -> str:
    """`Poster Session 2 · Tue 7 May 16:30–18:30 · Halle B · board #2` (the parts the record has); ''.
    `also`: the paper's other slot."""
    found = {name.removeprefix("also "): value for name, value in _named(paper, ALSO if also else SLOT).items()}
    if not found:
        return ""
    start, end = _when(found.get("time", "")), _when(found.get("end", ""))
    when = found.get("time", "")
    if start is not None:
        when = f"{start:%a} {start.day} {start:%b %H:%M}"
        if end is not None and end.date() == start.date():
            when += f"–{end:%H:%M}"
    board = found.get("board", "")
    parts = (found.get("session", ""), when, found.get("room", ""), board and f"board {board}")
    return " · ".join(part for part in parts if part)


def slot_words(paper: Paper) -> str:
    """What `session:` looks in, lower-case: both slots as shown, and their days as `2024-05-07 tuesday may`; ''."""
    words = [slot(paper), slot(paper, also=True)]
    for name, stamp in _named(paper, ("time", "also time")).items():
        start = _when(stamp)
        words += [f"{start:%Y-%m-%d %A %B}"] if start else []
    return " · ".join(word for word in words if word).casefold()


def slot_order(paper: Paper) -> tuple[str, str, str]:
    """The sort key of a plan of the days: the session's start (as written: one venue, one offset),
    its name, its board; papers without a slot last."""
    found = _named(paper, SLOT)
    if not found:
        return ("\U0010ffff", "", "")
    return (found.get("time", "\U0010ffff"), found.get("session", ""), found.get("board", "").lstrip("#").zfill(8))


def announced(paper: Paper) -> str:
    """The paper's arXiv announce type (`new`, `cross`, `replace`, `replace-cross`), lower-case; ''."""
    return _named(paper, (ANNOUNCE,)).get(ANNOUNCE, "").casefold()
