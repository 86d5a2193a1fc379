"""Snapshot tests: what the app looks like, compared with SVGs a person has checked.

Regenerate after a deliberate change of look with `pytest -n 0 tests/test_snapshots.py --snapshot-update`
and look at the SVGs in tests/__snapshots__ before committing them. Fixed sizes; the app is headless
so no cursor blinks.
"""
from __future__ import annotations

from store.papers.model import Collection, Paper
from store.readers import read_path
from tests.test_keys import open_help
from tests.waits import until
from tui.app import TriageApp


def saved(*keys: str):
    """Press the keys, then wait until the marks they made are saved (a row shows `…` until then) and
    ranked (one star or priority 1–2 makes a For-you ranking, which the detail pane explains)."""

    async def press(pilot) -> None:
        await pilot.press(*keys)
        await until(pilot, lambda: not pilot.app.saving)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return press


def test_main_view_side_by_side(snap_compare, seed_path):
    """120x40 after `s j 2 j r j`: the header line reads "ICLR 2024 sample · 19 of 19 shown · 18 unread ·
    1 ★ · 1 prioritised" (the bundled list), "1 read" and a bar at 5%;
    the list 60% of the width; the footer ends with `v S m < > z`; the tab bar has All 19 active,
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
    assert snap_compare(TriageApp(read_path(seed_path)), terminal_size=(120, 40),
                        run_before=lambda pilot: open_help(pilot, pilot.app))  # (its columns fill at their first size)


def test_light_theme_after_a_switch(snap_compare, seed_path):
    """120x40, the theme switched to textual-light after the first paint, then `j` and `enter`: every row
    is redrawn in the light colours, the second row keeps a visible (blurred) cursor while the detail
    pane has the focus, the title is dark amber, readable on the light background."""

    async def switch(pilot) -> None:
        await pilot.pause()
        pilot.app.theme = "textual-light"

    assert snap_compare(TriageApp(read_path(seed_path)), press=["j", "enter"], terminal_size=(120, 40), run_before=switch)


def records() -> Collection:
    """Twelve papers with every field the detail pane and the list show: authors, venue and track, year,
    keywords, area, TL;DR, links (the record's own, PDF, code) and a title with LaTeX."""
    from store.papers.model import paper_id
    from store.papers.text import display

    tracks = ("oral", "spotlight", "poster")
    papers = []
    for n in range(12):
        text = (f"We study problem {n} of learning with diffusion models and show that a simple method, "
                f"trained with $\\alpha$-weighted losses, improves sample quality by $\\geq {n + 2}$\\% "
                "on four benchmarks. " * (1 + n % 3)) + f"Code: https://github.com/lab/method{n}"
        papers.append(Paper(
            id=paper_id(text), text=text, plain=display(text).plain, position=n,
            title=f"Method{n}-$\\alpha$: Learning to Sample Faster with Weighted Diffusion Objectives, Part {n}",
            authors=(("Yoshua Bengio", "Ada Lovelace", "Alan Turing")[n % 3], "Grace Hopper"),
            venue=("ICLR 2024", "ICML 2023")[n % 2], year=(2024, 2023)[n % 2], track=tracks[n % 3],
            keywords=("diffusion models", "sampling"), area="generative models", tldr=f"A faster sampler, number {n}.",
            links=(f"https://openreview.net/forum?id=p{n}", f"https://openreview.net/pdf?id=p{n}",
                   f"https://github.com/lab/method{n}"),
            pdf=f"https://openreview.net/pdf?id=p{n}",
        ))
    return Collection(papers, sources=["records.jsonl"])


def test_detail_pane_and_list_columns_at_80x24(snap_compare):
    """80x24, stacked, on the second record: the list's rows hold the title (α rendered) and, with the
    room left, the first author; the pane below: the title in bold accent, the authors, "ICML 2023 ·
    spotlight · id" and the start of the keywords, its scrollbar at the right."""
    assert snap_compare(TriageApp(records()), press=["j"], terminal_size=(80, 24))


def test_detail_pane_and_list_columns_at_120x40(snap_compare):
    """120x40, side by side at half the width, on the second record: titles cut only near 52 cells, no
    columns (the title keeps its room); the pane: title, authors, venue · track · id, keywords and area,
    "unread", the TL;DR behind a bar, the abstract, then Paper / PDF / Code links with "o opens", "O opens"."""
    assert snap_compare(TriageApp(records()), press=["j"], terminal_size=(120, 40))


def test_detail_pane_and_list_columns_at_200x60(snap_compare):
    """200x60 on the second record: the list has the first author, track and year columns; the
    abstract's lines stop at 96 cells however wide the pane."""
    assert snap_compare(TriageApp(records()), press=["j"], terminal_size=(200, 60))


def test_the_list_alone_with_its_columns(snap_compare):
    """120x40 after `z`: the list alone, full width, each row with its title in full, the first author
    (Bengio, Lovelace, Turing), the track (oral, spot, poster) and the year (2024, 2023)."""
    assert snap_compare(TriageApp(records()), press=["z"], terminal_size=(120, 40))
