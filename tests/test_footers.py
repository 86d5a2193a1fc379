"""The footer: with the user's own keys it reads as the help does (each group once, the remapped keys in
it), and under a dialog it is the dialog's own keys, not the list's. On the ICLR list, scrolled well down."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from store.readers import read_path
from tests.waits import until
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList

SIZES = [(80, 24), (120, 40)]


def bottom_line(app: TriageApp) -> str:
    """The screen's last line as drawn (the footer of whatever screen is on top)."""
    return "".join(segment.text for segment in app.screen._compositor.render_strips()[-1])




@pytest.mark.parametrize("size", [*SIZES, (160, 40)])  # (the moving keys are left out below 160 columns)
@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_the_footer_groups_remapped_keys_as_the_help_does(corpora, tmp_path, size, theme):
    Path(os.environ["TRIAGE_CONFIG"]).write_text('cursor_down = "ctrl+n"\ntoggle_star = "f"\n', encoding="utf-8")
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"), str(tmp_path / "db.json"))
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        app.query_one(PaperList).cursor = 700
        await pilot.press("ctrl+n", "f")
        await until(pilot, lambda: app.query_one(PaperList).cursor == 701 and "Triage" in bottom_line(app))
        line = bottom_line(app)
        assert line.count("Move") <= 1 and line.count("Triage") == 1, line
        assert "space r f n u e t Triage" in line and line.rstrip().endswith("palette"), line  # in the help's order
        if size[0] >= 160:
            assert "^n k/↑ Move" in line, line  # the remapped key in its group


DIALOGS = {
    "x": "⏎ Write  tab Overwrite box  esc Cancel",    # export
    "e": "esc Cancel  ^s Save",                       # note
    "t": "⏎ Save  esc Cancel",                        # tags
    "C": "⏎ Copy  esc Cancel  j k Move",              # copy as…
    "M": "⏎ Save  tab Next field  esc Cancel",        # save search (after a query)
}


@pytest.mark.parametrize("size", SIZES)
async def test_a_dialog_shows_its_own_keys_in_the_footer(corpora, tmp_path, size):
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"), str(tmp_path / "db.json"))
    async with app.run_test(size=size) as pilot:
        app.query_one(PaperList).cursor = 900
        await pilot.pause()
        for key, shown in DIALOGS.items():
            if key == "M":
                await pilot.press("slash", *"graph", "enter")
                await until(pilot, lambda: app.focused is app.query_one(PaperList))
            await pilot.press(key)
            await until(pilot, lambda: app.screen is not app.default_screen)
            await until(pilot, lambda: "esc Cancel" in bottom_line(app))
            line = bottom_line(app)
            assert shown in line and "Triage" not in line and "j/↓" not in line, (key, line)  # not the list's keys
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is app.default_screen)


LABELS = ("Move", "Read", "Help", "Quit", "Triage", "Copy", "Filter", "Views and sorts")


@pytest.mark.parametrize("size", SIZES)
async def test_the_footer_leaves_out_whole_hints_where_they_do_not_fit_never_cutting_a_word(seed_path, tmp_path, size):
    """At 120 columns the list's footer was cut (`Views and sor▏`), at 80 `c C▏`: the moving keys (the arrows do them
    too) and then the last groups are left out whole; what to start with (read, help, quit, triage, filter) stays."""
    app = TriageApp(read_path(seed_path), str(tmp_path / "db.json"), hint=False)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: "palette" in bottom_line(app) and "Read" in bottom_line(app))
        await pilot.pause()
        line = bottom_line(app)
        keys = line.split("▏")[0].rstrip()
        assert keys.endswith(LABELS), line
        assert all(hint in line for hint in ("⏎ Read", "? Help", "q Quit", "t Triage", "/ Filter")), line
        assert line.rstrip().endswith("^p palette"), line
        if size[0] >= 120:
            assert "v S m < > z Views and sorts" in line, line
