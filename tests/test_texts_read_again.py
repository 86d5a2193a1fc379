"""A reopened list's texts entry found damaged after its open (`store.readers.texts_entry`): the app's detail pane
never waits for the list to be read again (`tui.rereading`: a line in place of the abstract, the keys going on, the
right text once read), and when the list cannot be read again (gone, or changed since) the text is said not
available in one line: a notice and the pane in the app, one line on stderr and exit 2 for the command line (with
what was printed before it), never a traceback nor another paper's text."""
from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

import store.readers
from store.common.errors import ReadError
from store.papers.model import at_hand, kept_text
from store.readers import cache, read_path, texts_entry
from store.readers.engine_cache import engine_for
from store.readers.records import CHUNK
from tests.test_texts_entry import entry, flipped, long_list, middle_chunk
from tests.tmux import Tmux, triage_command
from tests.waits import settled, told, until
from tui.rereading import READING

GONE = "its cached texts are damaged and it cannot be read again"


@pytest.fixture
def listed(tmp_path) -> tuple[Path, list[str]]:
    """A list of three chunks of texts, parsed and cached with its search engine (an open reads no text); its texts."""
    path = long_list(tmp_path / "list.txt", 2 * CHUNK + 300)
    collection = read_path(path)
    texts = [paper.text for paper in collection.papers]
    engine_for(collection)
    cache.settle()
    return path, texts


def damaged(path: Path) -> None:
    flipped(entry(cache.TEXTS_SUFFIX), middle_chunk(path))


def test_a_list_gone_is_one_error_said_for_every_text_of_the_chunk_and_read_once(listed, monkeypatch):
    path, texts = listed
    papers = read_path(path).papers
    damaged(path)
    path.unlink()
    parses = []
    real = store.readers._parse
    monkeypatch.setattr(store.readers, "_parse", lambda *args: parses.append(args) or real(*args))
    assert at_hand(papers[0]) and not at_hand(papers[CHUNK + 1]) and parses == []  # (what the app asks first)
    with pytest.raises(ReadError) as first:
        papers[CHUNK + 1].text
    with pytest.raises(ReadError) as second:
        papers[CHUNK + 2].text
    with pytest.raises(ReadError):
        at_hand(papers[CHUNK + 3])
    assert str(first.value) == str(second.value) == f"{path}: {GONE} (No such file or directory): its texts are not " \
                                                     "available until it is opened again"
    assert len(parses) == 1
    assert papers[0].text == texts[0] and papers[2 * CHUNK].text == texts[2 * CHUNK]  # (their chunks are whole)


