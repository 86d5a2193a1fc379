"""The installed `triage` in a real terminal on hostile files: no OSC 52 clipboard write and no
OSC 2 window title gets through, from a header, a BibTeX key or field, a file's name, a note."""
from __future__ import annotations

import re
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# The app's boundary itself: whatever text or link a segment holds, Strip.render writes no control
# but Textual's own styles and links around it, and clean text exactly as Textual would.
OWN = re.compile(r"\x1b\[[0-9;]*m|\x1b\]8;(?:id=[^;\x1b]*)?;[^\x1b\x07\x9c]*\x1b\\")
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]")
TEXT = st.lists(st.characters(exclude_categories=("Cs",)) | st.sampled_from(["\x1b", "\x1b]52;c;", "\x9b", "\x9d", "\x07", "\u202e"]),
                max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=TEXT, link=TEXT, bold=st.booleans())
def test_the_app_writes_no_control_whatever_a_segment_holds(text, link, bold):
    from rich.console import Console
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    import tui.app  # noqa: F401  (installs the boundary, as running the app does)

    style = Style(bold=bold, link=f"https://x.org/{link}" if link else None)
    rendered = Strip([Segment(text), Segment(text, style)]).render(Console())
    assert CONTROL.findall(OWN.sub("", rendered)) == []


def test_clean_text_renders_as_textual_renders_it():
    from rich.console import Console
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    import tui.app  # noqa: F401

    segments = [Segment("plain "), Segment("bold", Style(bold=True, color="red")), Segment(" link", Style(link="https://x.org"))]
    console = Console()
    assert Strip(segments).render(console) == Strip.render.original(Strip(segments), console)
