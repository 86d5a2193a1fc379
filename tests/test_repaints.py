"""What a key draws again on a long list (ICLR's 2,260 papers), and that what is left as it was is what
a fresh drawing shows: a move that scrolls the list does not draw its scrollbar again while the thumb
stays in the same eighths of a cell, nor the detail pane's bar in a look it had before; a move to the next
paper draws the detail pane's lines that changed, not the blank ones below both texts; a character typed in
the query does not lay the screen out when nothing changes size; a star while too few papers are starred to
rank them draws its own row, not every row."""
from __future__ import annotations

from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from store.readers import read_path
from tests.waits import settled, until
from tui.app import TriageApp
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList
from tui.widgets.scrollbar import _look

SIZE = (120, 40)


async def scrolled(app: TriageApp, pilot) -> PaperList:
    """The list, settled, with its cursor past the first screen: each `j` then scrolls it by a row."""
    await settled(app, pilot)
    paper_list = app.query_one(PaperList)
    paper_list.cursor = 600
    await pilot.pause()
    return paper_list


def drawn(widget: Widget) -> list[Strip]:
    """The widget's lines as the screen has them (what is kept from the last drawing, redrawn where dirty)."""
    return widget.render_lines(Region(0, 0, *widget.size))


def fresh(widget: Widget) -> list[Strip]:
    """The widget's lines drawn from scratch (as Textual draws them: none kept, see `KeptLines`)."""
    Widget.refresh(widget)
    return Widget.render_lines(widget, Region(0, 0, *widget.size))


async def test_a_move_that_scrolls_the_list_draws_its_scrollbar_only_when_the_thumb_moves(corpora, monkeypatch):
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        paper_list = await scrolled(app, pilot)
        bar = paper_list.vertical_scrollbar
        renders = []
        rendered = type(bar)._render_content
        monkeypatch.setattr(type(bar), "_render_content", lambda self: (renders.append(self) if self is bar else None, rendered(self))[1])
        top, moves = paper_list.scroll_offset.y, 0
        for _ in range(24):
            before = len(renders)
            await pilot.press("j")
            await pilot.pause()
            moves += len(renders) - before
            assert drawn(bar) == fresh(bar)  # the thumb where a bar drawn afresh has it
        assert paper_list.scroll_offset.y == top + 24
        # 2,260 rows in a bar of 36 cells: the thumb moves an eighth of a cell every ~8 rows, so 24 moves
        # draw it 2 to 4 times (each move drew it again before).
        assert 1 <= moves <= 6


async def test_a_move_draws_the_detail_panes_scrollbar_once_for_each_look_it_takes(corpora, monkeypatch):
    """The detail pane's bar changes with each paper's length, among a few looks (none for a text that fits, a
    thumb of a few sizes): each is drawn once, and drawn again it is what a bar drawn afresh shows."""
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await scrolled(app, pilot)
        bar = app.query_one(DetailPane).vertical_scrollbar
        renders = []
        rendered = type(bar)._render_content
        monkeypatch.setattr(type(bar), "_render_content", lambda self: (renders.append(self) if self is bar else None, rendered(self))[1])
        looks, moves = set(), 0
        for _ in range(40):
            before = len(renders)
            await pilot.press("j")
            await pilot.pause()
            moves += len(renders) - before
            looks.add(_look(bar))
            assert drawn(bar) == fresh(bar)
        assert moves <= len(looks) < 30  # each look drawn once at most (a bar drawn at each move that changed it before)


async def test_a_move_draws_the_detail_lines_that_changed_and_leaves_the_blank_ones(corpora, monkeypatch):
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=(200, 50)) as pilot:  # wide: most abstracts end on screen
        await settled(app, pilot)
        pane = app.query_one(DetailPane)
        lines: list[int] = []  # the lines finished for the screen (padded, coloured: Textual's StylesCache)
        finish = pane._styles_cache.render_line
        monkeypatch.setattr(pane._styles_cache, "render_line", lambda styles, y, *a: (lines.append(y), finish(styles, y, *a))[1])
        height = pane.scrollable_content_region.height
        checked = 0
        for _ in range(30):
            before = len(pane._lines)
            lines.clear()
            await pilot.press("j")
            await pilot.pause()
            longest = max(before, len(pane._lines))
            if longest < height:  # both texts end on screen: the blank lines below them stay
                assert lines and max(lines) < longest
                checked += 1
            assert drawn(pane) == fresh(pane)  # nothing left over from the paper before
        assert checked >= 10


async def test_typing_in_the_query_lays_nothing_out_when_no_size_changes(corpora, monkeypatch):
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        await pilot.press("slash", *"graph")
        await settled(app, pilot)
        count = str(app.query_one("#filter-count").content)
        layouts = []
        laid_out = Screen._refresh_layout
        monkeypatch.setattr(Screen, "_refresh_layout", lambda self, *a, **k: (layouts.append(1), laid_out(self, *a, **k))[1])
        for _ in range(3):  # the same matches, the same counts: only the query's text changes
            await pilot.press("space")
            await settled(app, pilot)
        assert app.query_one("#filter-input").value == "graph   "
        assert str(app.query_one("#filter-count").content) == count
        assert layouts == []


async def test_the_first_star_draws_its_own_row_not_the_list(corpora, monkeypatch):
    """The first star makes the For-you ranking (one star is enough), but in file order no row shows a bucket:
    only the starred row is drawn again."""
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        paper_list = await scrolled(app, pilot)
        rows: list[str] = []
        rendered = PaperList._render_row
        monkeypatch.setattr(PaperList, "_render_row", lambda self, paper, *a: (rows.append(paper.id), rendered(self, paper, *a))[1])
        await pilot.press("s")  # the first star
        await until(pilot, lambda: not app.saving)
        await settled(app, pilot)
        assert app.state_of(paper_list.current.id).starred and app._ranking is not None
        assert set(rows) == {paper_list.current.id}  # drawn with "…" until saved, then with ★


async def test_a_move_that_scrolls_the_list_finishes_only_the_new_row_and_keeps_the_marks(corpora, monkeypatch):
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        paper_list = await scrolled(app, pilot)
        await pilot.press("s")  # a star on a row that scrolls up the screen
        await until(pilot, lambda: not app.saving)
        await settled(app, pilot)
        starred = paper_list.current.id
        lines: list[int] = []
        finish = paper_list._styles_cache.render_line
        monkeypatch.setattr(paper_list._styles_cache, "render_line", lambda styles, y, *a: (lines.append(y), finish(styles, y, *a))[1])
        top = paper_list.scroll_offset.y
        for _ in range(12):
            lines.clear()
            await pilot.press("j")
            await pilot.pause()
            assert len(lines) <= 3  # the new bottom row and the cursor's two rows, not all 36
            assert drawn(paper_list) == fresh(paper_list)  # what a fresh drawing shows
        assert paper_list.scroll_offset.y == top + 12
        row = paper_list.index_of(starred) - paper_list.scroll_offset.y
        assert "★" in drawn(paper_list)[row].text
