"""Help, palette, focus and scrolling: everything is reachable from the keyboard and discoverable."""
from __future__ import annotations

from textual.command import CommandPalette
from textual.events import MouseScrollDown
from textual.widgets import Static

from store.readers import read_path
from tests.waits import until
from tui.app import TriageApp
from tui.keys import declared_bindings, key_display
from tui.screens.help import HelpScreen
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList


def help_text(app: TriageApp) -> str:
    return "\n".join(str(group.content) for group in app.screen.query(".help-group").results(Static))


async def open_help(pilot, app: TriageApp) -> None:
    """Press `?` and wait until the help shows its keys: each column is filled at its first size, and
    laid out again at its new height (two refreshes after the screen opens, later on a loaded machine)."""
    await pilot.press("question_mark")

    def drawn() -> bool:
        columns = list(app.screen.query(".help-group").results(Static)) if isinstance(app.screen, HelpScreen) else []
        return bool(columns) and all(str(c.content) and c.size.height == len(str(c.content).splitlines()) for c in columns)

    await until(pilot, drawn)


async def test_question_mark_lists_every_key_and_esc_closes_it(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_help(pilot, app)
        text = help_text(app)
        bindings = list(declared_bindings(app))
        assert len(bindings) >= 12
        for _, binding in bindings:
            assert f"{key_display(app, binding)}" in text
            if not binding.action.startswith("priority("):  # the five share a row
                assert " ".join((binding.tooltip or binding.description).split()) in " ".join(text.split())  # wrapped
        assert "1 2 3 4 5  Priority 1 (highest) 2 (high) 3 (medium) 4" in text
        assert "Next paper" in text and "Read the abstract" in text
        syntax = str(app.screen.query_one("#help-syntax", Static).content)
        assert "is:starred" in syntax and "p<=2" in syntax
        assert all(q in syntax for q in ("author:\"Yoshua Bengio\"", "title:", "abstract:", "kw:", "area:", "track:"))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        assert app.focused is app.query_one(PaperList)


async def test_help_fits_and_scrolls_at_80x24(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_help(pilot, app)
        box = app.screen.query_one("#help-box")
        assert box.region.right <= 80 and box.region.bottom <= 24
        scroll = app.screen.query_one("#help-keys .help-scroll")
        await pilot.press("j", "j")
        await pilot.pause()
        assert scroll.scroll_y == 2
        for key in ("space", "pagedown"):
            before = scroll.scroll_y
            await pilot.press(key)
            await pilot.pause()
            assert scroll.scroll_y > before + 5  # a page
        await pilot.press("G")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y > 0
        await pilot.press("g")
        await pilot.pause()
        assert scroll.scroll_y == 0
        footnote = app.screen.query_one("#help-footnote")
        assert footnote.region.bottom <= 24 and "esc, q or ? closes" in str(footnote.content)


async def test_help_fits_120x40_without_scrolling_and_shows_the_query_syntax_on_a_tab(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_help(pilot, app)
        scroll = app.screen.query_one("#help-keys .help-scroll")
        assert scroll.max_scroll_y == 0 and scroll.virtual_size.height <= scroll.size.height  # every key in view
        assert "^p  Command palette: any action by name" in help_text(app)
        footnote = app.screen.query_one("#help-footnote")
        assert footnote.region.bottom <= 40 and "ctrl+p" in str(footnote.content)
        await pilot.press("tab")
        syntax = app.screen.query_one("#help-syntax", Static)
        await until(pilot, lambda: syntax.region.height > 0)
        assert "is:starred" in str(syntax.content)
        await pilot.press("tab")
        await until(pilot, lambda: syntax.region.height == 0)


async def test_palette_lists_app_actions_and_runs_them(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"help", "enter")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))


async def test_enter_reads_the_detail_and_h_or_esc_go_back(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(80, 24)) as pilot:
        detail = app.query_one(DetailPane)
        papers = app.query_one(PaperList)
        for go, back in (("enter", "h"), ("l", "escape")):
            await pilot.press(go)
            await pilot.pause()
            assert app.focused is detail
            await pilot.press("j", "j", "j")
            await pilot.pause()
            assert detail.scroll_y == 3
            assert papers.cursor == 0
            await pilot.press(back)
            await pilot.pause()
            assert app.focused is papers
            detail.scroll_home(animate=False)


async def test_detail_pages_while_the_list_keeps_focus(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        detail = app.query_one(DetailPane)
        papers = app.query_one(PaperList)
        assert detail.max_scroll_y > 0
        await pilot.press("ctrl+d")
        await pilot.pause()
        half = detail.scroll_y
        assert half > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert detail.scroll_y > half or detail.scroll_y == detail.max_scroll_y
        await pilot.press("pageup", "ctrl+u")
        await pilot.pause()
        assert detail.scroll_y == 0
        assert app.focused is papers and papers.cursor == 0
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert papers.cursor > 1


async def test_side_by_side_from_110_columns_stacked_below(seed_path):
    for width, stacked in ((110, False), (109, True), (80, True), (160, False)):
        app = TriageApp(read_path(seed_path))
        async with app.run_test(size=(width, 24)) as pilot:
            await pilot.pause()
            papers, detail = app.query_one(PaperList).region, app.query_one(DetailPane).region
            if stacked:
                assert detail.y >= papers.bottom and papers.width >= width - 1
                assert papers.height >= 5 and detail.height >= 8
            else:
                assert detail.x >= papers.right and papers.y == detail.y


async def test_scroll_wheel_and_click_work_on_the_list(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        papers = app.query_one(PaperList)
        for _ in range(3):
            papers.post_message(MouseScrollDown(papers, 5, 2, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert papers.scroll_y > 0
        await pilot.click(PaperList, offset=(5, 1))
        await pilot.pause()
        assert papers.cursor == papers.scroll_y + 1
