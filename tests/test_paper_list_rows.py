"""The list's rows after `set_papers` (which no longer indexes every row up front): at a scrolled
position of the ICLR list, a new set of papers shows the right rows around the kept cursor, a mark
on a scrolled row redraws that row, and a list longer or shorter than the screen scrolls as before."""
from __future__ import annotations

import re

from store.readers import read_path
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList


def screen_rows(paper_list: PaperList) -> list[str]:
    height = paper_list.scrollable_content_region.height
    return [paper_list.render_line(y).text for y in range(height)]


def shows(row: str, title: str) -> bool:
    """Whether a row (marks in its first 4 cells, then a space) shows the start of `title`, cut to fit (then
    an ellipsis), before the columns (the first author, two spaces or more after the title)."""
    start = re.split(r"…|\s{2,}", row[5:])[0].rstrip()
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


TITLES = [
    "图神经网络的图表示学习：一个很长的标题，它比列表的宽度更宽，所以必须在某处被截断才能显示",  # two cells a character
    "Graph ★ rankings • and ✗ marks in a title that runs on well past the room the list gives it",
    "Graph networks",
    "Ünïcödé gräph tïtlé thät ïs löng énöügh tö bé cüt whérévér thé röw énds ïn thé list",
]


async def test_rows_with_wide_or_mark_like_letters_keep_the_columns_in_line(tmp_path):
    import json

    from rich.cells import cell_len

    from store.papers.text import title_display

    source = tmp_path / "odd.jsonl"
    source.write_text("".join(json.dumps({"title": title, "abstract": f"About graphs, number {k}.", "authors": [f"Ada Lovelace{k}"]}) + "\n"
                              for k, title in enumerate(TITLES)), encoding="utf-8")
    app = TriageApp(read_path(source))
    async with app.run_test(size=(200, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        paper_list = app.query_one(PaperList)
        await pilot.press("s", "j")  # the first starred: its row's marks are "•★"
        await pilot.pause()
        width = paper_list.scrollable_content_region.width
        rows = [paper_list.render_line(y).text for y in range(len(TITLES))]
        assert all(cell_len(row) == width for row in rows), [cell_len(row) for row in rows]
        assert rows[0][1:3] == "•★" and rows[1][1:3] == "• "
        # the author column starts at the same cell in every row, each title cut with … just before it
        for row, title in zip(rows, TITLES):
            assert cell_len(row[: row.index("  Lovelace")]) == width - (14 + 2), row
            shown = row[5 : row.index("  Lovelace")].rstrip()
            assert shown == title_display(title).plain or (shown.endswith("…") and title.startswith(shown[:-1].rstrip())), row
