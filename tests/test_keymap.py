"""Your own keys: a keys file remaps bindings in the app, its help, footer and palette; each bad entry is
one clear line of a warning at start and keeps its default, while the good entries still apply."""
from __future__ import annotations

import os
from pathlib import Path

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from store.readers import read_path
from tests.test_keys import help_text
from tests.test_triage_keys import SIZE, header, marks, press, stored
from tests.waits import told, until
from tui.app import TriageApp
from tui.keymap import load
from tui.screens.help import HelpScreen
from tui.widgets.paper_list import PaperList


def keys_file(text: str) -> Path:
    """Write the keys file the app reads ($TRIAGE_CONFIG, a temp path for each test)."""
    path = Path(os.environ["TRIAGE_CONFIG"])
    path.write_text(text, encoding="utf-8")
    return path


def warnings(app: TriageApp) -> list[str]:
    return [n.message for n in told(app) if n.severity == "warning" and n.title == "Keys file"]


def help_row(app: TriageApp, description: str) -> str:
    """The help screen's line that describes `description`."""
    return next(line for line in help_text(app).splitlines() if line.rstrip().endswith(description))


async def open_help(pilot, key: str = "question_mark") -> None:
    await pilot.press(key)
    await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))


async def test_a_keys_file_moves_star_to_f_and_help_footer_and_palette_say_so(seed_path):
    keys_file('# my keys\ntoggle_star = "f"\ncursor_down = ["ctrl+n", "down"]\n')
    collection = read_path(seed_path)
    papers = collection.papers
    app = TriageApp(collection)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f")
        assert marks(app, 0) == " •★ " and "1 ★" in header(app)
        await press(pilot, "s")  # no longer the star key: nothing changes
        assert marks(app, 0) == " •★ " and "1 ★" in header(app)
        await press(pilot, "ctrl+n", "f")
        assert app.query_one(PaperList).cursor == 1 and marks(app, 1) == " •★ "
        await press(pilot, "j")  # j no longer moves down
        assert app.query_one(PaperList).cursor == 1
        assert not warnings(app)
        footer = {key.action: key.key_display for key in app.query_one(Footer).query(FooterKey)}
        assert footer["toggle_star"] == "f"  # in the Triage group
        await open_help(pilot)
        assert help_row(app, "Toggle star").split()[0] == "f"
        assert help_row(app, "Next paper").split()[:3] == ["^n", "/", "↓"]
        await press(pilot, "escape")
        palette = {command.title: command.help for command in app.get_system_commands(app.screen)}
        assert palette["Toggle star"] == "key: f"
    assert stored(papers[0].id).starred and stored(papers[1].id).starred


async def test_each_bad_entry_is_named_by_line_and_keeps_its_default_while_good_ones_apply(seed_path):
    path = keys_file(
        'toggle_star = "f"\n'  # good
        'toggle_stars = "g"\n'  # no such action
        'toggle_read = "f"\n'  # f is toggle_star's now
        'next_unread = "ctlr+x"\n'  # not a key name
        'undo = "j"\n'  # j moves down the list
        'priority_1 = 1\n'  # not a string
        'cycle_view = "ctrl+q"\n'  # Textual's quit
        'copy_citation = "y"\n'  # good
    )
    collection = read_path(seed_path)
    app = TriageApp(collection)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        [warning] = warnings(app)
        lines = warning.splitlines()
        assert lines[0] == f'{path} line 2: no action "toggle_stars" (did you mean toggle_star?)'
        assert lines[1].startswith(f"{path} line 3: ") and "f is already toggle_star's (line 1)" in lines[1]
        assert lines[2].startswith(f'{path} line 4: "ctlr+x" is not a key name')
        assert lines[3].startswith(f"{path} line 5: ") and "j is already" in lines[3] and "undo keeps u" in lines[3]
        assert lines[4].startswith(f"{path} line 6: 1 is not a key")
        assert lines[5].startswith(f"{path} line 7: ") and "Textual's quit" in lines[5]
        await press(pilot, "f", "r", "1")  # the good entry and the defaults of the bad ones
        assert marks(app, 0) == "  ★1"
        await press(pilot, "j", "n")  # j still moves, n still finds the next unread
        assert app.query_one(PaperList).cursor == 2
        await press(pilot, "u")
        assert marks(app, 1) == " •  " and "17 unread" not in header(app)
        await open_help(pilot)
        assert help_row(app, "Toggle star").split()[0] == "f"
        assert help_row(app, "Toggle read").split()[0] == "r"
        assert help_row(app, "Copy the citation in the default format").split()[0] == "y"


async def test_a_keys_file_that_is_not_toml_is_named_with_its_line_and_every_key_is_the_default(seed_path):
    path = keys_file('toggle_star = "f"\ntoggle_read = \n')
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        [warning] = warnings(app)
        assert warning.startswith(f"{path}: not valid TOML: line 2: ")
        await press(pilot, "s")
        assert marks(app, 0) == " •★ "


def test_remapping_one_of_two_bindings_on_a_key_keeps_the_other():
    """Textual 8.2 drops every binding sharing a key with one the keymap moves; enter both reads and
    leaves the filter, esc both goes back to the list and leaves "more like this"."""
    keys_file('focus_detail = "o"\nleave_similar = "b"\nopen_link = "ctrl+o"\n')
    keymap = load(TriageApp)
    assert keymap.problems == []
    assert keymap.keys["leave_filter"] == "enter" and keymap.keys["focus_papers"] == "h,escape"


async def test_esc_still_leaves_more_like_this_when_back_to_the_list_is_only_h(seed_path):
    keys_file('focus_papers = "h"\n')
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        paper_list = app.query_one(PaperList)
        await press(pilot, "j")
        of = paper_list.current
        await pilot.press("m")
        await until(pilot, lambda: of not in paper_list.papers)
        await press(pilot, "escape")
        assert paper_list.current == of and len(paper_list.papers) == 19


async def test_keys_swapped_in_the_file_are_no_clash(seed_path):
    keys_file('toggle_star = "r"\ntoggle_read = "s"\n')
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "r")
        assert not warnings(app)
        assert marks(app, 0) == " •★ "
        await press(pilot, "s")
        assert marks(app, 0) == "  ★ "


def test_without_a_keys_file_there_is_nothing_to_say():
    keymap = load(TriageApp)
    assert keymap.keys == {} and keymap.problems == [] and not keymap.found


def test_a_table_says_bindings_go_at_the_top_and_the_entries_above_it_apply():
    path = keys_file('toggle_star = "f"\n\n[keys]\ntoggle_read = "x"\n')
    keymap = load(TriageApp)
    assert keymap.keys == {"toggle_star": "f"}
    assert keymap.problems == [f"{path} line 3: [keys] is a table: write each binding at the top of the file,"
                               ' before any [table], as toggle_star = "f"']


def test_escape_sequences_in_the_file_never_reach_the_terminal():
    keys_file('"toggle_\\u001b[31mstar" = "f"\ntoggle_read = "\\u001b]52;c;aGk=\\u0007"\n')
    problems = load(TriageApp).problems
    assert len(problems) == 2 and not any("\x1b" in problem or "\x07" in problem for problem in problems)
    assert " line 1: " in problems[0] and " line 2: " in problems[1]
