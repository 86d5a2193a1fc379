"""The list as a researcher meets it on the ICLR list (2,260 papers), in a Pilot: the boolean words of the
query, esc clearing the filter, "more like this" under a query, vim keys in the detail pane, the first-run
hint, and a layout that shows titles and first authors at 120 columns."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

from store.papers.text import title_display
from store.readers import read_path
from store.search.views import surname
from tests.waits import settled, until
from tui.app import TriageApp
from tui.interest import shortly
from tui.widgets.detail import DetailPane
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList
from tui.widgets.status import StatusLine


@asynccontextmanager
async def iclr(corpora, size: tuple[int, int] = (120, 40)) -> AsyncIterator[tuple[TriageApp, object]]:
    """The ICLR list open and indexed: (app, pilot)."""
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=size) as pilot:
        await settled(app, pilot)
        yield app, pilot


async def typed(app: TriageApp, pilot, query: str) -> list[str]:
    """The ids the list shows for `query` typed in the filter bar (cleared first)."""
    await pilot.press("slash")
    app.query_one(FilterBar).input.value = ""
    await pilot.press(*query)
    await settled(app, pilot)
    return [paper.id for paper in app.query_one(PaperList).papers]


async def test_upper_case_and_or_not_filter_as_their_symbols_do(corpora):
    async with iclr(corpora) as (app, pilot):
        for spelled, meant in (("llm AND agent", "llm agent"), ("llm OR agent", "llm | agent"), ("NOT graph", "-graph")):
            assert await typed(app, pilot, spelled) == await typed(app, pilot, meant), spelled
        assert len(await typed(app, pilot, "llm OR agent")) > 400


def footer(app: TriageApp) -> list[tuple[str, str]]:
    """The footer's keys as (key, description) pairs."""
    return [(key.key_display, key.description) for key in app.query_one(Footer).query(FooterKey)]


async def test_esc_on_a_scrolled_filtered_list_clears_the_filter_and_the_footer_says_so(corpora):
    async with iclr(corpora) as (app, pilot):
        await typed(app, pilot, "graph")
        await pilot.press("enter", "ctrl+f", "ctrl+f", "ctrl+f", "j")  # well past the first screen
        paper_list = app.query_one(PaperList)
        paper = paper_list.current
        assert ("esc", "Clear filter") in footer(app) and paper_list.cursor > 100
        await pilot.press("escape")
        await until(pilot, lambda: len(paper_list.papers) == 2260)
        assert app.query_one(FilterBar).value == "" and app.focused is paper_list
        assert paper_list.current is paper  # still on the paper it was on
        assert ("esc", "Clear filter") not in footer(app)


async def test_more_like_this_under_a_query_says_whose_and_sets_the_query_count_aside(corpora):
    async with iclr(corpora) as (app, pilot):
        matched = len(await typed(app, pilot, "graph"))
        await pilot.press("enter", "j", "j")
        paper = app.query_one(PaperList).current
        count = app.query_one("#filter-count", Static)
        colour = count.rich_style.color
        await pilot.press("m")
        await until(pilot, lambda: app._similar is not None)
        await settled(app, pilot)
        header = app.query_one(StatusLine).text
        assert f"30 like {shortly(paper)}" in header and "of 2260 shown" not in header
        assert str(count.content).startswith(f"{matched} of 2260") and "not shown" in str(count.content)
        assert count.rich_style.color != colour  # greyed
        await pilot.press("escape")  # back to the query's matches
        await until(pilot, lambda: app._similar is None)
        assert f"{matched} of 2260 shown" in app.query_one(StatusLine).text
        assert str(count.content) == f"{matched} of 2260" and count.rich_style.color == colour


async def test_g_and_G_in_the_focused_detail_pane_go_to_its_top_and_bottom(corpora):
    async with iclr(corpora, size=(80, 24)) as (app, pilot):
        await pilot.press("ctrl+f", "ctrl+f", "enter")  # read an abstract further down the list
        detail, paper_list = app.query_one(DetailPane), app.query_one(PaperList)
        cursor = paper_list.cursor
        await until(pilot, lambda: app.focused is detail and detail.max_scroll_y > 0)
        await pilot.press("G")
        await until(pilot, lambda: detail.scroll_y == detail.max_scroll_y)
        await pilot.press("g")
        await until(pilot, lambda: detail.scroll_y == 0)
        assert paper_list.cursor == cursor and app.focused is detail


def rows_shown(app: TriageApp) -> list[str]:
    """The list's rows as drawn on screen (scrolled where it is)."""
    paper_list = app.query_one(PaperList)
    return ["".join(segment.text for segment in paper_list.render_line(y)) for y in range(paper_list.size.height)]


async def test_at_120_columns_a_scrolled_list_shows_long_titles_and_first_authors_and_the_width_keys(corpora):
    async with iclr(corpora) as (app, pilot):
        await pilot.press("ctrl+f", "ctrl+f", "ctrl+f")  # well past the first screen
        paper_list = app.query_one(PaperList)
        top = paper_list.scroll_offset.y
        assert top > 60
        for y, row in enumerate(rows_shown(app)):
            paper = paper_list.papers[top + y]
            title = title_display(paper.title).plain
            assert title[:45] in row, row  # as long as before (~48 characters)
            assert row.rstrip().endswith(surname(paper.authors[0])[:14]), row  # the first author: no column before
        keys = [key for key, _ in footer(app)]
        assert {"<", ">", "z"} <= set(keys)
