"""The header line never cuts its own count words: when the counts do not fit, whole parts are left out,
the least important first; with several lists open it says how many. On the ICLR list, scrolled well down."""
from __future__ import annotations

import re
import shutil

import pytest

from store.papers.model import Triage
from store.readers import read_path, read_paths
from tests.conftest import SEED
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


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_counts_of_a_long_list_group_their_digits_and_a_conference_lists_keep_four(tmp_path, size):
    """At 2,699,998 papers (the whole arXiv) a count is read at a glance only with its digits grouped: the header,
    the view tabs and the filter's count say "1,875,021 of 2,699,998"; a list under 10,000 papers keeps "2260"."""
    from tui.widgets.filter_bar import FilterBar
    from tui.widgets.view_tabs import ViewTabs

    app = TriageApp(read_path(SEED), str(tmp_path / "db.json"))
    async with app.run_test(size=size) as pilot:
        status, tabs, bar = app.query_one(StatusLine), app.query_one(ViewTabs), app.query_one(FilterBar)
        await pilot.press("slash", "g")
        await until(pilot, lambda: str(app.query_one("#filter-count").content).endswith(" of 19"))  # (its own answer first)
        status.show(shown=1_875_021, total=2_699_998, unread=1_875_020, starred=1, prioritised=12_345, read=1_000)
        tabs.set_counts({"all": 2_699_998, "unread": 2_699_997, "starred": 1, "prioritised": 12_345}, 2_699_998)
        bar.show_result(1_875_021, 2_699_998, "")
        counts = lambda: header(app).split(" sample ·")[-1]  # noqa: E731 (the list's name: "ICLR 2024 sample")
        await until(pilot, lambda: "2,699,998 shown" in counts() and (size[0] < 100 or "1,000 read" in counts())
                    and not cut_words(counts()) and (size[0] < 100 or "…" not in counts()))  # (laid out again, fitted)
        line = counts()
        assert "1,875,021 of 2,699,998 shown" in line and (size[0] < 100 or "1,875,020 unread · 1 ★" in line), line
        assert str(app.query_one("#filter-count").content) == "1,875,021 of 2,699,998"
        assert "All 2,699,998" in " ".join(str(tab.content) for tab in tabs.query(".view-tab"))
        tabs.set_counts({"all": 5_000, "unread": 4_999, "starred": 1, "prioritised": 0}, 2_699_998)  # (a query's: 5,000 of them)
        await pilot.pause()
        assert [str(tab.content) for tab in tabs.query(".view-tab")][:2] == ["All 5,000", "Unread 4,999"]
        status.show(shown=30, total=2260, unread=2259, starred=1, prioritised=0, read=1)
        bar.show_result(30, 2260, "")
        await pilot.pause()
        assert "30 of 2260 shown · 2259 unread" in header(app) and str(app.query_one("#filter-count").content) == "30 of 2260"
