"""Snapshot tests: what the app looks like, compared with SVGs a person has checked.

Regenerate after a deliberate change of look with `pytest tests/test_snapshots.py --snapshot-update`
and look at the SVGs in tests/__snapshots__ before committing them. Fixed sizes; the app is headless
so no cursor blinks.
"""
from __future__ import annotations

from store import read_path
from tests.waits import until
from tui.app import TriageApp


def saved(*keys: str):
    """Press the keys, then wait until the marks they made are saved (a row shows `…` until then)."""

    async def press(pilot) -> None:
        await pilot.press(*keys)
        await until(pilot, lambda: not pilot.app.saving)

    return press


def test_main_view_side_by_side(snap_compare, seed_path):
    """120x40 after `s j 2 j r j`: the header line names iclr2024.txt and reads "ICLR 2024 · 19 of 19
    shown · 18 unread · 1 ★ · 1 prioritised", "1 read" and a bar at 5%; the tab bar has All 19 active,
    Unread 18, Starred 1, Prioritised 1 and "sorted by file order" on the right. Rows: the first
    starred, the second with priority 2, the third read (no dot); the fourth highlighted, its full
    abstract on the right (title, venue · year · id, "unread", the wrapped text, fully visible)."""
    assert snap_compare(TriageApp(read_path(seed_path)), terminal_size=(120, 40), run_before=saved("s", "j", "2", "j", "r", "j"))


def test_stacked_at_80x24_in_a_view_and_sort(snap_compare, seed_path):
    """80x24 after giving papers 1 and 2 priorities 3 and 1, then `v v v` (Prioritised) and `S` (priority):
    the header line fits without the file name ("… 2 prioritised" then a short bar at 0%), the
    Prioritised 2 tab is active and "sorted by priority" shows; the list above holds only the two
    papers, priority 1 first, no horizontal scrollbar; the detail pane below shows the highlighted one."""
    press = saved("3", "j", "1", "v", "v", "v", "S")
    assert snap_compare(TriageApp(read_path(seed_path)), terminal_size=(80, 24), run_before=press)


def test_search_with_highlights(snap_compare, seed_path):
    """120x40 after `/`, "difusion recovry" (two typos) and `enter`: the filter bar shows the query and
    "1 of 19"; the tab bar reads All 1 and "sorted by match score"; the one row, CDRL, has "diffusion"
    and "recovery" in bold in its title, and the detail pane marks them in the title and the abstract."""

    async def search(pilot) -> None:
        await pilot.press("slash", *"difusion recovry", "enter")
        await pilot.app.workers.wait_for_complete()

    assert snap_compare(TriageApp(read_path(seed_path)), terminal_size=(120, 40), run_before=search)


def test_citation_picker(snap_compare, seed_path):
    """120x40 after `C`: a box over the dimmed app listing the citation formats, the default one
    highlighted, and below it the first paper cited in that format."""
    assert snap_compare(TriageApp(read_path(seed_path)), press=["C"], terminal_size=(120, 40))


def test_help_screen(snap_compare, seed_path):
    """120x40 after `?`: a box titled Keys over the dimmed app, with the keys grouped in bordered
    panels (Move, Read, Triage, Views and sorts, General …), each key in bold accent beside what it does."""
    assert snap_compare(TriageApp(read_path(seed_path)), press=["question_mark"], terminal_size=(120, 40))


def test_light_theme_after_a_switch(snap_compare, seed_path):
    """120x40, the theme switched to textual-light after the first paint, then `j` and `enter`: every row
    is redrawn in the light colours, the second row keeps a visible (blurred) cursor while the detail
    pane has the focus, the title is dark amber, readable on the light background."""

    async def switch(pilot) -> None:
        await pilot.pause()
        pilot.app.theme = "textual-light"

    assert snap_compare(TriageApp(read_path(seed_path)), press=["j", "enter"], terminal_size=(120, 40), run_before=switch)
