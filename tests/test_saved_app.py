"""Saved searches in the app (Pilot): `M` saves the query under a letter, `'` then the letter runs it,
the picker counts each one's matches, the palette runs and forgets them, and they outlive a restart."""
from __future__ import annotations

from textual.command import CommandInput, CommandList, CommandPalette
from textual.widgets import Input, OptionList

from store.search.engine import Engine
from store.readers import read_path
from store.marks import saved
from store.marks.db import TriageStore
from store.search.query import MAX_CHARS
from tests.test_views_app import palette, press, shown_ids
from tests.waits import told, until
from tui.app import TriageApp
from tui.screens.saved import SavedPicker, SaveSearch
from tui.widgets.filter_bar import FilterBar

SIZE = (120, 40)


async def type_text(pilot, text: str) -> None:
    await pilot.press(*("space" if c == " " else c for c in text))
    await pilot.pause()


async def query(pilot, text: str) -> None:
    """Type `text` after / and go back to the list once its matches are shown."""
    app = pilot.app
    await press(pilot, "slash", "ctrl+u")  # what was there goes
    await type_text(pilot, text)
    await press(pilot, "enter")
    await until(pilot, lambda: not app._results_pending())


async def save_as(pilot, name: str, letter: str) -> None:
    """`M`, a name, tab, a letter, enter: the dialog closes."""
    app = pilot.app
    await press(pilot, "M")
    await until(pilot, lambda: isinstance(app.screen, SaveSearch))
    await type_text(pilot, name)  # replaces the name offered (the query), which is selected
    await press(pilot, "tab")
    await type_text(pilot, letter)
    await press(pilot, "enter")
    await until(pilot, lambda: app.screen is app.default_screen)


async def save_queries(pilot, *searches: tuple[str, str, str]) -> None:
    """Save each (query, name, letter) with `M`, then clear the filter."""
    for text, name, letter in searches:
        await query(pilot, text)
        await save_as(pilot, name, letter)
    await press(pilot, "slash", "escape")


def picker_rows(app: TriageApp) -> list[str]:
    options = app.screen.query_one(OptionList)
    return [" ".join(str(options.get_option_at_index(i).prompt).split()) for i in range(options.option_count)]


