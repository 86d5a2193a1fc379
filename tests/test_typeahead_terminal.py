"""Keys typed ahead in the installed `triage` (tmux), as a fast typist sends them: none is lost or
misapplied, whatever the app was still doing when they came."""
from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

from store.search.engine import Engine
from store.readers import read_path
from tests.tmux import Tmux, triage_command


@contextmanager
def triage(db: str) -> Iterator[Tmux]:
    """The installed app on database `db` in tmux, quit at the end of the block."""
    term = Tmux(f"{triage_command()} --db {db}")
    try:
        yield term
        term.quit()
    finally:
        term.kill()


def stored(db: str) -> list[dict]:
    """The papers with their marks as the database keeps them, as `triage list` prints them."""
    out = subprocess.run([triage_command(), "list", "--db", db, "--format", "jsonl"],
                         capture_output=True, text=True, check=True, env=os.environ).stdout
    return [json.loads(line) for line in out.splitlines()]


def starred(db: str) -> list[str]:
    return [row["id"] for row in stored(db) if row["starred"]]


def query_then(term: Tmux, query: str, *keys: str) -> None:
    """Type `/`, the query, then the keys, at once: no wait for anything on the screen."""
    term.send("/")
    term.send("-l", query)
    term.send(*keys)


def test_keys_typed_while_the_app_starts_take_effect(tmp_path, seed_path):
    db = str(tmp_path / "db.json")
    with triage(db) as term:
        term.send("j", "s", "Enter")  # at once, as `triage` starts: one down, star it, read it
        term.wait_for(lambda s: "1 ★" in s and "h/esc List" in s)  # the footer offers the way back to the list
    assert starred(db) == [read_path(seed_path).papers[1].id]


def test_a_query_and_keys_for_its_results_typed_while_the_app_starts(tmp_path, seed_path):
    db = str(tmp_path / "db.json")
    with triage(db) as term:
        query_then(term, "graph", "Enter", "j", "s")  # filter, back to the list, one down, star it
        term.wait_for(lambda s: "2 of 19" in s and "1 ★" in s)
    assert starred(db) == [Engine.of(read_path(seed_path).papers).search("graph").papers[1].id]


def test_keys_typed_right_after_a_query_apply_to_its_results(tmp_path, seed_path):
    db = str(tmp_path / "db.json")
    with triage(db) as term:
        term.wait_for(lambda s: "19 shown" in s)
        query_then(term, "llm", "Enter", "j", "s")  # the j and s come before the results
        term.wait_for(lambda s: "5 of 19" in s and "1 ★" in s)
    assert starred(db) == [Engine.of(read_path(seed_path).papers).search("llm").papers[1].id]


def test_ctrl_s_right_after_a_paste_saves_the_whole_paste(tmp_path):
    db = str(tmp_path / "db.json")
    text = "\n".join(f"line {n}: compare with KoLA and LLM-KICK" for n in range(4))
    (tmp_path / "paste.txt").write_text(text)
    with triage(db) as term:
        term.wait_for(lambda s: "19 shown" in s)
        term.send("e")
        term.wait_for(lambda s: "ctrl+s save" in s)
        term.command("load-buffer", str(tmp_path / "paste.txt"))
        # one tmux command line: the bracketed paste, then ctrl+s at once
        term.command("paste-buffer", "-p", "-r", "-t", "t", ";", "send-keys", "-t", "t", "C-s")
        term.wait_for(lambda s: "ctrl+s save" not in s)
    assert [row["note"] for row in stored(db) if row["note"]] == [text]


def test_a_note_typed_right_after_e_goes_into_the_note(tmp_path):
    db = str(tmp_path / "db.json")
    with triage(db) as term:
        term.wait_for(lambda s: "19 shown" in s)
        # at once: open the editor, type the note, save. Before the editor had the focus, its text
        # went to the list as keys: "s" starred, "r" marked read, "t" opened the tag editor…
        term.send("e")
        term.send("-l", "see results; rerun it")
        term.send("C-s")
        term.wait_for(lambda s: "ctrl+s save" not in s and "19 shown" in s)
    rows = stored(db)
    assert [row["note"] for row in rows if row["note"]] == ["see results; rerun it"]
    assert not any(row["starred"] or row["read"] or row["tags"] for row in rows)



def test_keys_typed_right_after_enter_in_the_tag_editor_go_to_the_list(tmp_path, seed_path):
    db = str(tmp_path / "db.json")
    with triage(db) as term:
        term.wait_for(lambda s: "19 shown" in s)
        # at once: open the tag editor, type a tag, save it, then one down and star that paper
        term.send("t", "todo", "Enter", "j", "s")
        term.wait_for(lambda s: "1 ★" in s)
    papers = read_path(seed_path).papers
    assert {row["id"]: (row["tags"], row["starred"]) for row in stored(db) if row["tags"] or row["starred"]} == {
        papers[0].id: (["todo"], False), papers[1].id: ([], True)}
