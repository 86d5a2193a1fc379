"""What a key does on a long list (ICLR's 2,260 papers), as a user sees it: a move of the cursor is
drawn in one frame with its paper in the detail pane (never a frame with the new row highlighted and
the old paper beside it); a count that keeps its width changes in place, and a star with "saving…" in
the header comes and goes, without laying the screen out; a
query's tab counts are over its hits, and stay right as papers inside and outside them are marked; a
mark on a row drawn earlier and scrolled away shows when the row comes back."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from textual.screen import Screen

from store.readers import read_path
from tests.waits import settled, until
from tests.test_views_app import header, tabs
from tui.app import TriageApp
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList
from tui.widgets.status import StatusLine
from tui.widgets.view_tabs import ViewTabs
from store.papers.text import title_display

SIZE = (120, 40)


@asynccontextmanager
async def graph_query(corpora) -> AsyncIterator[tuple]:
    """The ICLR list with the query `graph` typed and its results shown: (collection, app, pilot)."""
    collection = read_path(corpora / "iclr-2024-papers.jsonl")
    app = TriageApp(collection)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        await pilot.press("slash", *"graph")
        await settled(app, pilot)
        yield collection, app, pilot


async def test_each_move_is_drawn_with_its_paper_in_the_detail_pane(corpora, monkeypatch):
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        paper_list, detail = app.query_one(PaperList), app.query_one(DetailPane)
        frames: list[tuple[str, str]] = []
        drawn = Screen._compositor_refresh

        def drawing(screen: Screen) -> None:
            frames.append((title_display(paper_list.current.title).plain, detail.part("title").plain))
            drawn(screen)

        monkeypatch.setattr(Screen, "_compositor_refresh", drawing)
        for _ in range(45):  # past the bottom of the screen: the list scrolls too
            await pilot.press("j")
        await pilot.press("k", "G", "g")
        await pilot.pause()
        assert paper_list.cursor == 0 and len(frames) >= 48
        assert [cursor for cursor, shown in frames if cursor != shown] == []


async def test_counts_that_keep_their_width_change_in_place(corpora, monkeypatch):
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        layouts = []
        laid_out = Screen._refresh_layout

        def laying_out(screen: Screen, *args, **kwargs) -> None:
            layouts.append(screen)
            laid_out(screen, *args, **kwargs)

        monkeypatch.setattr(Screen, "_refresh_layout", laying_out)
        await pilot.press("s")  # "saving…" comes and goes in the room the header keeps for it at 120 columns
        await until(pilot, lambda: not app.saving)
        await settled(app, pilot)
        assert "Starred 1" in tabs(app) and "1 ★" in header(app)
        assert layouts == []
        status, view_tabs = app.query_one(StatusLine), app.query_one(ViewTabs)
        status.show(shown=2260, total=2260, unread=2259, starred=1, prioritised=0, read=1)
        view_tabs.set_counts({"all": 2260, "unread": 2259, "starred": 1, "prioritised": 0}, 2260)
        await pilot.pause()
        assert "Starred 1" in tabs(app) and "2259 unread · 1 ★" in header(app)
        assert layouts == []  # each count is as wide as before: repainted where it is, nothing laid out
        view_tabs.set_counts({"all": 2260, "unread": 2259, "starred": 10, "prioritised": 0}, 2260)
        await pilot.pause()
        assert "Starred 10" in tabs(app) and layouts  # a wider tab moves those after it: laid out


async def test_a_querys_counts_are_over_its_hits_as_papers_are_marked(corpora):
    async with graph_query(corpora) as (collection, app, pilot):
        await pilot.press("enter")
        hits = list(app.query_one(PaperList).papers)
        assert 50 < len(hits) < len(collection.papers)
        assert tabs(app) == f"[All {len(hits)}] · Unread {len(hits)} · Starred 0 · Prioritised 0"
        await pilot.press("s", "j", "2", "j", "r")
        await settled(app, pilot)
        assert tabs(app) == f"[All {len(hits)}] · Unread {len(hits) - 1} · Starred 1 · Prioritised 1"
        outside = next(paper for paper in collection.papers if paper not in hits)
        app.change({outside.id: replace(app.state_of(outside.id), starred=True, priority=1)})
        await settled(app, pilot)
        assert tabs(app) == f"[All {len(hits)}] · Unread {len(hits) - 1} · Starred 1 · Prioritised 1"
        assert header(app).endswith(f"{len(hits)} of {len(collection.papers)} shown · {len(hits) - 1} unread"
                                    " · 1 ★ · 1 prioritised")


async def test_a_mark_on_a_row_scrolled_away_shows_when_it_comes_back(corpora):
    collection = read_path(corpora / "iclr-2024-papers.jsonl")
    app = TriageApp(collection)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app, pilot)
        paper_list = app.query_one(PaperList)
        paper_list.cursor = 1200
        await pilot.pause()
        top = paper_list.scroll_offset.y
        row = 1203 - top  # a row drawn now, below the cursor
        assert paper_list.render_line(row).text[2] == " "
        paper_list.cursor = 100  # far away: row 1203 is no longer on screen
        await pilot.pause()
        paper = collection.papers[1203]
        app.change({paper.id: replace(app.state_of(paper.id), starred=True, priority=3)})
        await settled(app, pilot)
        paper_list.cursor = 1200
        await pilot.pause()
        assert paper_list.scroll_offset.y == top
        assert paper_list.render_line(row).text[2:4] == "★3"


def matched_text(paper_list: PaperList, row: int) -> str:
    """The letters drawn in the search's match colours on screen row `row` of the list."""
    match = paper_list.get_component_rich_style("paper-list--match", partial=True)
    return "".join(segment.text for segment in paper_list.render_line(row) if segment.style and segment.style.bgcolor == match.bgcolor)


