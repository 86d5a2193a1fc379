"""A long list opens at once from its head (its first papers); the whole read and the index land behind
the list (tui.loading), and the state they leave is exactly a non-streamed open's."""
from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

import tui.landing
import tui.loading
from store.search.engine import Engine
from store.papers.model import Triage
from store.cite import citations as cite
from store.cite.keys import citation_keys
from store.readers import cache, engine_cache, quick, read_path, read_paths
from store.marks import refind as store_refind
from store.marks.db import TriageStore
from tests.tmux import Tmux, triage_command
from tests.waits import settled, told, until
from tui.app import TriageApp
from tui.loading import head_of
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList, columns_for

@pytest.fixture(autouse=True)
def _the_corpora_are_long(monkeypatch):
    """The corpora's lists (3-4 MB) open from their heads here, as lists over `STREAM_FROM` do."""
    monkeypatch.setattr(quick, "STREAM_FROM", 1 << 20)


def streamed_app(files: list[Path]) -> TriageApp:
    """The app as `triage FILES` opens a long list: from its head, the rest read behind it."""
    names = [str(file) for file in files]
    head = head_of(names)
    assert head is not None
    return TriageApp(head, files=names)


@pytest.fixture
def parsed(tmp_path, monkeypatch):
    """A plain (non-streamed) read of a list, in a cache of its own (the app's starts empty)."""

    def parse(path: Path) -> list:
        with monkeypatch.context() as patch:
            patch.setenv("TRIAGE_CACHE", str(tmp_path / "plain-cache"))
            papers = read_path(path).papers
            cache.settle()
        return papers

    return parse


@pytest.fixture
def held(monkeypatch) -> threading.Event:
    """The whole read waits until the event returned is set: the app shows the head until then."""
    release = threading.Event()
    read_paths = tui.loading.read_paths

    def later(files):
        release.wait(60)
        return read_paths(files)

    monkeypatch.setattr(tui.loading, "read_paths", later)
    yield release
    release.set()


async def finished(pilot, app: TriageApp) -> None:
    await until(pilot, lambda: not app.loading and app._index is not None and app._all_read.is_set(), timeout=240)
    await pilot.pause()


def screen_rows(paper_list: PaperList) -> list[str]:
    return [paper_list.render_line(y).text for y in range(paper_list.scrollable_content_region.height)]


def rows(app: TriageApp) -> list[tuple[str, str]]:
    return [(paper.id, paper.title) for paper in app.query_one(PaperList).papers]


def counts(app: TriageApp) -> str:
    return str(app.query_one("#status-counts").content)


async def test_the_rows_grow_to_the_whole_list_as_it_lands_marks_and_cursor_kept(corpora, parsed, held, tmp_path):
    """The head is on screen, with its marks, the keys working on it; then the whole list lands under
    the cursor, and the marks of papers beyond the head show too."""
    path = corpora / "iclr-2024-abstracts.txt"
    full = parsed(path)
    store = TriageStore(str(tmp_path / "triage.json"))
    store.attach(full)
    store.put({full[1].id: Triage(starred=True), full[2000].id: Triage(starred=True)})
    store.close()
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        head = len(app.query_one(PaperList).papers)
        assert 20 < head < len(full)
        assert rows(app) == [(paper.id, paper.title) for paper in full[:head]]  # in full already
        assert counts(app).startswith(f"{head} of {head} shown") and "1 ★" in counts(app)
        await until(pilot, lambda: str(app.query_one("#status-loading").content).strip() == "reading…")
        await pilot.press("j", "j", "j")  # the keys work on the head
        assert app.query_one(PaperList).current.id == full[3].id
        held.set()
        await finished(pilot, app)
        assert rows(app) == [(paper.id, paper.title) for paper in full]
        assert app.query_one(PaperList).current.id == full[3].id  # the cursor stayed on its paper
        await pilot.press("slash", "ctrl+u", "enter")  # (the query's rows stay as they were found: the whole list's counts)
        await until(pilot, lambda: counts(app).startswith("2260 of 2260 shown") and "2 ★" in counts(app))
        assert counts(app).startswith(f"{len(full)} of {len(full)} shown")
        assert app.state_of(full[2000].id).starred
        assert str(app.query_one("#status-loading").content) == ""


