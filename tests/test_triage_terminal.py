"""The installed `triage` in tmux: a mark made in one run is on screen in the next."""
from __future__ import annotations

from tests.tmux import Tmux, triage_command


def first_row(screen: str) -> str:
    """The list's first row: under the header line, the tab bar and the filter bar."""
    return screen.splitlines()[3]


def test_a_star_and_priority_survive_a_restart(tmp_path, seed_path):
    command = f"{triage_command()} --db {tmp_path / 'db.json'}"
    first = Tmux(command)
    try:
        screen = first.wait_for(lambda s: "19 unread" in s)
        assert "★" not in first_row(screen)
        first.send("s", "2")
        first.wait_for(lambda s: "★2" in first_row(s))
        first.quit()
    finally:
        first.kill()
    second = Tmux(command)
    try:
        screen = second.wait_for(lambda s: "1 ★" in s)
        assert "★2" in first_row(screen)
    finally:
        second.kill()
