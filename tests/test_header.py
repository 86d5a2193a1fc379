"""The header line never cuts its own count words: when the counts do not fit, whole parts are left out,
the least important first; with several lists open it says how many. On the ICLR list, scrolled well down."""
from __future__ import annotations

import re
import shutil

import pytest

from store.papers.model import Triage
from store.readers import read_path, read_paths
from tests.waits import told, until
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList
from tui.widgets.status import StatusLine

WORDS = {"of", "shown", "unread", "prioritised", "selected", "read", "lists"}


def header(app: TriageApp) -> str:
    """The header line as drawn on the screen."""
    line = app.screen._compositor.render_strips()[app.query_one(StatusLine).region.y]
    return "".join(segment.text for segment in line)


def cut_words(line: str) -> list[str]:
    """The words after a number that are not whole count words ("5 prioritis")."""
    return [word for word in re.findall(r"\d (\w+)", line) if word not in WORDS]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_the_counts_are_whole_words_with_the_sync_state_shown(corpora, tmp_path, size, theme):
    collection = read_path(corpora / "iclr-2024-papers.jsonl")
    papers = collection.papers
    app = TriageApp(collection, str(tmp_path / "db.json"), sync_folder=str(tmp_path / "sync"))
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        app.change({paper.id: Triage(priority=1 + n % 5, starred=n % 2 == 0) for n, paper in enumerate(papers[800:812])})
        app.query_one(PaperList).cursor = 805
        await pilot.press("semicolon", "semicolon")  # two selected: one more part in the header
        await until(pilot, lambda: "selected" in header(app) and "sync" in header(app))
        line = header(app)
        assert not cut_words(line) and "…" not in line.split("·", 1)[-1], line
        assert re.search(r"2 selected · 2260 of 2260 shown", line), line  # the most important parts stay


async def test_several_lists_say_how_many(corpora, tmp_path):
    paths = []
    for n in range(4):
        paths.append(tmp_path / f"list-{n}-with-a-long-name.jsonl")
        shutil.copy(corpora / "iclr-2024-papers.jsonl", paths[-1])
    app = TriageApp(read_paths(paths), str(tmp_path / "db.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "shown" in header(app))
        line = header(app)
        assert "4 lists" in line and "list-0-with" in line and not cut_words(line), line


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_long_notice_leaves_the_lists_name_whole(seed_path, tmp_path, size):
    """A notice ("search index not kept: disk full (…)", a damaged index rebuilt) takes what the list's name and its
    first count leave, cut with `…`, or is told as a toast when that is too little: the list's name is as whole as
    without it (below 100 columns the file's name is left out; the counts come first)."""
    path = tmp_path / "s.txt"
    shutil.copy(seed_path, path)
    app = TriageApp(read_path(path), str(tmp_path / "db.json"))
    long = "search index not kept: disk full (/home/someone/.cache/paper-triage, and then some more words)"
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: "0 prioritised" in header(app))
        name = header(app).split(" 19 of 19 shown")[0].strip()  # (cut by the counts at these widths: they come first)
        app.query_one(StatusLine).show_notice(long)
        await until(pilot, lambda: "search index not kept: disk" in header(app) or long in [n.message for n in told(app)])
        await pilot.pause()
        line = header(app)
        assert name in line and "19 of 19 shown" in line and not cut_words(line), line
        assert long not in line  # (cut with "…", or told as a toast)
        if size[0] > 100:
            assert "search index not kept: disk" in line, line  # (room enough for some of it)
        app.query_one(StatusLine).show_notice("")
        await until(pilot, lambda: "search index" not in header(app) and "0 prioritised" in header(app))
