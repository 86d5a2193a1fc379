"""The installed `triage` in tmux, at a scrolled position: a row shows its marks the moment they change,
and a reopened list shows the restored paper's row, highlighted."""
from __future__ import annotations

import re

from store.readers import read_path
from tests.tmux import Tmux, triage_command


def row_of(screen: str, title: str) -> str | None:
    """The list row whose title starts with `title` (the selection or bucket column and the marks before it),
    None when not on screen."""
    for line in screen.splitlines():
        match = re.match(r"^[ ▌↑·↓]([•✗ ])([★ ])([0-5 ]) (.*)$", line)  # ▌ selected; ↑·↓ For-you buckets
        if match and match.group(4).startswith(title):
            return line
    return None


def marks(screen: str, title: str) -> str | None:
    """The marks column of `title`'s row: unread bullet (or ✗, not for me), star, priority digit ('•★2', '✗★ ', …)."""
    row = row_of(screen, title)
    return row[1:4] if row is not None else None


def background(line: str) -> str | None:
    """The first background colour an SGR sequence on a coloured screen line sets."""
    match = re.search(r"\x1b\[[0-9;]*48;5;(\d+)", line)
    return match.group(1) if match else None


def highlighted(tmux: Tmux, title: str) -> bool:
    """Whether `title`'s row is on screen with a background unlike the other rows' (the cursor)."""
    lines = tmux.coloured_screen().splitlines()
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines]
    rows = [i for i, line in enumerate(plain) if row_of(line, "") is not None]
    mine = [i for i in rows if row_of(plain[i], title) is not None]
    others = {background(lines[i]) for i in rows if i not in mine}
    return len(mine) == 1 and background(lines[mine[0]]) not in others


def reopen_where_it_was(tmp_path, args: str, keys: list[str], title: str, **size: int) -> None:
    """Move with `keys`, quit, open the same list again: `title`'s row is on screen and highlighted, and
    `space` marks that paper."""
    command = f"{triage_command()} --db {tmp_path / 'db.json'} {args}"
    first = Tmux(command, **size)
    try:
        first.wait_for(lambda s: " unread" in s)
        first.send(*keys)
        first.wait_for(lambda s: row_of(s, title) is not None and highlighted(first, title))
        first.quit()
    finally:
        first.kill()
    second = Tmux(command, **size)
    try:
        second.wait_for(lambda s: row_of(s, title) is not None and highlighted(second, title))
        second.send("Space")
        second.wait_for(lambda s: marks(s, title) == "   ")
    finally:
        second.kill()


def test_a_reopened_list_shows_the_restored_row_highlighted(tmp_path, seed_path):
    """80x24: the 11th paper, below the first screenful of the stacked list."""
    reopen_where_it_was(tmp_path, "", ["j"] * 10, "FairTune", width=80, height=24)


def test_a_reopened_long_list_shows_the_restored_row_highlighted(tmp_path, corpora):
    """120x40 on the ICLR list: 20 pages down."""
    corpus = corpora / "iclr-2024-abstracts.txt"
    title = read_path(corpus).papers[20 * 35].title[:30]  # ctrl+f moves the cursor a page of 35 rows
    reopen_where_it_was(tmp_path, str(corpus), ["C-f"] * 20, title)


def test_marks_show_at_once_on_a_scrolled_row_of_the_stacked_list(tmp_path, seed_path):
    """80x24 (the list above the abstract, 8 rows of it): the 11th paper is below the first screenful."""
    tmux = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'}", width=80, height=24)
    try:
        tmux.wait_for(lambda s: "19 unread" in s)
        assert row_of(tmux.screen(), "FairTune") is None  # not on the first screenful
        tmux.send(*["j"] * 10)
        tmux.wait_for(lambda s: marks(s, "FairTune") == "•  ")
        tmux.send("s", "2")
        tmux.wait_for(lambda s: "1 ★ · 1 prioritised" in s and marks(s, "FairTune") == "•★2")
        tmux.send("r")
        tmux.wait_for(lambda s: marks(s, "FairTune") == " ★2")
        tmux.send("0")
        tmux.wait_for(lambda s: marks(s, "FairTune") == " ★ ")
        tmux.send("4")
        tmux.wait_for(lambda s: marks(s, "FairTune") == " ★4")
        tmux.send("u", "u")
        tmux.wait_for(lambda s: marks(s, "FairTune") == " ★2")
        tmux.send("k", "s")  # the row above, still below the first screenful
        tmux.wait_for(lambda s: marks(s, "RASP-Generalization") == "•★ " and marks(s, "FairTune") == " ★2")
        tmux.send("R")
        tmux.wait_for(lambda s: "Mark 18 unread" in s)
        tmux.send("y")
        tmux.wait_for(lambda s: "0 unread" in s and marks(s, "RASP-Generalization") == " ★ ")
        assert marks(tmux.screen(), "FairTune") == " ★2"
    finally:
        tmux.kill()


def test_not_for_me_shows_at_once_on_a_scrolled_row_and_after_a_restart(tmp_path, seed_path):
    """80x24: `d` on the 11th paper, below the first screenful of the stacked list; then the next one."""
    command = f"{triage_command()} --db {tmp_path / 'db.json'}"
    tmux = Tmux(command, width=80, height=24)
    try:
        tmux.wait_for(lambda s: "19 unread" in s)
        assert row_of(tmux.screen(), "FairTune") is None  # not on the first screenful
        tmux.send(*["j"] * 10, "s", "d")
        tmux.wait_for(lambda s: marks(s, "FairTune") == "✗★ " and "18 unread" in s and "not for me" not in s)
        tmux.send("k")  # back on it: the detail pane says so
        tmux.wait_for(lambda s: "not for me · ★ starred" in [line.strip() for line in s.splitlines()])
        tmux.quit()
    finally:
        tmux.kill()
    again = Tmux(command, width=80, height=24)
    try:
        again.wait_for(lambda s: marks(s, "FairTune") == "✗★ " and "18 unread" in s and highlighted(again, "FairTune"))
        again.send("d")  # takes it off
        again.wait_for(lambda s: marks(s, "FairTune") == "•★ " and "19 unread" in s)
    finally:
        again.kill()


def test_marks_show_at_once_far_down_a_long_list(tmp_path, corpora):
    """120x40 on the 2,260-paper ICLR list: the last paper, and one a thousand rows above it."""
    corpus = corpora / "iclr-2024-abstracts.txt"
    papers = read_path(corpus).papers
    last, middle = papers[-1].title[:30], papers[-1 - 30 * 35].title[:30]  # ctrl+b ×30: 30 pages of 35 rows up
    tmux = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'} {corpus}")
    try:
        tmux.wait_for(lambda s: "2260 unread" in s)
        tmux.send("G")
        tmux.wait_for(lambda s: marks(s, last) == "•  ")
        tmux.send("s", "3")
        tmux.wait_for(lambda s: "1 ★" in s and marks(s, last) == "•★3")
        tmux.send(*["C-b"] * 30)
        tmux.wait_for(lambda s: marks(s, middle) == "•  " and marks(s, last) is None)
        tmux.send("r", "1")
        tmux.wait_for(lambda s: "2259 unread" in s and marks(s, middle) == "  1")
        tmux.send("u")  # undoes the priority
        tmux.wait_for(lambda s: "2259 unread" in s and marks(s, middle) == "   ")
        tmux.send("u")  # and the read mark
        tmux.wait_for(lambda s: "2260 unread" in s and marks(s, middle) == "•  ")
    finally:
        tmux.kill()