def test_a_list_changed_since_gives_the_texts_it_still_holds_and_never_another(listed, monkeypatch):
    """Its first chunk's papers kept (a list edited at its end): those of the damaged chunk no longer in it are
    an error, never an empty or another text."""
    path, texts = listed
    papers = read_path(path).papers
    damaged(path)
    first = kept_text(papers[0]).chunk.place
    flipped(entry(cache.TEXTS_SUFFIX), first.offset + first.length // 2)
    long_list(path, CHUNK + 10)  # (the same first papers, the rest gone)
    assert [paper.text for paper in papers[:CHUNK]] == texts[:CHUNK]
    with pytest.raises(ReadError, match="changed since it was opened: 2038 of its papers are no longer in it"):
        papers[CHUNK].text


async def test_the_detail_pane_never_waits_for_the_list_read_again(listed, monkeypatch):
    """The list's parse held: the pane says it reads the abstract again, the cursor moves meanwhile; let go, the
    pane shows the text of the paper the cursor is on then, and a notice says the cache was damaged."""
    from tui.app import TriageApp
    from tui.widgets.detail import DetailPane
    from tui.widgets.paper_list import PaperList

    path, texts = listed
    go = threading.Event()
    real = store.readers._parse
    monkeypatch.setattr(store.readers, "_parse", lambda *args: go.wait(60) and real(*args))
    app = TriageApp(read_path(path))
    damaged(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        pane, rows = app.query_one(DetailPane), app.query_one(PaperList)
        rows.cursor = CHUNK + 3
        await until(pilot, lambda: READING in pane.shown_text and f"Method {CHUNK + 3} " in pane.shown_text)
        await pilot.press("j")
        await until(pilot, lambda: rows.current.position == CHUNK + 4 and READING in pane.shown_text)
        assert texts[CHUNK + 3] not in pane.shown_text
        go.set()
        await until(pilot, lambda: f"Method {CHUNK + 4} learns graphs" in pane.shown_text and READING not in pane.shown_text)
        await until(pilot, lambda: any("read again from the list" in notice.message for notice in told(app)))
        await pilot.press("j")  # (read now: at once)
        await until(pilot, lambda: f"Method {CHUNK + 5} learns graphs" in pane.shown_text)
    assert texts_entry.tell is texts_entry.say


async def test_the_detail_pane_says_a_text_is_not_available_when_the_list_is_gone(listed):
    from textual.widgets import OptionList, Static

    from tui.app import TriageApp
    from tui.screens.cite_picker import CitePicker
    from tui.widgets.detail import DetailPane
    from tui.widgets.paper_list import PaperList

    path, texts = listed
    app = TriageApp(read_path(path))
    damaged(path)
    path.unlink()
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        pane, rows = app.query_one(DetailPane), app.query_one(PaperList)
        rows.cursor = CHUNK + 3
        await until(pilot, lambda: "This abstract is not available" in pane.shown_text)
        assert f"Method {CHUNK + 3} " in pane.shown_text and "No such file or directory" in pane.shown_text
        for _ in range(3):
            await pilot.press("j")
            await until(pilot, lambda: "This abstract is not available" in pane.shown_text
                        and f"Method {rows.current.position} " in pane.shown_text)
        notices = [notice for notice in told(app) if GONE in notice.message]
        assert len(notices) == 1 and str(path) in notices[0].message and notices[0].severity == "error"
        await pilot.press("C")  # (copy as…: its preview, then a copy of the abstract)
        await until(pilot, lambda: isinstance(app.screen, CitePicker))
        options = app.screen.query_one(OptionList)
        options.highlighted = options.get_option_index("abstract")
        await until(pilot, lambda: GONE in str(app.screen.query_one("#cite-preview", Static).content))
        await pilot.press("enter")
        await until(pilot, lambda: any(notice.message.startswith(f"Not copied: {path}: {GONE}") for notice in told(app)))
        rows.cursor = 2 * CHUNK + 1  # (a whole chunk)
        await until(pilot, lambda: f"Method {2 * CHUNK + 1} learns graphs" in pane.shown_text)
        await pilot.press("m")  # (more like this: the features need every text; the worker stops, told already)
        await app.workers.wait_for_complete()
        assert app.is_running and len([notice for notice in told(app) if GONE in notice.message]) == 2  # (+ the copy's)


def test_the_app_in_a_terminal_says_a_text_is_not_available_and_quits_cleanly(listed):
    """The real `triage`: the list removed while it runs, then the cursor on a paper of the damaged chunk."""
    path, texts = listed
    env = {key: os.environ[key] for key in ("TRIAGE_DB", "TRIAGE_CACHE")}
    term = Tmux(f"{triage_command()} {path}", env=env)
    term.wait_for(lambda screen: "Method 0 learns graphs" in screen and f"{2 * CHUNK + 300} of {2 * CHUNK + 300} shown" in screen
                  and "reading" not in screen and "indexing" not in screen)
    damaged(path)
    path.unlink()
    term.send("G")  # (the last paper: of the third chunk, whole)
    term.wait_for(lambda screen: f"Method {2 * CHUNK + 299} learns" in screen)
    term.send(*["k"] * 301)  # (up into the damaged chunk)
    screen = term.wait_for(lambda screen: "This abstract is not available" in screen and "List cache" in screen)
    assert "Traceback" not in screen
    term.send("q")
    screen = term.wait_for(lambda screen: "EXIT=" in screen)
    assert "EXIT=0" in screen and "Traceback" not in screen


@pytest.mark.parametrize("fault", ["removed", "changed"])
def test_the_command_line_says_in_one_line_that_texts_are_not_available(listed, fault):
    """`triage list` prints the papers of the first chunk, then finds the second damaged with its list gone (or
    changed) since its open: one line naming the list, exit 2, no other text printed for it."""
    path, texts = listed
    damaged(path)
    listing = subprocess.Popen([triage_command(), "list", str(path), "--format", "jsonl"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    first = listing.stdout.readline()  # (it prints a chunk's rows; the pipe holds a few dozen of them)
    if fault == "removed":
        path.unlink()
    else:
        long_list(path, CHUNK + 10, "Other")
    rest, err = listing.stdout.read(), listing.stderr.read()  # (not communicate: it skips what readline buffered)
    listing.wait(timeout=300)
    printed = [json.loads(line)["text"] for line in (first + rest).splitlines()]
    assert listing.returncode == 2
    assert printed == texts[: len(printed)] and 0 < len(printed) <= CHUNK
    [line] = err.splitlines()
    why = GONE if fault == "removed" else "changed since it was opened"
    assert line.startswith(f"triage: {path}: ") and why in line


def test_marking_a_paper_of_a_damaged_chunk_reads_the_list_again(listed):
    """`triage set` keeps the record of the paper it marks first: from the list read again, not a failure."""
    from tests.test_cli_fast import triage

    path, texts = listed
    pid = json.loads(triage("list", str(path), "--format", "jsonl").stdout.splitlines()[CHUNK + 7])["id"]
    damaged(path)
    marked = triage("set", pid, str(path), "--star")
    assert marked.returncode == 0, marked.stderr
    assert "read again from the list" in marked.stderr
    starred = triage("list", "--library", "-q", "is:starred", "--format", "jsonl")
    assert [json.loads(line)["text"] for line in starred.stdout.splitlines()] == [texts[CHUNK + 7]]


async def test_a_list_gone_before_its_search_engine_is_built_is_searched_without_the_texts_not_available(tmp_path):
    """Reopened without a search engine kept, damaged and removed before the app builds it: one notice, the papers
    whose texts can be read are searched, the app goes on (the open's thread used to end in a traceback, and a
    search typed then waited for ever)."""
    from tui.app import TriageApp
    from tui.widgets.filter_bar import FilterBar
    from tui.widgets.paper_list import PaperList

    path = long_list(tmp_path / "list.txt", 2 * CHUNK + 300)
    read_path(path)
    cache.settle()
    app = TriageApp(read_path(path))
    damaged(path)
    path.unlink()
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        notices = [notice for notice in told(app) if GONE in notice.message]
        assert len(notices) == 1 and str(path) in notices[0].message
        app.query_one(FilterBar).value = "Method 2 learns"
        rows = app.query_one(PaperList)
        await until(pilot, lambda: rows.current is not None and rows.current.position == 2)
        assert app.is_running
