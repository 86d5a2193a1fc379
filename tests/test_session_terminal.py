"""A whole triage session with the installed `triage` in tmux, then a restart: everything is back."""
from __future__ import annotations

from store.search.engine import Engine
from store.readers import read_path
from tests.tmux import Tmux, triage_command

NO_DISPLAY = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}  # pyperclip finds no backend: the copy goes by OSC 52


def words(screen: str) -> str:
    return " ".join(screen.split())


def test_filter_star_prioritise_note_copy_quit_and_it_all_comes_back(tmp_path, seed_path):
    papers = read_path(seed_path).papers
    hits = Engine.of(papers).search("language")
    chosen = hits.papers[1]  # the second best match
    command = f"{triage_command()} --db {tmp_path / 'db.json'}"
    first = Tmux(command, env=NO_DISPLAY)
    try:
        first.command("set", "-g", "set-clipboard", "on")
        first.wait_for(lambda s: "19 of 19 shown" in s)
        first.send("/", "language")
        first.wait_for(lambda s: "sorted by match score" in s and " of 19" in s.splitlines()[2])
        first.send("Enter")
        first.wait_for(lambda s: "⏎ Read" in s)  # the list's key is in the footer: the list has the focus
        first.send("j")
        first.wait_for(lambda s: chosen.title[:40] in words(s))
        first.send("s", "2")
        first.wait_for(lambda s: "1 ★ · 1 prioritised" in s)
        first.send("e")
        first.wait_for(lambda s: "ctrl+s save" in s)
        first.send("compare with KoLA")
        first.wait_for(lambda s: "compare with KoLA" in s)  # typed into the editor before ctrl+s saves it
        first.send("C-s")
        first.wait_for(lambda s: "Note: compare with KoLA" in s)
        first.send("c")
        first.wait_for(lambda s: "BibTeX copied" in s and first.paste_buffer().startswith("@inproceedings{"))
        first.quit()
    finally:
        first.kill()

    second = Tmux(command)
    try:
        # The whole of it waited for: a screen read mid-frame can have the new header above the old rows.
        screen = second.wait_for(lambda s: "Note: compare with KoLA" in s and f"{len(hits)} of 19 shown" in s
                                 and "/ language" in words(s.splitlines()[2])  # the query is back in the filter bar
                                 and "sorted by match score" in s
                                 and chosen.title[:40] in words(s)  # the paper under the cursor is shown in full
                                 and "★ starred · priority 2" in s and "1 ★ · 1 prioritised" in s)
        row = next(line for line in screen.splitlines() if "★2" in line)
        assert chosen.title[:20] in row  # its row carries the marks
    finally:
        second.kill()
