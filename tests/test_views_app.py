"""Views, sorts, the header line, the palette and session restore in a Pilot, on the seed list."""
from __future__ import annotations

from textual.command import CommandInput, CommandList, CommandPalette
from textual.widgets import Input, ProgressBar, Static

from store.cite import citations as cite
from store.readers import read_path
from tests.waits import until
from tui.app import TriageApp
from tui.widgets.status import StatusLine
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList
from tui.widgets.view_tabs import ViewTab

SIZE = (120, 40)


def shown_ids(app: TriageApp) -> list[str]:
    return [paper.id for paper in app.query_one(PaperList).papers]


def tabs(app: TriageApp) -> str:
    """The tab bar as read: "All 19 · Unread 17 · …", the active tab in brackets."""
    return " · ".join(
        f"[{tab.content}]" if tab.has_class("-active") else str(tab.content) for tab in app.query(ViewTab)
    )


def header(app: TriageApp) -> str:
    return app.query_one(StatusLine).text


async def press(pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


async def mark_some(pilot) -> None:
    """Paper 0 starred, paper 1 read with priority 2, paper 3 priority 1."""
    await press(pilot, "s", "j", "r", "2", "j", "j", "1", "g")


async def test_v_cycles_the_views_and_the_tabs_count_live(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert tabs(app) == "[All 19] · Unread 19 · Starred 0 · Prioritised 0"
        await mark_some(pilot)
        assert tabs(app) == "[All 19] · Unread 18 · Starred 1 · Prioritised 2"
        assert header(app) == "ICLR 2024 sample · 19 of 19 shown · 18 unread · 1 ★ · 2 prioritised"
        await press(pilot, "v")
        assert tabs(app).startswith("All 19 · [Unread 18]")
        assert papers[1].id not in shown_ids(app) and len(shown_ids(app)) == 18
        await press(pilot, "v")
        assert shown_ids(app) == [papers[0].id]
        assert header(app) == "ICLR 2024 sample · 1 of 19 shown · 1 unread · 1 ★ · 0 prioritised"
        await press(pilot, "v")
        assert shown_ids(app) == [papers[1].id, papers[3].id]
        await press(pilot, "v")
        assert len(shown_ids(app)) == 19


async def test_clicking_a_tab_selects_its_view(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await mark_some(pilot)
        await pilot.click("#view-starred")
        await pilot.pause()
        assert app.view == "starred" and shown_ids(app) == [papers[0].id]


async def test_S_cycles_the_sorts_and_the_tab_bar_names_the_sort(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await mark_some(pilot)
        sort_name = app.query_one("#sort-name", Static)
        assert str(sort_name.content) == "sorted by file order"
        await press(pilot, "S")
        assert str(sort_name.content) == "sorted by priority"
        assert shown_ids(app)[:3] == [papers[3].id, papers[1].id, papers[0].id]
        await press(pilot, "S")
        assert shown_ids(app)[0] == papers[0].id and str(sort_name.content) == "sorted by starred first"
        await press(pilot, "S")
        assert shown_ids(app)[:3] == [papers[3].id, papers[1].id, papers[0].id]  # the last marked first
        assert str(sort_name.content) == "sorted by recently changed"
        await press(pilot, "S")
        assert str(sort_name.content) == "sorted by new first"
        await press(pilot, "S")
        await until(pilot, lambda: str(sort_name.content) == "sorted by for you")  # 3 starred or priority 1–2
        assert all(app.state_of(pid).blank for pid in shown_ids(app)[:15])  # the unmarked papers first
        await press(pilot, "S")
        assert str(sort_name.content) == "sorted by suggested" and shown_ids(app)[0] == app._ranking.suggested[0]
        for name in ("title", "first author", "year (newest first)", "track (oral first)", "session time"):
            await press(pilot, "S")
            assert str(sort_name.content) == f"sorted by {name}"
        await press(pilot, "S")
        assert str(sort_name.content) == "sorted by file order" and shown_ids(app) == [p.id for p in papers]


async def test_the_cursor_stays_on_its_paper_across_views_and_sorts(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await mark_some(pilot)
        await press(pilot, "j", "j", "j")
        assert app.query_one(PaperList).current == papers[3]
        for keys in (("S",), ("v", "v", "v"), ("S", "S")):
            await press(pilot, *keys)
            assert app.query_one(PaperList).current == papers[3]


async def test_the_progress_bar_counts_papers_read_of_all(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "r", "j", "r", "j", "r")
        bar = app.query_one(ProgressBar)
        assert (bar.progress, bar.total) == (3, 19)
        assert str(app.query_one("#status-read", Static).content) == "3 read"
        await press(pilot, "v", "v")  # the Starred view shows none; the bar still counts all papers
        assert bar.progress == 3 and "0 of 19 shown" in header(app)


async def palette(pilot, command: str) -> None:
    """Run `command` from the palette: open it, type, take the best match, back on the main screen."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    app.screen.query_one(CommandInput).value = command  # as if typed, searched once

    def best_match_found() -> bool:
        options = app.screen.query_one(CommandList)
        return options.option_count > 0 and command in str(options.get_option_at_index(0).prompt).lower()

    await until(pilot, best_match_found)
    await press(pilot, "enter")
    await until(pilot, lambda: app.screen is app.default_screen)
    await pilot.pause()


async def test_palette_commands_star_prioritise_view_sort_copy_and_filter(seed_path, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)  # no clipboard tool: the copy goes by OSC 52, into app.clipboard
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await palette(pilot, "toggle star")
        assert app.states[papers[0].id].starred
        await palette(pilot, "priority 3")
        assert app.states[papers[0].id].priority == 3
        await palette(pilot, "view: starred")
        assert app.view == "starred" and shown_ids(app) == [papers[0].id]
        await palette(pilot, "sort by recently changed")
        assert app.sort == "recent"
        await palette(pilot, "undo")
        assert app.states[papers[0].id].priority == 0
        await palette(pilot, "copy as markdown")
        await app.workers.wait_for_complete()
        assert app.clipboard == cite.markdown(papers[0]) + "\n"
        await palette(pilot, "filter the list")
        assert isinstance(app.focused, Input) and app.focused.id == "filter-input"


async def test_view_sort_cursor_and_theme_come_back_after_a_restart(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await mark_some(pilot)
        await press(pilot, "S", "v", "v", "v", "j")  # priority sort, Prioritised view: papers 3 then 1
        app.theme = "nord"
        await pilot.pause()
        assert app.query_one(PaperList).current == papers[1]
    again = TriageApp(read_path(seed_path))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert (again.view, again.sort, again.theme) == ("prioritised", "priority", "nord")
        assert again.query_one(PaperList).current == papers[1]
        assert "[Prioritised 2]" in tabs(again)


async def test_a_first_run_starts_at_the_top_and_a_session_is_per_source_file(seed_path, tmp_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "G", "v")
    other = tmp_path / "other.txt"
    other.write_text(seed_path.read_text(encoding="utf-8"), encoding="utf-8")
    fresh = TriageApp(read_path(other))
    async with fresh.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert fresh.view == "all" and fresh.query_one(PaperList).cursor == 0


async def searched(app: TriageApp, pilot, query: str) -> None:
    """Press `/`, type `query`, wait for its results, back to the list."""
    await pilot.press("slash", *query)
    await app.workers.wait_for_complete()
    await press(pilot, "enter")


async def test_a_query_ranks_best_first_and_views_and_sorts_apply_to_its_matches(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await searched(app, pilot, "language")
        ranked = shown_ids(app)
        assert app.sort == "score" and len(ranked) > 3
        assert str(app.query_one("#sort-name", Static).content) == "sorted by match score"
        assert ranked != sorted(ranked, key=[p.id for p in papers].index)
        await press(pilot, "j", "s")  # star the second best match
        starred = ranked[1]
        assert tabs(app).startswith(f"[All {len(ranked)}]") and "Starred 1" in tabs(app)
        await press(pilot, "v", "v")
        assert shown_ids(app) == [starred]
        await press(pilot, "v", "v", "S")
        assert app.sort == "file" and shown_ids(app) == sorted(ranked, key=[p.id for p in papers].index)
        for _ in range(12):  # priority, starred, recent, new … suggested, title, author, year, track, session, then score
            await press(pilot, "S")
        assert app.sort == "score" and shown_ids(app) == ranked
        await press(pilot, "slash", "escape")  # clear the filter
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.sort == "file" and len(shown_ids(app)) == 19


async def test_the_query_and_the_paper_under_the_cursor_come_back(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=SIZE) as pilot:
        await searched(app, pilot, "language")
        await press(pilot, "j", "j")
        chosen = app.query_one(PaperList).current
    again = TriageApp(read_path(seed_path))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await again.workers.wait_for_complete()
        await pilot.pause()
        assert again.query_one(FilterBar).value == "language"
        assert again.query_one(PaperList).current == chosen
        assert again.sort == "score"
