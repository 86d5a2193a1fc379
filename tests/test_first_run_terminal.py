"""The installed `triage` run for the first time, in tmux at 80x24: the bundled list says what it is, a hint
line names the five keys a new user needs until esc hides it for good, and the filter's placeholder is whole."""
from __future__ import annotations

from tests.tmux import Tmux, triage_command
from tui.widgets.filter_bar import PLACEHOLDER

HINT = ("space read+next", "s star", "d not for me", "/ filter", "? all keys", "esc hides this")


def test_first_run_says_what_the_sample_is_names_five_keys_and_esc_hides_them_for_good(tmp_path):
    command = f"{triage_command()} --db {tmp_path / 'db.json'}"
    first = Tmux(command, width=80, height=24, env={"TRIAGE_NO_HINTS": ""})
    try:
        screen = first.wait_for(lambda s: "19 unread" in s and "esc hides this" in s)
        words = " ".join(screen.split())
        assert "A 19-paper sample of ICLR 2024." in words and all(key in words for key in HINT)
        assert PLACEHOLDER in screen  # not cut at 80 columns
        first.send("Escape")
        first.wait_for(lambda s: "esc hides this" not in s)
        first.quit()
    finally:
        first.kill()
    second = Tmux(command, width=120, height=40, env={"TRIAGE_NO_HINTS": ""})
    try:
        second.wait_for(lambda s: "19 unread" in s and "ICLR 2024 sample · 19 of 19 shown" in s)  # the header says it too
        assert "esc hides this" not in second.wait_for(lambda s: "^p palette" in s)
        second.quit()
    finally:
        second.kill()
