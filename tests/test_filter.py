"""The filter bar in a Pilot: results per keystroke, highlights, count, hint, esc and enter, newest query wins."""
from __future__ import annotations

import threading

from textual.widgets import Input, Static

from store.search.engine import Engine
from store.readers import read_path
from store.readers import engine_cache
from store.readers.engine_cache import engine_for
from tests.waits import until
from tui.app import TriageApp
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList
from tui.widgets.view_tabs import ViewTab

CDRL, SCL = "b0630d65dd", "38521038a2"


def shown(app: TriageApp) -> list[str]:
    return [paper.id for paper in app.query_one(PaperList).papers]


def text_of(app: TriageApp, widget_id: str) -> str:
    return str(app.query_one(f"#{widget_id}", Static).content)


def marked(app: TriageApp, part: str) -> list[str]:
    """The pieces of a part of the detail pane marked as matches."""
    content = app.query_one(DetailPane).part(part)
    return [content.plain[span.start : span.end] for span in content.spans]


async def settle(app: TriageApp, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def filter_by(app: TriageApp, pilot, query: str) -> None:
    """Press `/`, type `query`, wait for its results."""
    await pilot.press("slash", *query)
    await settle(app, pilot)


async def test_typing_filters_ranks_counts_and_highlights(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await filter_by(app, pilot, "difusion recovry")
        assert isinstance(app.focused, Input) and app.focused.value == "difusion recovry"
        assert shown(app) == [CDRL]
        assert text_of(app, "filter-count") == "1 of 19"
        assert marked(app, "title") == ["diffusion", "recovery"]  # CDRL — cooperative diffusion recovery…
        assert {"diffusion", "recovery"} <= set(marked(app, "body"))
        row = "".join(segment.text for segment in app.query_one(PaperList).render_line(0))
        match = [segment for segment in app.query_one(PaperList).render_line(0) if segment.text == "recovery"]
        assert "CDRL" in row and match and match[0].style.bold


async def test_a_body_match_gets_a_line_of_context_under_the_title(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await filter_by(app, pilot, "initializer")
        assert shown(app) == [CDRL]
        assert not marked(app, "title")
        assert "initializer" in str(app.query_one(DetailPane).part("context")) and "initializer" in marked(app, "context")


async def test_enter_keeps_the_filter_esc_clears_it(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await filter_by(app, pilot, "contrast")
        assert shown(app)[0] == SCL
        await pilot.press("enter")
        assert isinstance(app.focused, PaperList) and shown(app)[0] == SCL
        await pilot.press("j")
        current = app.query_one(PaperList).current
        await pilot.press("slash", "escape")
        await settle(app, pilot)
        assert shown(app) == [p.id for p in papers]
        assert isinstance(app.focused, PaperList)
        assert app.query_one(PaperList).current == current  # back where we were, in the whole list
        assert text_of(app, "filter-count") == ""


async def test_a_malformed_query_shows_a_hint_and_still_filters(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await filter_by(app, pilot, "x:y cdrl")
        assert shown(app) == [CDRL]
        assert text_of(app, "filter-hint").startswith("unknown qualifier x:")
        await pilot.press("ctrl+u")
        await settle(app, pilot)
        assert not app.query_one("#filter-hint", Static).display


async def test_a_query_not_understood_shows_its_hint_and_no_papers_not_all(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("j", "s")  # a starred paper, which is:starred would find
        await filter_by(app, pilot, "is:stared")
        assert shown(app) == []
        assert text_of(app, "filter-count") == "0 of 19"
        assert text_of(app, "filter-hint") == "is: needs one of read, unread, starred, dismissed, new, updated"
        assert app.query_one("#filter-hint", Static).display


async def test_a_dash_before_a_word_negates_it_as_a_bang_does(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await filter_by(app, pilot, "-graph")
        without = Engine.of(read_path(seed_path).papers).search("!graph").ids
        assert shown(app) == without and len(without) == 17 and text_of(app, "filter-count") == "17 of 19"
        assert not app.query_one("#filter-hint", Static).display


async def test_state_qualifiers_see_the_marks_made(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("j", "r", "s")  # the second paper: read and starred
        await filter_by(app, pilot, "is:starred")
        assert shown(app) == [read_path(seed_path).papers[1].id]


def slow_on(monkeypatch, slow_query: str) -> threading.Event:
    """Make the app's index the real one, but a search for `slow_query` waits until the event returned is set."""
    release = threading.Event()

    class Slow:
        def __init__(self, engine: Engine) -> None:
            self.engine = engine

        def __getattr__(self, name: str):
            return getattr(self.engine, name)

        def search(self, query, states=None, new=(), updated=()):
            if query == slow_query:
                release.wait(60)  # (set by the test: the bound only keeps a failing test from hanging)
            return self.engine.search(query, states, new, updated)

    monkeypatch.setattr(engine_cache, "engine_for", lambda collection, stop=None, ahead=None: (opened := engine_for(collection, stop, ahead))._replace(engine=Slow(opened.engine)))
    return release


async def test_a_slow_old_query_never_replaces_a_newer_result(seed_path, monkeypatch):
    release = slow_on(monkeypatch, "d")
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", "d")  # its search hangs
        await pilot.press(*"ifusion")  # "difusion" answers at once
        await until(pilot, lambda: shown(app) == [CDRL])
        release.set()  # now "d" finishes, late
        await settle(app, pilot)
        assert shown(app) == [CDRL]
        assert text_of(app, "filter-count") == "1 of 19"


async def test_a_slash_typed_in_the_query_is_text(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await filter_by(app, pilot, "'github.com/ajy112")
        assert shown(app) == ["3d09c6c056"]  # HDGNN's code link


async def test_typing_before_the_index_is_built_says_so(seed_path, monkeypatch):
    built = threading.Event()

    def slow_to_build(collection, stop=None, ahead=None):
        built.wait(60)  # (set by the test, which must type before it: not 10 s, a slow start on a loaded machine)
        return engine_for(collection, stop, ahead)

    monkeypatch.setattr(engine_cache, "engine_for", slow_to_build)
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", "d")
        assert text_of(app, "filter-count") == "indexing…"
        built.set()
        await settle(app, pilot)
        assert text_of(app, "filter-count").endswith(" of 19")


async def test_keys_typed_before_a_querys_results_apply_to_them(seed_path, monkeypatch):
    release = slow_on(monkeypatch, "llm")
    papers = read_path(seed_path).papers
    second = Engine.of(papers).search("llm").papers[1]
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"llm", "enter", "j", "s")  # the results are not in yet
        assert app.query_one(PaperList).cursor == 0 and not app.states  # the j and s wait for them
        release.set()
        await settle(app, pilot)
        assert app.query_one(PaperList).current.id == second.id  # best match, then one down
        assert [pid for pid, state in app.states.items() if state.starred] == [second.id]


async def test_a_long_lists_first_hits_show_at_once_with_the_counts_of_all(seed_path, monkeypatch):
    """On a long list (here: any list, `GLANCE_FROM` 0) a query's first screen of hits is shown while the rest are still
    read: the rows best first, the count of every match, the tabs counting every marked paper that matches (not only
    those shown); a key typed meanwhile waits for all the hits, then moves over them."""
    monkeypatch.setattr("tui.filtering.GLANCE_FROM", 0)
    monkeypatch.setattr("tui.filtering.GLANCE_ROWS", 3)
    release = slow_on(monkeypatch, "-graph")
    papers = read_path(seed_path).papers
    every = Engine.of(papers).search("-graph").ids
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        for row in (every[0], every[-1], every[-2]):  # a starred paper among the first hits, two among the others only
            await pilot.press("g", *["j"] * [p.id for p in papers].index(row), "s")
        await pilot.press("slash", *"-graph", "enter", "j")  # its search (every hit) waits
        await until(pilot, lambda: shown(app) == every[:3])
        assert text_of(app, "filter-count") == f"{len(every)} of 19"
        assert "All 17 · Unread 17 · Starred 3 ·" in " · ".join(str(tab.content) for tab in app.query(ViewTab))
        assert app.query_one(PaperList).cursor == 0  # `j` waits for every hit
        release.set()
        await until(pilot, lambda: shown(app) == every and app.query_one(PaperList).cursor == 1)
