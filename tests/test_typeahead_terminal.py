"""Keys typed ahead in the installed `triage` (tmux), as a fast typist sends them: none is lost or
misapplied, whatever the app was still doing when they came."""
from __future__ import annotations

import json
import os
import subprocess

from store import read_path
from tests.tmux import Tmux, triage_command


def stored(db: str) -> list[dict]:
    """The papers with their marks as the database keeps them, as `triage list` prints them."""
    out = subprocess.run([triage_command(), "list", "--db", db, "--format", "jsonl"],
                         capture_output=True, text=True, check=True, env=os.environ).stdout
    return [json.loads(line) for line in out.splitlines()]


def starred(db: str) -> list[str]:
    return [row["id"] for row in stored(db) if row["starred"]]


def test_keys_typed_while_the_app_starts_take_effect(tmp_path, seed_path):
    second = read_path(seed_path).papers[1]
    db = str(tmp_path / "db.json")
    term = Tmux(f"{triage_command()} --db {db}")
    try:
        term.send("j", "s", "Enter")  # at once, as `triage` starts: one down, star it, read it
        term.wait_for(lambda s: "1 ★" in s and "h/esc List" in s)  # the footer offers the way back to the list
        term.quit()
    finally:
        term.kill()
    assert starred(db) == [second.id]


def test_ctrl_s_right_after_a_paste_saves_the_whole_paste(tmp_path):
    db = str(tmp_path / "db.json")
    text = "\n".join(f"line {n}: compare with KoLA and LLM-KICK" for n in range(4))
    (tmp_path / "paste.txt").write_text(text)
    term = Tmux(f"{triage_command()} --db {db}")
    try:
        term.wait_for(lambda s: "19 shown" in s)
        term.send("e")
        term.wait_for(lambda s: "ctrl+s save" in s)
        term.command("load-buffer", str(tmp_path / "paste.txt"))
        # one tmux command line: the bracketed paste, then ctrl+s at once
        term.command("paste-buffer", "-p", "-r", "-t", "t", ";", "send-keys", "-t", "t", "C-s")
        term.wait_for(lambda s: "ctrl+s save" not in s)
        term.quit()
    finally:
        term.kill()
    assert [row["note"] for row in stored(db) if row["note"]] == [text]
