"""Saved searches with the installed `triage` in tmux: save a query with `M`, clear it, run it with
`'` and its letter (typed at once), and after a restart; `triage list --saved` prints the same papers."""
from __future__ import annotations

import subprocess

from store.search.engine import Engine
from store.readers import read_path
from tests.tmux import Tmux, triage_command


def filter_line(screen: str) -> str:
    """The filter bar's text; '' on a frame without it (a wait goes on waiting rather than failing there)."""
    return next((line for line in screen.splitlines() if line.startswith(" / ")), "").split("  ")[0].strip()


def test_save_a_query_run_it_by_key_and_after_a_restart(tmp_path, seed_path):
    hits = Engine.of(read_path(seed_path).papers).search("llm")
    db = tmp_path / "db.json"
    command = f"{triage_command()} --db {db}"
    first = Tmux(command)
    try:
        first.wait_for(lambda s: "19 of 19 shown" in s)
        first.send("/")
        first.send("-l", "llm")
        first.wait_for(lambda s: f"{len(hits)} of 19" in s)
        first.send("Enter", "M")
        first.wait_for(lambda s: "Save search · llm" in s)
        first.send("-l", "models")  # replaces the name offered
        first.send("Tab", "m", "Enter")
        first.wait_for(lambda s: "Saved 'models' on m" in s)
        first.send("/", "Escape")
        first.wait_for(lambda s: "19 of 19 shown" in s and "/ filter: words" in s)
        first.send("'", "m")  # at once: the letter goes to the picker the quote opens
        first.wait_for(lambda s: filter_line(s) == "/ llm" and f"{len(hits)} of 19 shown" in s
                       and "Saved searches" not in s)  # the picker closed
        first.send("/", "Escape")
        first.wait_for(lambda s: "/ filter: words" in s)
        first.send("'")
        first.wait_for(lambda s: "Saved searches" in s and "m  models" in s and f"{len(hits)}  llm" in s)
        first.send("Escape")
        first.wait_for(lambda s: "Saved searches" not in s)
        first.quit()
    finally:
        first.kill()

    second = Tmux(command)
    try:
        second.wait_for(lambda s: "19 of 19 shown" in s)
        second.send("'", "m")
        second.wait_for(lambda s: filter_line(s) == "/ llm" and f"{len(hits)} of 19 shown" in s)
        second.quit()
    finally:
        second.kill()

    listed = subprocess.run([triage_command(), "list", "--saved", "models", "--db", str(db)], capture_output=True, text=True)
    assert listed.returncode == 0
    assert [line.split()[0] for line in listed.stdout.splitlines()] == [paper.id for paper in hits.papers]
