"""The installed `triage` in tmux: `/`, a query with typos, the match on screen, esc back to all."""
from __future__ import annotations

from tests.tmux import Tmux, triage_command


def test_typing_a_query_filters_the_list_in_a_real_terminal(tmp_path):
    term = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'}")
    try:
        term.wait_for(lambda s: "19 shown" in s)
        term.send("j")
        term.wait_for(lambda s: "3d09c6c056" in s)  # the app takes keys: HDGNN's id in the detail pane
        term.send("/")
        term.send("-l", "difusion recovry")  # at once: the keys right after / must reach the query
        screen = term.wait_for(lambda s: "1 of 19" in s)
        assert "CDRL — cooperative diffusion recovery likelihood" in screen
        assert "HDGNN" not in screen
        term.send("Escape")
        screen = term.wait_for(lambda s: "19 shown" in s and "HDGNN" in s)
        assert "1 of 19" not in screen
        term.quit()
    finally:
        term.kill()