async def test_a_query_typed_while_the_list_is_read_gives_the_final_results(corpora, parsed, held):
    """Typed before the index is ready, the query waits for it (saying so) and shows what it shows after; `/` typed
    after leaving the filter waits for no result (the keys after it edit the query)."""
    path = corpora / "iclr-2024-abstracts.txt"
    expected = Engine.of(parsed(path)).search("difusion models").ids
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"difusion", "enter", "slash", *" models")
        await until(pilot, lambda: str(app.query_one("#filter-count").content) == "indexing…")
        await until(pilot, lambda: app.query_one(FilterBar).value == "difusion models")
        assert app.loading
        held.set()
        await finished(pilot, app)
        await until(pilot, lambda: [paper.id for paper in app.query_one(PaperList).papers] == expected)
        assert str(app.query_one("#filter-count").content) == f"{len(expected)} of 2260"
        assert app.query_one(FilterBar).value == "difusion models"


async def test_a_query_on_marks_typed_while_the_list_is_read_sees_the_marks_of_all_its_papers(corpora, parsed, held, tmp_path):
    """`is:starred` typed while only the head is there finds the starred paper beyond it once the whole list is read:
    the search waits for the whole list's marks (attached after it lands), and its counts count them."""
    path = corpora / "iclr-2024-abstracts.txt"
    full = parsed(path)
    store = TriageStore(str(tmp_path / "triage.json"))
    store.attach(full)
    store.put({full[2000].id: Triage(starred=True)})
    store.close()
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        assert len(app.query_one(PaperList).papers) < 2000
        await pilot.press("slash", *"is:starred")
        await until(pilot, lambda: app.query_one(FilterBar).value == "is:starred")
        held.set()
        await finished(pilot, app)
        await settled(app, pilot)
        assert [paper.id for paper in app.query_one(PaperList).papers] == [full[2000].id]
        assert str(app.query_one("#filter-count").content) == "1 of 2260" and "1 ★" in counts(app)


async def test_a_query_is_answered_while_marks_of_other_lists_are_looked_for_among_the_papers(corpora, parsed, held,
                                                                                             tmp_path, monkeypatch):
    """The marks of the list's own papers are what a search waits for; the marks whose papers are not in it (another
    list's, or of an abstract since edited) are looked for among its papers after (at 1,000,000 papers ~6 s whenever
    they changed, which every search waited for, at most `MARKS_WITHIN`), and one found so shows once it is."""
    path = corpora / "iclr-2024-abstracts.txt"
    full = parsed(path)
    other = tmp_path / "other.txt"  # (a list holding an edited copy of one of its abstracts)
    other.write_text("OTHER 2024\n\n" + full[1500].text + " Code is released.\n", encoding="utf-8")
    edited = read_path(other).papers[0]
    store = TriageStore(str(tmp_path / "triage.json"))
    store.attach(full)
    store.put({full[2000].id: Triage(starred=True)})
    store.attach([edited])
    store.put({edited.id: Triage(starred=True)})
    store.close()
    looking, found = threading.Event(), threading.Event()
    rematch = store_refind.rematch

    def held_back(*args, **kwargs):
        looking.set()
        found.wait(60)
        return rematch(*args, **kwargs)

    monkeypatch.setattr(store_refind, "rematch", held_back)
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"is:starred")
        held.set()
        await finished(pilot, app)
        await until(pilot, lambda: [paper.id for paper in app.query_one(PaperList).papers] == [full[2000].id])
        assert str(app.query_one("#filter-count").content) == "1 of 2260" and looking.is_set() and not found.is_set()
        assert not app.state_of(full[1500].id).starred
        found.set()
        await until(pilot, lambda: app.state_of(full[1500].id).starred)
        await pilot.press("slash", "ctrl+u", "enter")  # (the query's rows stay as they were found: the whole list's counts)
        await until(pilot, lambda: counts(app).startswith("2260 of 2260 shown") and "2 ★" in counts(app))


async def test_the_parse_entry_is_written_once_the_list_is_read_while_its_engine_is_built(corpora, tmp_path, monkeypatch):
    """A long list's parse entry is written in the background once the list is read whole (the cores go to the read
    first), while its engine is built: a quit during the build (minutes for a long list) leaves it written, and the
    next open is a cached one."""
    monkeypatch.setattr(cache, "BACKGROUND_FROM", 0)  # the corpus list's entry is written behind, as a long list's
    indexing, release = threading.Event(), threading.Event()
    engine_for = engine_cache.engine_for

    def slow(collection, stop=None, ahead=None):
        indexing.set()
        release.wait(60)
        return engine_for(collection, stop, ahead)

    monkeypatch.setattr(engine_cache, "engine_for", slow)
    path = corpora / "iclr-2024-abstracts.txt"
    entries = tmp_path / "cache"
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: indexing.is_set(), timeout=120)
        await until(pilot, lambda: cache.settle() or list(entries.glob("*" + cache.SUFFIX)), timeout=120)
        assert app._index is None  # (still building)
    release.set()  # (the app quit while its engine was built)
    cache.settle()
    assert cache.has_entry(str(path))


