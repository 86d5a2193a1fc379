"""A list that changes on disk while it is open (tmux, the installed `triage`): the header says so, `R`
reloads it in place, the marks, the cursor's paper and the query kept."""
from __future__ import annotations

import json

from tests.loopback import sample_records
from tests.tmux import Tmux, triage_command


def jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def test_a_list_changed_on_disk_is_noticed_and_R_reloads_it_keeping_marks_cursor_and_query(tmp_path):
    records = sample_records(12)
    path = tmp_path / "feed.jsonl"
    path.write_text(jsonl(records[:6]))
    term = Tmux(f"{triage_command()} {path}")
    try:
        term.wait_for(lambda s: "6 of 6 shown" in s)
        term.send("s", "j", "j")  # the first paper starred; the cursor on the third
        term.wait_for(lambda s: "1 ★" in s and "in setting 2." in s and "saving…" not in s)
        assert "changed on disk" not in term.screen()
        with path.open("a") as file:
            file.write(jsonl(records[6:]))
        term.wait_for(lambda s: "list changed on disk — R reloads" in s, timeout=60)
        term.send("R")
        # (the whole of it waited for: a screen read while the terminal was still drawing one frame had its header alone)
        screen = term.wait_for(lambda s: "12 of 12 shown" in s and "Sample paper 11" in s and "in setting 2." in s, timeout=60)
        assert "1 ★" in screen and "in setting 2." in screen  # the star kept, the cursor on its paper
        assert "Sample paper 11" in screen and "changed on disk" not in screen
        # with a query: the reload searches it again, the cursor staying on its paper
        term.send("/", "methods", "Enter", "j")
        term.wait_for(lambda s: "12 of 12 shown" not in s or "in setting 1." in s)
        term.wait_for(lambda s: "in setting 1." in s)
        path.write_text(jsonl(records[:3] + records[4:]))  # an edit: paper 3 gone
        term.wait_for(lambda s: "list changed on disk — R reloads" in s, timeout=60)
        term.send("R")
        term.wait_for(lambda s: "11 of 11 shown" in s and "in setting 1." in s and "methods" in s and "1 ★" in s, timeout=60)
        term.quit()
    finally:
        term.kill()


def test_R_marks_all_read_while_the_list_is_unchanged(tmp_path):
    path = tmp_path / "feed.jsonl"
    path.write_text(jsonl(sample_records(4)))
    term = Tmux(f"{triage_command()} {path}")
    try:
        term.wait_for(lambda s: "4 of 4 shown" in s)
        term.send("R")
        term.wait_for(lambda s: "Mark 4 unread of the 4 papers shown as read?" in s)
    finally:
        term.kill()
