"""Keys typed ahead in the installed `triage` (tmux), as a fast typist sends them: none is lost or
misapplied, whatever the app was still doing when they came."""
from __future__ import annotations

import json
import os
import subprocess

from tests.tmux import Tmux, triage_command


def stored_notes(db: str) -> list[str]:
    """The notes the database keeps, as `triage list` prints them."""
    out = subprocess.run([triage_command(), "list", "--db", db, "--format", "jsonl"],
                         capture_output=True, text=True, check=True, env=os.environ).stdout
    return [row["note"] for row in map(json.loads, out.splitlines()) if row["note"]]


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
    assert stored_notes(db) == [text]