async def test_a_querys_rows_far_down_are_its_hits_marked_and_highlighted(corpora):
    async with graph_query(corpora) as (collection, app, pilot):
        await pilot.press("enter", "G")
        await settled(app, pilot)
        paper_list, hits = app.query_one(PaperList), app._hits
        papers = hits.papers
        assert 50 < len(papers) < len(collection.papers) and paper_list.current is papers[-1]
        assert paper_list.papers[-3:] == papers[-3:] and [paper_list.papers[k] for k in (-1, 0)] == [papers[-1], papers[0]]
        # the lowest-ranked hit with "graph" early in its title (the row shows its first 50 letters or so)
        far = max(k for k, hit in enumerate(hits) if any(start < 30 for start, _ in hit.spans(title_display(hit.paper.title).plain)))
        assert far > SIZE[1]
        paper_list.cursor = far + 1
        await pilot.press("k", "s", "r", "j")  # starred and read: the row above the cursor
        await settled(app, pilot)
        assert app.query_one(DetailPane).part("title").plain == title_display(papers[far + 1].title).plain
        row = far - paper_list.scroll_offset.y
        drawn = paper_list.render_line(row).text
        assert drawn[1:3] == " ★" and title_display(papers[far].title).plain[:40] in drawn
        assert "graph" in matched_text(paper_list, row).lower()
        await pilot.press("v")  # the Unread view of the query's hits: all but the one read
        await settled(app, pilot)
        assert list(paper_list.papers) == [paper for paper in papers if paper is not papers[far]]
        # a paper below the one read, now a row higher: its own abstract's matches are marked
        below = next(k for k in range(far + 1, len(papers)) if hits[k].text_spans)
        paper_list.cursor = below - 1
        await pilot.pause()
        body = app.query_one(DetailPane).part("body")
        assert paper_list.current is papers[below] and body.plain.startswith(papers[below].plain[:40])
        marks = [(span.start, span.end) for span in body.spans if "warning" in str(span.style)]
        assert marks and marks == [(start, min(end, len(body.plain))) for start, end in hits[below].text_spans if start < len(body.plain)]
        assert tabs(app).startswith(f"All {len(papers)} · [Unread {len(papers) - 1}] · Starred 1")
