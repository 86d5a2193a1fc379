"""Snapshot tests: what the app looks like, compared with SVGs a person has checked.

Regenerate after a deliberate change of look with `pytest tests/test_snapshots.py --snapshot-update`
and look at the SVGs in tests/__snapshots__ before committing them. Fixed sizes; the app is headless
so no cursor blinks.
"""
from __future__ import annotations

from store import read_path
from tui.app import TriageApp


def test_main_view_side_by_side(snap_compare, seed_path):
    """120x40: the paper list on the left with the second paper highlighted, an unread dot on every
    row (a fresh database); the header counts "19 shown · 19 unread · 0 ★ · 0 prioritised"; its full
    abstract on the right (title in the accent colour, venue · year · id, "unread", the wrapped text);
    the footer shows the list keys, help, quit, the triage keys and c Copy."""
    assert snap_compare(TriageApp(read_path(seed_path)), press=["j"], terminal_size=(120, 40))


def test_stacked_at_80x24(snap_compare, seed_path):
    """80x24: the list above (first paper highlighted, titles cut with an ellipsis, no horizontal
    scrollbar), the detail pane below with the start of the first abstract, the footer at the bottom."""
    assert snap_compare(TriageApp(read_path(seed_path)), terminal_size=(80, 24))


def test_help_screen(snap_compare, seed_path):
    """120x40 after `?`: a box titled Keys over the dimmed app, with the keys grouped in bordered
    panels (Move, Read, General …), each key in bold accent beside what it does."""
    assert snap_compare(TriageApp(read_path(seed_path)), press=["question_mark"], terminal_size=(120, 40))


def test_light_theme_after_a_switch(snap_compare, seed_path):
    """120x40, the theme switched to textual-light after the first paint, then `j` and `enter`: every row
    is redrawn in the light colours, the second row keeps a visible (blurred) cursor while the detail
    pane has the focus, the title is dark amber, readable on the light background."""

    async def switch(pilot) -> None:
        await pilot.pause()
        pilot.app.theme = "textual-light"

    assert snap_compare(TriageApp(read_path(seed_path)), press=["j", "enter"], terminal_size=(120, 40), run_before=switch)
