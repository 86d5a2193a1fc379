"""The list's rows after `set_papers` (which no longer indexes every row up front): at a scrolled
position of the ICLR list, a new set of papers shows the right rows around the kept cursor, a mark
on a scrolled row redraws that row, and a list longer or shorter than the screen scrolls as before."""
from __future__ import annotations

from store import read_path
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList


def screen_rows(paper_list: PaperList) -> list[str]:
    height = paper_list.scrollable_content_region.height
    return [paper_list.render_line(y).text for y in range(height)]


def shows(row: str, title: str) -> bool:
    """Whether a row (marks in its first 4 cells, then a space) shows the start of `title`, cut to fit."""
    start = row[5:].rstrip().removesuffix("…").rstrip()
    return len(start) > 10 and title.startswith(start)


def expected(paper_list: PaperList) -> list[str]:
    """The titles of the rows on screen, in order."""
    top = paper_list.scroll_offset.y
    height = paper_list.scrollable_content_region.height
    return [paper.title for paper in paper_list.papers[top : top + height]]


async def test_a_new_set_of_papers_at_a_scrolled_position_shows_the_kept_paper_and_its_neighbours(corpora):
    collection = read_path(corpora / "iclr-2024-papers.jsonl")
    app = TriageApp(collection)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        paper_list = app.query_one(PaperList)
        paper_list.cursor = 1500
        await pilot.pause()
        subset = collection.papers[::3]
        keep = collection.papers[1500]
        paper_list.set_papers(subset, keep=keep.id)
        await pilot.pause()
        assert paper_list.current == keep and paper_list.cursor == 500
        top = paper_list.scroll_offset.y
        assert top <= 500 < top + paper_list.scrollable_content_region.height
        rows = screen_rows(paper_list)
        assert len(rows) > 20 and all(shows(text, title) for text, title in zip(rows, expected(paper_list), strict=True))
        assert paper_list.index_of(collection.papers[1503].id) == 501
        assert paper_list.index_of(collection.papers[1501].id) is None

        await pilot.press("s")  # a star on the cursor's (scrolled) row shows on that row
        await pilot.pause()
        row = paper_list.render_line(500 - top).text
        assert row[2] == "★", row

        paper_list.set_papers(subset[:10])  # shorter than the screen: from the top, no scrolling
        await pilot.pause()
        assert paper_list.cursor == 0 and paper_list.scroll_offset.y == 0
        assert paper_list.virtual_size.height == 10 and not paper_list.show_vertical_scrollbar
        paper_list.set_papers(subset)  # longer again: the scrollbar is back
        await pilot.pause()
        assert paper_list.virtual_size.height == len(subset) and paper_list.show_vertical_scrollbar
        paper_list.cursor = len(subset) - 1
        await pilot.pause()
        assert shows(screen_rows(paper_list)[-1], subset[-1].title)