async def check_final_state(app: TriageApp, pilot, full: list) -> None:
    """The state the open leaves once all its work is done (`settled`: the whole list, the index, the open noted, the
    citation keys assigned by the app's own worker), not only once it is searchable: the checks and the app's close
    then race nothing the open still does."""
    await finished(pilot, app)
    await settled(app, pilot, timeout=240)
    assert app.collection.papers == full
    assert [paper.id for paper in app.query_one(PaperList).papers] == [paper.id for paper in full]
    assert app.query_one(PaperList).columns == columns_for(full)  # (the whole list's: worked out once search is ready)
    assert app.papers_by_id == {paper.id: paper for paper in full}
    assert app.citation_keys == citation_keys(full)
    for query in ("graph neural", '"language model"', "is:unread difusion"):
        assert app._search_index().search(query).ids == Engine.of(full).search(query).ids


@pytest.mark.parametrize("name", ["iclr-2024-abstracts.txt", "icml-2024-papers.jsonl"])
async def test_the_final_state_is_a_plain_opens(corpora, parsed, name):
    """Ids, papers (titles, names, display text, links…), order, citation keys and search results: as if read first."""
    path = corpora / name
    full = parsed(path)
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        await check_final_state(app, pilot, full)


async def test_two_lists_end_as_a_plain_open_of_both(corpora, tmp_path, monkeypatch):
    """The head is the first list's; the second's papers follow it, the same abstract in both once."""
    files = [corpora / "iclr-2024-abstracts.txt", corpora / "icml-2024-papers.jsonl"]
    with monkeypatch.context() as patch:
        patch.setenv("TRIAGE_CACHE", str(tmp_path / "plain-cache"))
        full = read_paths([str(file) for file in files]).papers
        cache.settle()
    app = streamed_app(files)
    async with app.run_test(size=(120, 40)) as pilot:
        await check_final_state(app, pilot, full)


async def test_a_list_gone_before_it_is_read_whole_keeps_its_first_rows_and_says_so(corpora, held, tmp_path):
    path = tmp_path / "iclr.txt"
    path.write_bytes((corpora / "iclr-2024-abstracts.txt").read_bytes())
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        shown = rows(app)
        path.unlink()
        held.set()
        await until(pilot, lambda: app._index is not None, timeout=120)
        await until(pilot, lambda: any("could not be read whole" in (n.title or "") for n in told(app)))
        assert rows(app) == shown
        await pilot.press("slash", *shown[3][1].split()[0])
        await until(pilot, lambda: str(app.query_one("#filter-count").content).endswith(f" of {len(shown)}"))


async def test_a_generated_list_ends_as_a_plain_open_cold_and_cached(generated, parsed, monkeypatch):
    path = generated(3000)
    full = parsed(path)
    monkeypatch.setattr(quick, "CACHED_STREAM_FROM", 1 << 20)  # opened cached as a longer list is
    for _ in ("cold", "cached"):
        app = streamed_app([path])
        async with app.run_test(size=(120, 40)) as pilot:
            await check_final_state(app, pilot, full)
        cache.settle()


async def test_a_cache_folder_that_cannot_be_written_changes_nothing(corpora, parsed, tmp_path, monkeypatch):
    path = corpora / "iclr-2024-abstracts.txt"
    full = parsed(path)
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("TRIAGE_CACHE", str(blocked / "cache"))
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        await check_final_state(app, pilot, full)


def server(term: Tmux, kind: str = "forkserver") -> bool:
    """Whether the server a parse's worker processes are forked from (or the resource tracker, `kind`
    "resource_tracker") runs below the app in `term`."""
    return any(f"multiprocessing.{kind}" in line for line in term.processes())