async def test_save_a_query_clear_it_and_run_it_by_its_letter(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    matches = [paper.id for paper in Engine.of(papers).search("language model").papers]
    app = TriageApp(read_path(seed_path), db_path=str(tmp_path / "db.json"))
    async with app.run_test(size=SIZE) as pilot:
        await query(pilot, "language model")
        await save_as(pilot, "llm", "l")
        assert [(s.name, s.query, s.letter) for s in app.saved_searches] == [("llm", "language model", "l")]
        await press(pilot, "slash", "escape")  # clear the filter
        await until(pilot, lambda: len(shown_ids(app)) == len(papers))
        await press(pilot, "j", "j")
        await press(pilot, "apostrophe", "l")
        await until(pilot, lambda: app.query_one(FilterBar).value == "language model" and not app._results_pending())
        assert shown_ids(app) == matches and app.query_one("#papers").has_focus
        await press(pilot, "s")  # the keys after go to the list, on the best match
    assert app.store.path.exists()
    stored = TriageStore(tmp_path / "db.json")
    assert stored.get(matches[0]).starred
    assert [s.name for s in saved.load(stored)] == ["llm"]
    stored.close()


async def test_the_picker_counts_each_saved_search_and_recounts_on_opening(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    language = len(Engine.of(papers).search("language"))
    app = TriageApp(read_path(seed_path), db_path=str(tmp_path / "db.json"))
    async with app.run_test(size=SIZE) as pilot:
        await save_queries(pilot, ("language", "language", "a"), ("is:starred", "stars", "s"))
        await press(pilot, "s", "j", "s", "j", "j", "s")  # three starred
        await press(pilot, "apostrophe")
        await until(pilot, lambda: isinstance(app.screen, SavedPicker) and "…" not in " ".join(picker_rows(app)))
        assert picker_rows(app) == [f"a language {language} language", "s stars 3 is:starred"]
        await press(pilot, "escape")
        await press(pilot, "s")  # unstar the third
        await press(pilot, "apostrophe")
        await until(pilot, lambda: isinstance(app.screen, SavedPicker) and picker_rows(app)[1] == "s stars 2 is:starred")
        await press(pilot, "down", "enter")  # enter runs the one highlighted
        await until(pilot, lambda: app.query_one(FilterBar).value == "is:starred" and len(shown_ids(app)) == 2)


async def test_a_count_that_comes_as_the_picker_closes_is_dropped(seed_path, tmp_path):
    """A letter pressed while the picker still counts: it closes, its list goes first, and a count that comes then is
    dropped (the app ended with a traceback on it, NoMatches, in the tmux trial under load)."""
    app = TriageApp(read_path(seed_path), db_path=str(tmp_path / "db.json"))
    async with app.run_test(size=SIZE) as pilot:
        await save_queries(pilot, ("language", "language", "a"))
        await press(pilot, "apostrophe")
        await until(pilot, lambda: isinstance(app.screen, SavedPicker))
        picker = app.screen
        await picker.query_one(OptionList).remove()  # (as the picker's closing removes its widgets)
        picker._show_count(app.saved_searches.named("language"), 5)
        await press(pilot, "escape")
        await until(pilot, lambda: not isinstance(app.screen, SavedPicker))
    assert app.return_code in (0, None)


async def test_saved_searches_come_back_after_a_restart_and_the_palette_runs_and_forgets_them(seed_path, tmp_path):
    db = str(tmp_path / "db.json")
    papers = read_path(seed_path).papers
    matches = [paper.id for paper in Engine.of(papers).search("graph").papers]
    first = TriageApp(read_path(seed_path), db_path=db)
    async with first.run_test(size=SIZE) as pilot:
        await save_queries(pilot, ("graph", "graphs", "g"), ("diffusion", "diffusion", "d"))

    second = TriageApp(read_path(seed_path), db_path=db)  # a restart on the same database
    async with second.run_test(size=SIZE) as pilot:
        assert [s.name for s in second.saved_searches] == ["diffusion", "graphs"]
        await press(pilot, "apostrophe", "g")
        await until(pilot, lambda: second.query_one(FilterBar).value == "graph" and shown_ids(second) == matches)
        await palette(pilot, "search: diffusion (diffusion)")
        await until(pilot, lambda: second.query_one(FilterBar).value == "diffusion")
        await palette(pilot, "forget saved search: graphs")
        assert [s.name for s in second.saved_searches] == ["diffusion"]
    store = TriageStore(db)
    assert [s.name for s in saved.load(store)] == ["diffusion"]
    store.close()


async def test_the_dialog_offers_the_saved_name_refuses_no_letter_and_M_without_a_query_says_so(seed_path, tmp_path):
    app = TriageApp(read_path(seed_path), db_path=str(tmp_path / "db.json"))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "M")
        assert app.screen is app.default_screen
        await until(pilot, lambda: any("No query to save" in str(n.message) for n in told(app)))
        await query(pilot, "graph")
        await save_as(pilot, "graphs", "g")
        await press(pilot, "M")
        await until(pilot, lambda: isinstance(app.screen, SaveSearch))
        assert [i.value for i in app.screen.query(Input)] == ["graphs", "g"]  # the search saved for this query
        await press(pilot, "tab", "backspace", "enter")
        assert isinstance(app.screen, SaveSearch)  # no letter: not saved
        assert "The letter must be one of a–z" in str(app.screen.query_one("#saved-hint").content)
        await press(pilot, "escape")
        assert [(s.name, s.letter) for s in app.saved_searches] == [("graphs", "g")]


async def test_bad_stored_searches_are_a_notice_and_the_good_ones_run(seed_path, tmp_path):
    db = tmp_path / "db.json"
    store = TriageStore(db)
    store.put_setting(saved.KEY, {"searches": {
        "graphs": {"query": "graph", "letter": "g"},
        "[@click=app.quit]x": {"query": "[b]bold[/b]", "letter": "7"},
        "broken": "graph",
    }})
    store.close()
    app = TriageApp(read_path(seed_path), db_path=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(told(app)) >= 2)
        notices = [str(n.message) for n in told(app)]
        assert "Saved search '[@click=app.quit]x' skipped: the letter must be one of a–z" in notices
        assert "Saved search 'broken' skipped: it is not a query with a letter" in notices
        await press(pilot, "apostrophe", "g")
        await until(pilot, lambda: app.query_one(FilterBar).value == "graph")


async def test_a_saved_search_named_like_markup_is_shown_as_written_in_the_palette_and_picker(seed_path, tmp_path):
    db = tmp_path / "db.json"
    store = TriageStore(db)
    store.put_setting(saved.KEY, {"searches": {"[@click=app.quit]q": {"query": "graph [b]x[/b]", "letter": "q"}}})
    store.close()
    app = TriageApp(read_path(seed_path), db_path=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        app.screen.query_one(CommandInput).value = "search: [@click"

        def prompts() -> list[str]:
            options = app.screen.query_one(CommandList)
            return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

        await until(pilot, lambda: any("Search: [@click=app.quit]q (graph [b]x[/b])" in p for p in prompts()))
        await press(pilot, "escape")
        await until(pilot, lambda: app.screen is app.default_screen)
        await press(pilot, "apostrophe")
        await until(pilot, lambda: isinstance(app.screen, SavedPicker) and "…" not in " ".join(picker_rows(app)))
        assert picker_rows(app)[0].startswith("q [@click=app.quit]q ") and picker_rows(app)[0].endswith(" graph [b]x[/b]")
        await press(pilot, "q")  # runs it: the app does not quit
        await until(pilot, lambda: app.query_one(FilterBar).value == "graph [b]x[/b]")
        assert app.is_running


async def test_on_the_long_real_list_a_saved_search_runs_from_far_down_and_counts_its_matches(corpora, tmp_path):
    iclr = read_path(corpora / "iclr-2024-papers.jsonl")
    index = Engine.of(iclr.papers)
    db = tmp_path / "db.json"
    store = TriageStore(db)
    store.put_setting(saved.KEY, {"searches": {
        "diffusion": {"query": "diffusion -video", "letter": "d"},
        "starred": {"query": "is:starred", "letter": "s"},
    }})
    store.close()
    app = TriageApp(iclr, db_path=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "G", "s", "k", "s")  # the last two papers starred, far down the list
        await until(pilot, lambda: app.query_one("#papers").cursor == len(iclr.papers) - 2)
        await press(pilot, "apostrophe")
        await until(pilot, lambda: isinstance(app.screen, SavedPicker) and "…" not in " ".join(picker_rows(app)))
        assert picker_rows(app) == [f"d diffusion {len(index.search('diffusion -video'))} diffusion -video", "s starred 2 is:starred"]
        await press(pilot, "d")
        matches = [paper.id for paper in index.search("diffusion -video").papers]
        await until(pilot, lambda: shown_ids(app) == matches)
        assert app.query_one("#papers").cursor == 0  # the best match first, under the cursor
        assert 50 < len(matches) < len(iclr.papers)


async def test_a_huge_saved_query_is_too_long_in_the_picker_and_the_filter_bar_and_nothing_stalls(seed_path, tmp_path):
    db = tmp_path / "db.json"
    huge = "|".join(["a"] * 600_000)  # 1.2 MB: counting it term by term took minutes
    store = TriageStore(db)
    store.put_setting(saved.KEY, {"searches": {"huge": {"query": huge, "letter": "h"},
                                               "graphs": {"query": "graph", "letter": "g"}}})
    store.close()
    graphs = len(Engine.of(read_path(seed_path).papers).search("graph"))
    app = TriageApp(read_path(seed_path), db_path=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "apostrophe")
        await until(pilot, lambda: isinstance(app.screen, SavedPicker) and " … " not in " ".join(picker_rows(app)))
        [graph_row, huge_row] = picker_rows(app)
        assert graph_row == f"g graphs {graphs} graph"
        assert huge_row.startswith("h huge too long a|a|a") and len(huge_row) < 400
        await press(pilot, "h")  # runs it: the filter bar says why it matches nothing
        await until(pilot, lambda: not app._results_pending() and app.query_one(FilterBar).value == huge)
        hint = str(app.query_one("#filter-hint").content)
        assert hint == f"too long: {len(huge):,} characters (at most {MAX_CHARS:,})"
        assert shown_ids(app) == []
