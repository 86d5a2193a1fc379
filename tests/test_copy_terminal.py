"""Copying from the installed `triage` in a real terminal: OSC 52 into tmux's paste buffer, and `o`."""
from __future__ import annotations

import pytest

from store import cite, read_path
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
        expected = cite.render([papers[1]], "bibtex", cite.citation_keys(papers))
        term.wait_for(lambda s: term.paste_buffer() == expected)
        term.wait_for(lambda s: "BibTeX copied (OSC 52)" in s)
    finally:
        term.kill()


def test_cite_copy_on_the_command_line_reaches_tmux_too(tmp_path, papers):
    key = cite.citation_keys(papers)[papers[2].id]
    term = Tmux(f"{triage_command()} cite {key} --format markdown --copy", env=NO_DISPLAY)
    try:
        term.command("set", "-g", "set-clipboard", "on")
        term.wait_for(lambda s: "EXIT=0" in s)
        assert term.paste_buffer() == cite.markdown(papers[2]) + "\n"
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
