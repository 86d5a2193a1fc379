"""The list's rows in every built-in theme: a read title recedes behind an unread one, and the marks on
the cursor row can be read against the cursor."""
from __future__ import annotations

from rich.segment import Segment

from store.papers.model import Triage
from store.readers import read_path
from tui.app import TriageApp
from tui.contrast import contrast
from tui.widgets.paper_list import PaperList


def segment_with(paper_list: PaperList, row: int, text: str) -> Segment:
    """The segment of list row `row` that holds `text`, as the screen shows it (after the app's filters)."""
    strip = paper_list.screen._compositor.render_strips()[paper_list.region.y + row]
    return next(segment for segment in strip if text in segment.text)


async def test_read_titles_recede_and_cursor_marks_stay_legible_in_every_theme(tmp_path, seed_path):
    collection = read_path(seed_path)
    read, unread, marked, dismissed = collection.papers[:4]
    app = TriageApp(collection, str(tmp_path / "db.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.change({read.id: Triage(read=True), marked.id: Triage(starred=True, priority=1),
                    dismissed.id: Triage(dismissed=True)})
        paper_list = app.query_one(PaperList)
        paper_list.cursor = 2
        await pilot.pause()
        checked = []
        for theme in sorted(app.available_themes):
            app.theme = theme
            await pilot.pause()
            read_title = segment_with(paper_list, 0, read.title[:10]).style
            unread_title = segment_with(paper_list, 1, unread.title[:10]).style
            digit = segment_with(paper_list, 2, "1").style
            if read_title.color is None or read_title.color.is_default:  # the terminal's own colours
                assert read_title.dim and not unread_title.dim, theme
                continue
            background = read_title.bgcolor
            assert segment_with(paper_list, 3, "✗").style.color == read_title.color, theme  # faded, not #ffffff
            assert contrast(read_title.color, background) < contrast(unread_title.color, background) / 1.5, theme
            cursor_title = segment_with(paper_list, 2, marked.title[:10]).style
            # As legible as the theme's own text on the cursor (gruvbox's is 2.4), and at least 3 where that is.
            assert contrast(digit.color, digit.bgcolor) >= min(3, contrast(cursor_title.color, cursor_title.bgcolor)), theme
            checked.append(theme)
        assert "textual-dark" in checked and "textual-light" in checked and len(checked) >= 15
