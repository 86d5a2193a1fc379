"""The detail pane and the list as issue 13 lays them out: every field a researcher triages by, shown
as text (never markup), the list's columns and its split, and `j` without a relayout of the screen."""
from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from store.papers.model import Collection, Paper, paper_id
from store.readers import read_path
from tests.waits import settled, until
from tui.app import TriageApp
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList

EVIL = "[@click=app.quit]quit[/] [bold]b[/bold] \x1b]52;c;aGk=\x07"


def record(text: str, **fields) -> Paper:
    return Paper(id=paper_id(text), text=text, plain=text, **fields)


PIXART = record(
    "We introduce PixArt-α, a Transformer-based text-to-image diffusion model.",
    title="PixArt-$\\alpha$: Fast Training of Diffusion Transformer",
    authors=("Junsong Chen", "Jincheng Yu"), venue="ICLR 2024", year=2024, track="spotlight",
    keywords=("diffusion models", "text-to-image"), area="generative models", tldr="Cheap training of a T2I model.",
    links=("https://openreview.net/forum?id=abc", "https://openreview.net/pdf?id=abc", "https://github.com/PixArt-alpha/PixArt-alpha"),
    pdf="https://openreview.net/pdf?id=abc",
)


def pane_lines(app: TriageApp) -> list[str]:
    return app.query_one(DetailPane).shown_text.splitlines()


