"""The app's For-you order, buckets and reasons, and "more like this" (Pilot, and the real `triage` in tmux)."""
from __future__ import annotations

from pathlib import Path

from store.papers.model import Triage
from store.readers import read_path
from tests.test_ranking import OTHER
from tests.tmux import Tmux, triage_command
from tests.waits import until
from tui.app import TriageApp
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList
from tui.widgets.view_tabs import ViewTabs

PROTEIN = [
    "We predict protein structure from amino acid sequences with a graph network over protein residues.",
    "Protein structure prediction by diffusion over residue coordinates of amino acid sequences.",
    "A protein language model of amino acid sequences predicts protein structure and residue contacts.",
    "We design protein binders by sampling protein structure and amino acid sequences for a target residue.",
    "Protein folding simulations learn residue potentials that predict protein structure from sequences.",
    "Antibody protein sequences are generated conditioned on the antigen protein structure and residues.",
]
MIXED = [OTHER[0], PROTEIN[0], OTHER[1], OTHER[2], PROTEIN[1], OTHER[3], PROTEIN[2], OTHER[4], PROTEIN[3],
         OTHER[5], OTHER[6], PROTEIN[4], OTHER[7], PROTEIN[5]]
"""Six protein abstracts among eight others, the protein ones spread through the list."""


