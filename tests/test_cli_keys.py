"""`triage keys` and a keys file, run as a user runs them: the installed `triage`, a real keys file
($TRIAGE_CONFIG, a temp path for each test), and the app in a real terminal with a remapped key."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from store.marks.db import TriageStore
from tests.test_triage_terminal import first_row
from tests.tmux import Tmux, triage_command


def keys_file(text: str | bytes) -> Path:
    path = Path(os.environ["TRIAGE_CONFIG"])
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def triage_keys() -> subprocess.CompletedProcess[str]:
    return subprocess.run([triage_command(), "keys"], capture_output=True, text=True, timeout=60)


def row(output: str, binding_id: str) -> list[str]:
    """The columns of the line of `binding_id`: id, keys, what it does."""
    line = next(line for line in output.splitlines() if line.split()[:1] == [binding_id])
    return line.split(maxsplit=2)


def test_triage_keys_without_a_keys_file_prints_the_defaults_grouped_as_the_help():
    done = triage_keys()
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == f"Keys file: {os.environ['TRIAGE_CONFIG']} (there is none: these are the defaults)"
    titles = [line for line in lines if line and not line.startswith((" ", "Keys file"))]
    assert titles == ["Move", "Read", "Triage", "Search", "Copy and export", "Views and sorts", "General", "Dialogs and help"]
    assert row(done.stdout, "toggle_star") == ["toggle_star", "s", "Toggle star"]
    assert row(done.stdout, "cursor_down") == ["cursor_down", "j,down", "Next paper"]
    assert row(done.stdout, "help") == ["help", "?", "Help"]
    assert row(done.stdout, "priority_1") == ["priority_1", "1", "Priority 1 (highest)"]
    assert row(done.stdout, "cancel") == ["cancel", "escape", "Cancel a dialog"]
    assert "(yours)" not in done.stdout


def test_triage_keys_shows_the_keys_of_the_file_and_its_bad_entries_on_stderr():
    path = keys_file('toggle_star = "f"\ncursor_down = ["ctrl+n", "down"]\ntoggle_stars = "g"\n')
    done = triage_keys()
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == f"Keys file: {path}"
    assert row(done.stdout, "toggle_star") == ["toggle_star", "f", "Toggle star (yours)"]
    assert row(done.stdout, "cursor_down") == ["cursor_down", "ctrl+n,down", "Next paper (yours)"]
    assert row(done.stdout, "toggle_read") == ["toggle_read", "r", "Toggle read"]
    assert done.stderr == f'triage: {path} line 3: no action "toggle_stars" (did you mean toggle_star?)\n'


def test_triage_keys_refuses_a_keys_file_that_is_not_toml_naming_its_line():
    path = keys_file('toggle_star = "f"\n\ntoggle_read = r\n')
    done = triage_keys()
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"triage: {path}: not valid TOML: line 3: ")
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


def test_triage_keys_refuses_a_keys_file_that_is_not_utf8():
    path = keys_file(b'toggle_star = "\xe9"\n')
    done = triage_keys()
    assert done.returncode == 2
    assert done.stderr == f"triage: {path}: not UTF-8 text, so not a TOML keys file\n"


def test_a_remapped_star_key_works_in_a_real_terminal():
    keys_file('toggle_star = "f"\n')
    tmux = Tmux(triage_command())
    try:
        tmux.wait_for(lambda s: "19 unread" in s)
        tmux.send("s")  # not the star key any more
        tmux.send("f")
        tmux.wait_for(lambda s: "1 ★" in s and "★" in first_row(s))  # a capture can land between the header and the row
        tmux.send("?")
        tmux.wait_for(lambda s: re.search(r"│ f {2,}Toggle star", s) is not None)
        tmux.send("Escape")
        tmux.wait_for(lambda s: "Filter (/) syntax" not in s)
        tmux.quit()
    finally:
        tmux.kill()
    store = TriageStore(os.environ["TRIAGE_DB"])
    assert [store.get(paper_id).starred for paper_id in store.ids()] == [True]


HOSTILE = {
    "arrays 50,000 deep": "toggle_star = " + "[" * 50_000 + "]" * 50_000 + "\n",
    "inline tables 50,000 deep": "toggle_star = " + "{a = " * 50_000 + "1" + "}" * 50_000 + "\n",
    "a name dotted 20,000 deep": "a." * 20_000 + "b = 1\n",  # (tomllib takes time growing with its square)
    "2 MB of comments": "# my keys\n" * 200_000,
}


def hostile_keys_file(kind: str) -> Path:
    path = Path(os.environ["TRIAGE_CONFIG"])
    if kind == "a FIFO":
        os.mkfifo(path)
    elif kind == "a link to /dev/zero":
        path.symlink_to("/dev/zero")
    else:
        keys_file(HOSTILE[kind])
    return path


@pytest.mark.parametrize("kind", [*HOSTILE, "a FIFO", "a link to /dev/zero"])
def test_triage_keys_says_a_hostile_keys_file_in_one_line(kind):
    """Before: a RecursionError traceback (nesting), a minute and more (the dotted name), a hang (the FIFO),
    a MemoryError (/dev/zero)."""
    path = hostile_keys_file(kind)
    done = triage_keys()
    assert done.returncode == 2 and done.stdout == ""
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(f"triage: {path}: "), done.stderr
    assert len(done.stderr) < 300


@pytest.mark.parametrize("kind", ["arrays 50,000 deep", "a name dotted 20,000 deep", "a FIFO"])
def test_the_app_in_a_terminal_starts_with_the_default_keys_and_one_warning_despite_a_hostile_keys_file(kind):
    """Before: the app printed a RecursionError traceback and exited 0 without drawing; hung on the FIFO."""
    hostile_keys_file(kind)
    tmux = Tmux(triage_command())
    try:
        tmux.wait_for(lambda s: "19 unread" in s and "Keys file" in s and "keep their default keys" in s)
        tmux.send("s")  # the default star key
        tmux.wait_for(lambda s: "1 ★" in s and "★" in first_row(s))
        tmux.quit()
    finally:
        tmux.kill()
