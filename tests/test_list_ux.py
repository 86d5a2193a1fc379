"""The list as a researcher meets it on the ICLR list (2,260 papers), in a Pilot: the boolean words of the
query, esc clearing the filter, "more like this" under a query, vim keys in the detail pane, the first-run
hint, and a layout that shows titles and first authors at 120 columns."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from store.readers import read_path
from tests.test_keys_on_a_long_list import settle
from tui.app import TriageApp
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList


@asynccontextmanager
async def iclr(corpora, size: tuple[int, int] = (120, 40)) -> AsyncIterator[tuple[TriageApp, object]]:
    """The ICLR list open and indexed: (app, pilot)."""
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        yield app, pilot


async def typed(app: TriageApp, pilot, query: str) -> list[str]:
    """The ids the list shows for `query` typed in the filter bar (cleared first)."""
    await pilot.press("slash")
    app.query_one(FilterBar).input.value = ""
    await pilot.press(*query)
    await settle(app, pilot)
    return [paper.id for paper in app.query_one(PaperList).papers]


async def test_upper_case_and_or_not_filter_as_their_symbols_do(corpora):
    async with iclr(corpora) as (app, pilot):
        for spelled, meant in (("llm AND agent", "llm agent"), ("llm OR agent", "llm | agent"), ("NOT graph", "-graph")):
            assert await typed(app, pilot, spelled) == await typed(app, pilot, meant), spelled
        assert len(await typed(app, pilot, "llm OR agent")) > 400