async def test_the_pane_shows_title_authors_venue_track_keywords_tldr_and_labelled_links():
    app = TriageApp(Collection([PIXART]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("less_than_sign")  # the pane half the width: each field on a line of its own
        await pilot.pause()
        lines = pane_lines(app)
        assert lines[0] == "PixArt-α: Fast Training of Diffusion Transformer"  # LaTeX rendered, as abstracts are
        assert lines[1] == "Junsong Chen, Jincheng Yu"
        assert lines[2] == f"ICLR 2024 · spotlight · {PIXART.id}"  # the year once: the venue names it
        assert "Keywords  diffusion models · text-to-image" in lines and "Area  generative models" in lines
        tldr, body = lines.index("▌ Cheap training of a T2I model."), lines.index("We introduce PixArt-α, a Transformer-based text-to-image")
        assert lines[tldr - 1] == "" and lines[tldr + 1] == "" and tldr < body  # set apart, above the abstract
        links = lines[body + 3:]
        assert links == ["Paper  https://openreview.net/forum?id=abc  o opens",
                         "PDF    https://openreview.net/pdf?id=abc  O opens",
                         "Code   https://github.com/PixArt-alpha/PixArt-alpha"]


async def test_a_search_match_in_a_latex_title_is_marked_where_it_is_shown():
    app = TriageApp(Collection([PIXART]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"training")
        await app.workers.wait_for_complete()
        await pilot.pause()
        title = app.query_one(DetailPane).part("title")
        assert [title.plain[s.start:s.end] for s in title.spans if "warning" in str(s.style)] == ["Training"]


async def test_markup_in_every_new_field_stays_letters():
    evil = record("An abstract.", title=f"T {EVIL}", authors=(EVIL,), venue=EVIL, track="oral", keywords=(EVIL,),
                  area=EVIL, tldr=EVIL, links=("https://x.org/[@click=app.quit]",))
    app = TriageApp(Collection([evil]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("less_than_sign")  # the pane half the width: each field on a line of its own
        await pilot.pause()
        shown = app.query_one(DetailPane).shown_text
        assert shown.count("[@click=app.quit]quit[/] [bold]b[/bold]") == 6  # title, authors, venue, keywords, area, TL;DR
        assert "https://x.org/[@click=app.quit]" in shown and "\x1b" not in shown and "\x07" not in shown
        await pilot.click(DetailPane, offset=(3, 0))
        await pilot.click(DetailPane, offset=(3, 1))
        await pilot.pause()
        assert app.is_running


async def test_j_through_a_scrolled_list_never_lays_the_screen_out_again(corpora, monkeypatch):
    """The pane's size does not change from paper to paper (at 80x24 every abstract needs the scrollbar):
    moving the cursor repaints, it does not lay out the screen (six widgets updated per key did)."""
    layouts = []
    original = Screen._refresh_layout
    monkeypatch.setattr(Screen, "_refresh_layout", lambda self, *a, **k: (layouts.append(1), original(self, *a, **k))[1])
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.query_one(PaperList).cursor = 500
        await settled(app, pilot)  # the header's "reading…" going away lays it out once
        papers = app.query_one(PaperList).papers
        layouts.clear()
        for step in range(1, 21):
            await pilot.press("j")
            await pilot.pause()
            assert app.query_one(PaperList).current is papers[500 + step]
        assert layouts == []


def row(app: TriageApp, y: int) -> str:
    return "".join(segment.text for segment in app.query_one(PaperList).render_line(y))


async def test_at_120_columns_titles_get_room_and_z_shows_author_and_track_columns(corpora):
    collection = read_path(corpora / "iclr-2024-papers.jsonl")
    first = collection.papers[0]
    app = TriageApp(collection)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        shown = row(app, 0)  # 60% of the width: the first author beside a title cut at ~48 characters
        assert first.title[:45] in shown and shown.rstrip().endswith("Zhao")
        await pilot.press("z")  # the list alone
        await pilot.pause()
        assert not app.query_one(DetailPane).display
        shown = row(app, 0)
        assert first.title[:80] in shown and shown.rstrip().endswith("Zhao            poster")
        await pilot.press("z")
        await pilot.pause()
        assert app.query_one(DetailPane).display


async def test_the_split_and_the_hidden_pane_come_back_with_the_session(tmp_path, seed_path):
    db = str(tmp_path / "triage.json")
    app = TriageApp(read_path(seed_path), db_path=db)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        before = app.query_one(PaperList).size.width
        await pilot.press("greater_than_sign", "greater_than_sign")
        await pilot.pause()
        wider = app.query_one(PaperList).size.width
        assert wider > before and app.query_one(DetailPane).size.width < 120 - wider
        await pilot.press("z")
        await pilot.pause()
    app = TriageApp(read_path(seed_path), db_path=db)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not app.query_one(DetailPane).display and app.query_one(PaperList).size.width == 120
        await pilot.press("z")
        await pilot.pause()
        assert app.query_one(PaperList).size.width == wider
        await pilot.press("enter")  # reading brings the pane back when it was hidden
        await pilot.press("z", "enter")
        await pilot.pause()
        assert app.query_one(DetailPane).display and app.focused is app.query_one(DetailPane)


async def test_the_header_shortens_a_long_source_name_never_its_counts(tmp_path, seed_path):
    long = tmp_path / ("a-very-long-name-of-a-reading-list-exported-from-somewhere-" * 2 + ".txt")
    long.write_bytes(Path(seed_path).read_bytes())
    app = TriageApp(read_path(long))
    async with app.run_test(size=(120, 40)) as pilot:
        counts = app.query_one("#status-counts")
        await until(pilot, lambda: str(counts.content) == "19 of 19 shown · 19 unread · 0 ★ · 0 prioritised"
                    and counts.size.width >= len(str(counts.content)))  # drawn whole
        assert app.query_one("#status-source").size.width < 40  # the name gave way


async def test_a_one_letter_phrase_marks_each_of_its_many_matches_and_keeps_the_abstracts_styles(tmp_path):
    import json

    abstract = "Learning **sparse** attention in $n$ steps: " + " ".join(["nothing new in neural nets"] * 40) + "."
    source = tmp_path / "n.jsonl"
    source.write_text(json.dumps({"title": "Attention in linear time", "abstract": abstract}) + "\n", encoding="utf-8")
    app = TriageApp(read_path(source))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", '"', "n")
        await app.workers.wait_for_complete()
        await pilot.pause()
        body = app.query_one(DetailPane).part("body")
        marks = [(s.start, s.end) for s in body.spans if "warning" in str(s.style)]
        wanted = [(k, k + 1) for k, letter in enumerate(body.plain) if letter in "nN"]
        assert len(wanted) > 200 and marks == wanted
        assert [body.plain[s.start:s.end] for s in body.spans if s.style == "bold"] == ["sparse"]
        assert [body.plain[s.start:s.end] for s in body.spans if s.style == "italic"] == ["n"]  # the math
        drawn = app.query_one(DetailPane).shown_text
        assert "nothing new in neural nets nothing" in drawn
