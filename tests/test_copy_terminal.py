"""Copying from the installed `triage` in a real terminal: OSC 52 into tmux's paste buffer, and `o`."""
from __future__ import annotations

import pytest

from store.cite import citations as cite
from store.cite.keys import citation_keys
from store.readers import read_path
from tests.tmux import Tmux, triage_command

NO_DISPLAY = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}  # so pyperclip finds no backend: the OSC 52 path


@pytest.fixture
def papers(seed_path):
    return read_path(seed_path).papers


def test_c_in_the_app_puts_bibtex_in_tmux_paste_buffer(tmp_path, papers):
    term = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'}", env=NO_DISPLAY)
    try:
        term.command("set", "-g", "set-clipboard", "on")
        term.wait_for(lambda s: "ICLR 2024" in s)
        term.send("j")
        term.send("c")
        expected = cite.render([papers[1]], "bibtex", citation_keys(papers))
        term.wait_for(lambda s: term.paste_buffer() == expected)
        term.wait_for(lambda s: "BibTeX copied (OSC 52)" in s)
    finally:
        term.kill()


def after_enter(command: str) -> str:
    """`command` started once enter is pressed, so that a tmux option can be set before it runs."""
    return f"sh -c 'read go && exec {command}'"


def test_cite_copy_on_the_command_line_reaches_tmux_too(tmp_path, papers):
    key = citation_keys(papers)[papers[2].id]
    term = Tmux(after_enter(f"{triage_command()} cite {key} --format markdown --copy"), env=NO_DISPLAY)
    try:
        term.command("set", "-g", "set-clipboard", "on")
        term.send("Enter")
        term.wait_for(lambda s: "EXIT=0" in s)
        assert term.paste_buffer() == cite.markdown(papers[2]) + "\n"
    finally:
        term.kill()


def toast_text(screen: str) -> str:
    """The words of the notification (the lines' parts right of its "▌" edge, less the detail pane's
    scrollbar at the screen's edge), joined."""
    return " ".join(" ".join(line.rpartition("▌")[2].rstrip(" ▁▂▃▄▅▆▇█") for line in screen.splitlines() if "▌" in line).split())


@pytest.mark.parametrize("setting", ["external", "off"])
def test_c_in_a_tmux_that_drops_osc52_says_how_to_turn_it_on(tmp_path, setting):
    """tmux's default `external` (like `off`) ignores OSC 52 from programs: "copied" would be a lie."""
    term = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'}", env=NO_DISPLAY)
    try:
        term.command("set", "-g", "set-clipboard", setting)
        term.wait_for(lambda s: "ICLR 2024" in s)
        term.send("c")
        toast = toast_text(term.wait_for(lambda s: "set-clipboard on`" in toast_text(s) or "copied (" in s))
        assert toast == (
            f"Not copied: tmux's set-clipboard is {setting}, so tmux drops OSC 52 from programs;"
            " run `tmux set -g set-clipboard on`"
        )
        assert term.paste_buffer() == ""
    finally:
        term.kill()


def test_cite_copy_in_a_default_tmux_is_exit_2_with_how_to_turn_it_on(papers):
    term = Tmux(after_enter(f"{triage_command()} cite {papers[2].id} --format id --copy"), env=NO_DISPLAY)
    try:
        term.command("set", "-g", "set-clipboard", "external")
        term.send("Enter")
        screen = term.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=2" in screen and papers[2].id in screen
        assert "triage: not copied: tmux's set-clipboard is external" in " ".join(screen.split())
        assert term.paste_buffer() == ""
    finally:
        term.kill()


def test_o_opens_the_first_link_in_the_browser(tmp_path, papers):
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\nprintf %s "$1" > {opened}\n')
    browser.chmod(0o755)
    term = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'}", env={**NO_DISPLAY, "BROWSER": str(browser)})
    try:
        term.wait_for(lambda s: "ICLR 2024" in s)
        term.send("j")
        term.send("o")
        term.wait_for(lambda s: opened.exists() and opened.read_text() == "https://github.com/ajy112/HDGNN")
    finally:
        term.kill()
