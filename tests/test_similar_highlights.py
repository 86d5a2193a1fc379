""""More like this" with a query typed: each row, in the list and in the detail pane, marks only what the
query matched in that row's own title and text (Pilot, on the ICLR list)."""
from __future__ import annotations

import re

from store.readers import read_path
from tui.app import TriageApp
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList
from tui.widgets.view_tabs import ViewTabs

QUERY = "transformer"


def marked(app: TriageApp, part: str) -> list[str]:
    """The pieces of a part of the detail pane marked as matches."""
    content = app.query_one(DetailPane).part(part)
    return [content.plain[s.start:s.end] for s in content.spans if "warning" in str(s.style)]


def row_marks(paper_list: PaperList, y: int) -> list[str]:
    """The words on screen line `y` of the list drawn bold (a match; the marks are glyphs)."""
    return [segment.text for segment in paper_list.render_line(y)
            if segment.style and segment.style.bold and re.search(r"[A-Za-z]", segment.text)]


def a_match(piece: str) -> bool:
    """What `transformer` marks: the start of a word like it, in any case (transformer, Transformers,
    transformed, INTR's TRansformer…), or of it cut with an ellipsis where the pane ends (`trans…`)."""
    cut = piece.endswith("…") and "transformer".startswith(piece[:-1].lower())
    return cut or bool(re.fullmatch(r"transf\w*", piece, re.IGNORECASE))


async def settle(app: TriageApp, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_more_like_this_under_a_query_marks_each_rows_own_matches(corpora, tmp_path):
    app = TriageApp(read_path(corpora / "iclr-2024-abstracts.txt"), str(tmp_path / "db.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *QUERY, "enter")
        await settle(app, pilot)
        paper_list = app.query_one(PaperList)
        hits = {paper.id for paper in paper_list.papers}
        assert len(hits) > 100
        await pilot.press(*"j" * 40)  # a paper far down the matches: the list scrolled
        await settle(app, pilot)
        await pilot.press("m")
        await settle(app, pilot)
        assert str(app.query_one(ViewTabs).query_one("#sort-name").content).startswith("more like")
        rows = list(paper_list.papers)
        assert any(p.id in hits for p in rows) and any(p.id not in hits for p in rows), "some similar papers match, some not"
        for row, paper in enumerate(rows):
            paper_list.cursor = row
            await pilot.pause()
            assert app.query_one(DetailPane).part("title").plain.startswith(paper.title[:20])
            pieces = marked(app, "title") + marked(app, "body") + marked(app, "context")
            assert all(a_match(piece) for piece in pieces), (row, paper.title, pieces)
            if paper.id in hits:
                assert pieces, (row, paper.title)
            else:
                assert not pieces, (row, paper.title, pieces)
            y = row - paper_list.scroll_offset.y
            shown = row_marks(paper_list, y)
            assert all(a_match(piece) for piece in shown), (row, paper.title, shown)
            on_screen = paper_list.render_line(y).text  # (a long title is cut at the list's width)
            assert bool(shown) == (any(map(a_match, re.findall(r"\w+…?", on_screen))) and paper.id in hits), (row, on_screen, shown)
