"""The installed `triage` in tmux: three papers selected with `;` at a scrolled position of the stacked
list, starred with one `s`; the stars are there after a restart (the selection is not: it lasts a session)."""
from __future__ import annotations

from store.readers import read_path
from tests.test_rows_terminal import marks, row_of
from tests.tmux import Tmux, triage_command

SELECT = "\\;"  # `;` alone ends a tmux command


def selected(screen: str, title: str) -> bool:
    row = row_of(screen, title)
    return row is not None and row.startswith("▌")


def test_select_three_then_star_them_at_once_and_they_stay_starred(tmp_path, seed_path):
    titles = [paper.title[:20] for paper in read_path(seed_path).papers[10:13]]
    command = f"{triage_command()} --db {tmp_path / 'db.json'}"
    tmux = Tmux(command, width=80, height=24)
    try:
        tmux.wait_for(lambda s: "19 unread" in s)
        assert row_of(tmux.screen(), titles[0]) is None  # below the first screenful
        tmux.send(*["j"] * 10, SELECT, SELECT, SELECT)
        tmux.wait_for(lambda s: "3 selected" in s and all(selected(s, t) for t in titles))
        tmux.send("s")
        tmux.wait_for(lambda s: "Starred 3 papers" in s and "3 ★" in s and all(marks(s, t) == "•★ " for t in titles))
        tmux.send("Escape")
        tmux.wait_for(lambda s: "selected" not in s and not any(selected(s, t) for t in titles))
        tmux.quit()
    finally:
        tmux.kill()
    again = Tmux(command, width=80, height=24)
    try:
        again.wait_for(lambda s: "3 ★" in s and all(marks(s, t) == "•★ " for t in titles))
        assert "selected" not in again.screen()
    finally:
        again.kill()