def test_the_list_is_on_screen_while_it_is_read_and_keys_work(generated, tmp_path):
    """In a real terminal: the first rows and the header's count at once, how far the reading is beside
    it; `j` moves on the rows shown; a query typed meanwhile answers over the whole list once it is
    indexed, and again once the titles are derived; the server the workers were forked from is gone by then
    (~40 MB: ended once the list is read), and so is the resource tracker (~13 MB: ended once the titles' workers
    are), without a word on the screen. Quit at that very moment: the app exits at once (`q` never waits for a
    cache write: one not done within 0.6 s of the key is given up), and no cache entry is left half written."""
    path = generated(30000)
    term = Tmux(f"{triage_command()} {path}")
    try:
        screen = term.wait_for(lambda s: re.search(r"\b(\d+) of \1 shown", s) and "reading" in s, timeout=120, interval=0.05)
        assert "30,000 of 30,000" not in screen
        assert server(term) and server(term, "resource_tracker")  # (the parse's workers are forked from one, report to the other)
        term.send("j")
        term.send("/", *"graph")
        term.wait_for(lambda s: re.search(r"\b[\d,]+ of 30,000\b(?! shown)", s), timeout=300, interval=0.05)
        term.wait_for(lambda s: re.search(r"\b[\d,]+ of 30,000\b(?! shown)(?! · titles)", s), timeout=300, interval=0.05)
        deadline = time.monotonic() + 120  # (a bound, not a time asserted: the machine may be loaded)
        while (server(term) or server(term, "resource_tracker")) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not server(term), "the workers' server outlived the open"
        assert not server(term, "resource_tracker"), "the resource tracker outlived the open"
        assert not re.search(r"Traceback|leaked|resource_tracker|Warning", term.screen())
        term.send("Enter", "q")
        term.wait_for(lambda s: "EXIT=0" in s)
    finally:
        term.kill()
    written = tmp_path / "cache"
    assert not list(written.glob(".*.tmp")), "a cache entry was left half written"


def test_the_folder_triage_runs_in_holds_no_code_its_workers_run(generated, tmp_path):
    """`triage` run in a folder holding a package of one of its own names (another checkout of it, a project's own
    `store`): the parse's worker processes import the installed one and never run that folder's code (the server
    they are forked from imported it: the workers then died, and the parse fell back to the app's one process)."""
    path = generated(25000)
    folder, ran = tmp_path / "project", tmp_path / "ran"
    (folder / "store").mkdir(parents=True)
    (folder / "store" / "__init__.py").write_text(f"open({str(ran)!r}, 'w').close()\n", encoding="utf-8")
    term = Tmux(f"sh -c 'cd {folder} && exec {triage_command()} {path}'")
    try:
        term.wait_for(lambda s: "25,000 of 25,000 shown" in s, timeout=300, interval=0.1)
        term.send("q")
        term.wait_for(lambda s: "EXIT=0" in s)
    finally:
        term.kill()
    assert not ran.exists(), "code in the folder triage ran in was run"


def test_quitting_while_the_list_is_read_ends_at_once(generated, tmp_path):
    """`q` during the read stops it: the app exits without finishing it (nothing of it is cached)."""
    path = generated(20000)
    term = Tmux(f"{triage_command()} {path}")
    try:
        term.wait_for(lambda s: re.search(r"reading \d+%…", s) and "shown" in s, timeout=120, interval=0.05)
        term.quit()
    finally:
        term.kill()
    assert not list((tmp_path / "cache").glob("*" + cache.SUFFIX))


async def test_a_query_typed_before_the_index_is_answered_before_the_work_that_follows_it(corpora, held, monkeypatch):
    """The work that follows search ready (noting the open in the library, the citation keys) waits for a query typed
    before, and for the keys typed after it that waited for its results (tui.typeahead): at 100,000 papers that work
    took the GIL from it (its 0.1 s answer came after 1.6 s)."""
    order = []
    keys, show_hits, opened = TriageApp._assign_citation_keys, TriageApp._show_hits, TriageStore.opened
    monkeypatch.setattr(TriageApp, "_assign_citation_keys", lambda self: (order.append("citation keys"), keys(self))[1])
    monkeypatch.setattr(TriageApp, "_show_hits", lambda self, hits, *args: (order.append(hits.query.text), show_hits(self, hits, *args))[1])
    monkeypatch.setattr(TriageStore, "opened", lambda self, *args: (order.append("noted"), opened(self, *args))[1])
    app = streamed_app([corpora / "iclr-2024-abstracts.txt"])
    async with app.run_test(size=(120, 40)) as pilot:
        # (`j` is for the list: it waits for the results of "graph", then "attention" replaces it)
        await pilot.press("slash", *"graph", "enter", "j", "slash", "ctrl+u", *"attention")
        await until(pilot, lambda: str(app.query_one("#filter-count").content) == "indexing…")
        held.set()
        await finished(pilot, app)
        await until(pilot, lambda: "citation keys" in order and "noted" in order, timeout=240)
        assert order.index("graph") < order.index("attention") < order.index("noted") < order.index("citation keys")
        assert app.query_one(FilterBar).value == "attention"
        await until(pilot, lambda: "citation_keys" in app.__dict__, timeout=240)