def mixed_list(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.txt"
    path.write_text("Workshop 2024 论文列表\n\n" + "\n\n".join(MIXED) + "\n", encoding="utf-8")
    return path


def protein(paper) -> bool:
    return paper.text in PROTEIN


def sort_note(app: TriageApp) -> str:
    return str(app.query_one(ViewTabs).query_one("#sort-name").content)


def state_text(app: TriageApp) -> str:
    return str(app.query_one(DetailPane).part("state"))


async def test_for_you_asks_for_a_star_then_puts_papers_like_it_first_and_says_why(tmp_path):
    papers = read_path(mixed_list(tmp_path)).papers
    app = TriageApp(read_path(mixed_list(tmp_path)), str(tmp_path / "db.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.sort = "interest"
        await pilot.pause()
        assert sort_note(app) == "sorted by for you · star a paper to get suggestions"
        assert "For you: star a paper to get suggestions" in state_text(app)
        paper_list = app.query_one(PaperList)
        first = next(p for p in papers if protein(p))
        paper_list.cursor = paper_list.index_of(first.id)
        await pilot.press("s")  # one star: the first ranking orders the whole list by likeness to it
        await until(pilot, lambda: app._ranking is not None and sort_note(app) == "sorted by for you")
        assert paper_list.current == first, "the cursor stays on its paper"
        await pilot.press("g")
        await pilot.pause()
        rows = paper_list.papers
        assert sum(protein(p) for p in rows[:5]) >= 4 and not any(protein(p) for p in rows[6:13]), [p.title for p in rows]
        assert all(Triage() == app.state_of(p.id) for p in rows[:5])  # unmarked first; the starred at the end
        text = state_text(app)
        assert text.startswith("unread\nFor you: ")
        assert "for: " in text and any(word in text for word in ("protein", "residue", "sequences"))
        assert "close to: " in text
        assert str(paper_list.render_line(0).text)[:2] in ("↑•", "·•"), "the row shows its bucket"


async def for_you_after_three_stars(app: TriageApp, pilot) -> None:
    """Star three protein papers, sort by For you and wait for the ranking."""
    app.change({p.id: Triage(starred=True) for p in [q for q in app.collection.papers if protein(q)][:3]})
    app.sort = "interest"
    await until(pilot, lambda: app._ranking is not None)


async def test_the_bucket_mark_shows_in_the_for_you_sort_only(tmp_path):
    app = TriageApp(read_path(mixed_list(tmp_path)), str(tmp_path / "db.json"))
    papers = app.collection.papers
    async with app.run_test(size=(120, 40)) as pilot:
        await for_you_after_three_stars(app, pilot)
        paper_list = app.query_one(PaperList)
        marks = lambda: {str(paper_list.render_line(y).text)[0] for y in range(len(papers) - 3)}  # noqa: E731 (the unmarked rows)
        await until(pilot, lambda: marks() <= set("↑·↓"))
        app.sort = "file"
        await until(pilot, lambda: marks() == {" "})
        assert "For you: " in state_text(app)  # the detail still says why


async def test_a_new_ranking_moves_only_the_rows_below_the_cursor(tmp_path):
    app = TriageApp(read_path(mixed_list(tmp_path)), str(tmp_path / "db.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await for_you_after_three_stars(app, pilot)
        paper_list = app.query_one(PaperList)
        await pilot.press("g", "j", "j")  # the sort kept the cursor on its paper: from the top
        await pilot.pause()
        before, ranking = list(paper_list.papers), app._ranking
        await pilot.press("r")  # a weak negative: a new ranking
        await until(pilot, lambda: app._ranking is not ranking)
        assert paper_list.cursor == 2 and list(paper_list.papers[:3]) == before[:3]
        assert sorted(p.id for p in paper_list.papers) == sorted(p.id for p in before)


async def test_a_ranking_made_while_the_cursor_moved_moves_only_the_rows_below_where_it_is_now(tmp_path, monkeypatch):
    """The rows below the cursor are put in the new order by the worker that learns it; when the cursor moved on
    meanwhile, the row it is on now keeps its place too."""
    import threading

    from tui import interest

    app = TriageApp(read_path(mixed_list(tmp_path)), str(tmp_path / "db.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await for_you_after_three_stars(app, pilot)
        paper_list = app.query_one(PaperList)
        await pilot.press("g", "j", "j")
        await pilot.pause()
        before, ranking = list(paper_list.papers), app._ranking
        entered, go, real = threading.Event(), threading.Event(), interest.rerank

        def held(*args):  # the worker's reordering waits until the cursor has moved
            if threading.current_thread() is not threading.main_thread():
                entered.set()
                go.wait(30)
            return real(*args)

        monkeypatch.setattr(interest, "rerank", held)
        await pilot.press("s")  # a new ranking
        await until(pilot, entered.is_set)
        await pilot.press(*"j" * 9)  # down to the marked papers, last: those the new ranking moves
        await pilot.pause()
        go.set()
        await until(pilot, lambda: app._ranking is not ranking)
        assert paper_list.cursor == 11 and list(paper_list.papers[:12]) == before[:12]
        assert sorted(p.id for p in paper_list.papers) == sorted(p.id for p in before)


async def test_more_like_this_lists_the_nearest_papers_and_esc_goes_back(tmp_path):
    app = TriageApp(read_path(mixed_list(tmp_path)), str(tmp_path / "db.json"))
    papers = app.collection.papers
    async with app.run_test(size=(120, 40)) as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("j")  # the first protein paper
        await pilot.pause()
        of = paper_list.current
        assert protein(of)
        await pilot.press("m")
        await until(pilot, lambda: sort_note(app).startswith("more like"))
        shown = list(paper_list.papers)
        assert of not in shown and len(shown) == len(papers) - 1
        assert all(protein(p) for p in shown[:5]), [p.title for p in shown]
        assert paper_list.cursor == 0
        await pilot.press("s")  # a list to triage like any other
        await pilot.pause()
        assert app.state_of(shown[0].id).starred
        await pilot.press("escape")
        await pilot.pause()
        assert paper_list.current == of and list(paper_list.papers) == list(papers)
        assert sort_note(app) == "sorted by file order"


def test_more_like_this_and_back_in_a_real_terminal(tmp_path):
    path = mixed_list(tmp_path)
    papers = read_path(path).papers
    of = papers[1]  # a protein paper
    tmux = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'} {path}")
    try:
        tmux.wait_for(lambda s: "14 unread" in s)
        tmux.send("j", "m")
        screen = tmux.wait_for(lambda s: "more like" in s and "esc back" in s)
        rows = [line[5:45] for line in screen.splitlines()[3:8]]
        assert not any(of.title[:30] in row for row in rows)
        assert sum(any(p.title[:30] in row for p in papers if protein(p)) for row in rows) == 5
        tmux.send("Escape")
        tmux.wait_for(lambda s: "sorted by file order" in s and of.title[:30] in s.splitlines()[4])
    finally:
        tmux.kill()
