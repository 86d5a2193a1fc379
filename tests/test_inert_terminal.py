"""The installed `triage` in a real terminal on hostile files: no OSC 52 clipboard write and no
OSC 2 window title gets through, from a header, a BibTeX key or field, a file's name, a note."""
from __future__ import annotations

import subprocess

import pytest

from tests.tmux import Tmux, triage_command

OSC = "\x1b]2;PWNED\x1b\\\x1b]52;c;SGVsbG8t\x1b\\"
"""Set the window title to PWNED, then put "Hello-" on the clipboard (tmux: its paste buffer)."""
OSC_BEL = "\x1b]2;PWNED\x07\x1b]52;c;SGVsbG8t\x07"
"""The same, each ended by BEL (in BibTeX, the `\\` ending the other would escape the closing brace)."""
MORE = "\n\n".join(f"A second abstract, number {n}, long enough that a few escapes are no binary file." for n in range(3))


def hostile_files(tmp_path, kind: str) -> str:
    """The FILES argument for one hostile source (the issue's repro is `txt`)."""
    if kind == "txt":
        path = tmp_path / "h.txt"
        path.write_text(f"{OSC} my list\n\nWe propose a method.\n\n{MORE}\n", encoding="utf-8")
    elif kind == "bib":
        path = tmp_path / "h.bib"
        path.write_text(
            f"@article{{key{OSC_BEL},\n  title = {{Title {OSC_BEL}}},\n  author = {{Ann {OSC_BEL} Lee}},\n"
            f"  note = {{{OSC_BEL}}},\n  url = {{https://x.org/{OSC_BEL}}},\n"
            f"  abstract = {{We propose a method. {OSC_BEL}}}\n}}\n"
            f"@misc{{other, title = {{Other}}, abstract = {{{MORE}}}}}\n",
            encoding="utf-8",
        )
    else:  # a file whose name holds the sequence, found inside a directory
        path = tmp_path / "lists"
        path.mkdir()
        (path / f"{OSC}list.txt").write_text("My list\n\nWe propose a method.\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("kind", ["txt", "bib", "directory"])
def test_no_clipboard_write_or_window_title_from_a_hostile_list(tmp_path, kind):
    files = hostile_files(tmp_path, kind)
    db = tmp_path / "db.json"
    # A note stored from the command line, as hostile as the list.
    listed = subprocess.run([triage_command(), "list", files, "--db", str(db)], capture_output=True, text=True)
    pid = listed.stdout.split()[0]
    noted = subprocess.run([triage_command(), "set", pid, files, "--db", str(db), "--note", f"see {OSC}", "--tag", OSC],
                           capture_output=True, text=True)
    assert noted.returncode == 0, noted.stderr
    term = Tmux(f"{triage_command()} {files!r} --db {db}")
    try:
        term.command("set", "-g", "set-clipboard", "on")
        term.command("set", "-g", "allow-rename", "on")
        term.wait_for(lambda s: "We propose a method" in s and "see" in s)
        term.send("C")  # the citation preview shows the BibTeX key and fields
        term.wait_for(lambda s: "Copy as" in s and "@" in s)
        term.send("escape")
        term.wait_for(lambda s: "Copy as" not in s)
        assert term.paste_buffer() == ""
        assert "PWNED" not in term.command("display-message", "-p", "-t", "t", "#{pane_title}")
    finally:
        term.kill()