async def test_the_open_is_noted_once_search_is_ready_and_is_new_typed_before_waits_for_it(corpora, held, monkeypatch, tmp_path):
    """Which papers are new (the open noted in the library: store.library.seen, ~0.1 s at 100,000 papers) is worked
    out once search is ready: `is:new` typed meanwhile waits for it (a list never opened is all new, not none), a mark
    made meanwhile stays, and the open is noted (the list opened again unchanged has nothing new)."""
    noting, release, waited = threading.Event(), threading.Event(), threading.Event()
    opened, wait_for_new = TriageStore.opened, TriageApp.wait_for_new

    def later(self, *args):
        noting.set()
        release.wait(60)
        return opened(self, *args)

    monkeypatch.setattr(TriageStore, "opened", later)
    monkeypatch.setattr(TriageApp, "wait_for_new", lambda self: (waited.set(), wait_for_new(self))[1])
    path = corpora / "iclr-2024-abstracts.txt"
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        held.set()
        await until(pilot, lambda: noting.is_set(), timeout=240)  # search is ready: the open is being noted
        await until(pilot, lambda: app._index is not None and not app.loading)
        await pilot.press("s")  # a mark before it is noted
        first = app.query_one(PaperList).current
        await pilot.press("slash", *"is:new")
        await until(pilot, lambda: waited.is_set())  # (answered before, it would say "0 of 2260" from then on)
        release.set()
        await until(pilot, lambda: str(app.query_one("#filter-count").content) == "2260 of 2260")
        assert app.state_of(first.id).starred
    store = TriageStore(str(tmp_path / "triage.json"))
    assert store.get(first.id).starred
    assert store.new([str(path)], app.collection.papers) == frozenset()  # (never opened: all 2,260 would be)
    store.close()


async def test_the_whole_list_lands_without_a_pass_over_all_its_papers_on_the_ui_thread(corpora, held, monkeypatch):
    """What is worked out from every paper as the whole list lands (its ids for the counts, which columns
    it shows, the paper of each id) is worked out on the background thread (the columns and the look-up by id once
    search is ready): the UI thread only swaps the rows in."""
    from store.search import views

    on_ui: list[str] = []
    columns_for, tally = tui.loading.columns_for, views.Tally.__init__

    def spied_columns(papers):
        if threading.current_thread() is threading.main_thread() and len(papers) > 1000:
            on_ui.append("columns")
        return columns_for(papers)

    def spied_tally(self, papers, states, ids=None):
        if threading.current_thread() is threading.main_thread() and len(papers) > 1000 and ids is None:
            on_ui.append("ids")
        tally(self, papers, states, ids)

    monkeypatch.setattr(tui.landing, "columns_for", spied_columns)
    monkeypatch.setattr(tui.loading, "columns_for", spied_columns)
    monkeypatch.setattr(views.Tally, "__init__", spied_tally)
    app = streamed_app([corpora / "iclr-2024-abstracts.txt"])
    async with app.run_test(size=(120, 40)) as pilot:
        held.set()
        await finished(pilot, app)
        assert len(app.query_one(PaperList).papers) == 2260 and counts(app).startswith("2260 of 2260 shown")
        await settled(app, pilot)
        assert app.query_one(PaperList).columns == columns_for(app.collection.papers)
        assert app.papers_by_id._index is not None  # (its look-up made behind the list, not by a key on the UI thread)
        assert app.papers_by_id == {paper.id: paper for paper in app.collection.papers}
    assert on_ui == []


async def test_a_citation_copied_before_the_list_is_read_whole_is_copied_once_it_is(generated, parsed, held, monkeypatch):
    """A key needs every paper's title (its first word, told apart from all others): `c` pressed before the list is
    read whole says it waits, and copies the citation a plain open copies once it is; the keys work meanwhile."""
    monkeypatch.delenv("DISPLAY", raising=False)  # (the clipboard is OSC 52 here)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    path = generated(5000)
    full = parsed(path)
    app = streamed_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.loading and len(app.query_one(PaperList).papers) > 2)
        await pilot.press("j", "c")
        messages = lambda: [n.message for n in told(app)]  # noqa: E731
        await until(pilot, lambda: any(m.startswith("Citation keys need every paper's title") for m in messages()))
        await pilot.press("j")
        assert app.query_one(PaperList).current.id == full[2].id and "BibTeX copied (OSC 52)" not in messages()
        held.set()
        await until(pilot, lambda: "BibTeX copied (OSC 52)" in messages(), timeout=240)
        assert app.clipboard == cite.render([full[1]], "bibtex", citation_keys(full))
