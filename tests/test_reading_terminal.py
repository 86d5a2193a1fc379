"""Reading the ICLR list in a real terminal (tmux), scrolled well past its first screen, in the dark and
the light theme: each row shows its title and its first author, at 120x40 (side by side) and at 80x24
(stacked), and at 120 columns the footer names the keys that change the list's width."""
from __future__ import annotations

import pytest

from store.marks.db import TriageStore
from store.papers.text import title_display
from store.readers import read_path
from store.search.views import surname
from tests.tmux import Tmux, triage_command


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("width,height", [(120, 40), (80, 24)])
def test_a_scrolled_iclr_list_shows_each_title_with_its_first_author(tmp_path, corpora, theme, width, height):
    path = corpora / "iclr-2024-papers.jsonl"
    by_title = {title_display(p.title).plain[:30]: p for p in read_path(path).papers if p.authors}
    db = tmp_path / "db.json"
    store = TriageStore(str(db))
    store.put_setting("theme", {"name": theme})
    store.close()
    term = Tmux(f"{triage_command()} --db {db} {path}", width=width, height=height)
    try:
        term.wait_for(lambda s: "2260 unread" in s and "^p palette" in s)
        term.send("C-f", "C-f", "C-f")
        screen = term.wait_for(lambda s: "Breaking Physical" not in s.splitlines()[3])  # scrolled
        rows = [(line, by_title[line[5:35]]) for line in screen.splitlines()[3:] if line[5:35] in by_title]  # (after the marks)
        assert len(rows) >= (30 if height == 40 else 6), screen
        for line, paper in rows:
            row = line.split("▕")[0]  # the list's part of the line (side by side, the detail pane follows)
            assert title_display(paper.title).plain[:44] in row, line  # titles as long as before (cut at ~48)
            assert surname(paper.authors[0])[:13] in row, line  # the first author: no author column before
        if width == 120:
            assert "< > z" in screen.splitlines()[-1]
        term.quit()
    finally:
        term.kill()
