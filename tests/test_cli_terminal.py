"""The subcommands of the installed `triage` in a real terminal (tmux): what is left on the screen once they end."""
from __future__ import annotations

import shutil

import pytest

from tests.tmux import Tmux, triage_command


@pytest.fixture
def deep_list(tmp_path, seed_path):
    """The bundled list in a folder whose path is longer than the terminal is wide (as a pipx venv's is)."""
    folder = tmp_path / "a-rather-long-folder-of-paper-lists" / "venvs" / "paper-triage" / "lib" / "python3.12" / "site-packages"
    folder.mkdir(parents=True)
    return shutil.copy(seed_path, folder / "iclr2024.txt")


@pytest.mark.parametrize("command", ["list {path} | head -2", "{path}"], ids=["list", "app"])
def test_no_reading_line_is_left_on_the_terminal_at_80_columns(deep_list, command):
    terminal = Tmux(f"sh -c 'echo START; {triage_command()} {command.format(path=deep_list)}'", width=80, height=24)
    try:
        screen = terminal.wait_for(lambda s: "EXIT=" in s or "19 of 19 shown" in s)
        if "EXIT=" not in screen:  # the app: quit at once
            terminal.quit()
        screen = terminal.wait_for(lambda s: "EXIT=0" in s)
    finally:
        terminal.kill()
    assert "reading" not in screen.split("START", 1)[1], screen
