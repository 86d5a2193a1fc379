"""The app in a Pilot: the list beside the full abstract, vim-style movement, quit."""
from __future__ import annotations

from textual.widgets._toast import Toast

from store.readers import read_path
from tui.app import TriageApp
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList


def shown_text(app: TriageApp) -> str:
    return str(app.query_one(DetailPane).part("body"))


async def test_first_abstract_in_full_then_j_shows_the_second(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert shown_text(app) == papers[0].plain
        await pilot.press("j")
        await pilot.pause()
        assert shown_text(app) == papers[1].plain
        await pilot.press("k", "k")
        await pilot.pause()
        assert shown_text(app) == papers[0].plain


async def test_g_and_G_jump_to_the_ends(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("G")
        await pilot.pause()
        assert shown_text(app) == papers[-1].plain
        assert app.query_one(PaperList).cursor == len(papers) - 1
        await pilot.press("g")
        await pilot.pause()
        assert shown_text(app) == papers[0].plain


async def test_clicking_a_row_shows_that_paper(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.click(PaperList, offset=(5, 4))
        await pilot.pause()
        assert shown_text(app) == papers[4].plain


async def test_markup_in_an_abstract_stays_letters(tmp_path):
    path = tmp_path / "evil.txt"
    path.write_text("X 2024 list\n\n[@click=app.quit]quit[/] and [bold]not bold[/bold] \x1b[31mred\x1b[0m.\n", encoding="utf-8")
    app = TriageApp(read_path(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert shown_text(app) == "[@click=app.quit]quit[/] and [bold]not bold[/bold] red."
        await pilot.click(DetailPane, offset=(2, 5))
        await pilot.pause()
        assert app.is_running


async def test_q_quits(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_the_app_says_how_many_records_were_skipped_and_why(tmp_path):
    from store.readers import read_paths

    path = tmp_path / "list.jsonl"
    path.write_text('{"abstract": "One abstract here."}\nnot json\n{"year": 2020}\n', encoding="utf-8")
    app = TriageApp(read_paths([path]))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        for _ in range(50):  # the toast is mounted a few refreshes after the notification
            await pilot.pause()
            if app.screen.query(Toast):
                break
        [toast] = app.screen.query(Toast)
        shown = " ".join(str(toast.render()).split())
        assert shown.startswith("Some records were skipped 2 skipped: ")
        assert f"{path}:2: skipped a line that is not JSON" in shown
        assert f"{path}:3: skipped a record that has no title or abstract" in shown


async def test_the_abstract_shows_its_emphasis_not_its_markdown(tmp_path):
    path = tmp_path / "styled.txt"
    path.write_text("X 2024 list\n\nWe propose *refresh learning* with **bold** claims, `code` and $\\geq 50$\\%.\n", encoding="utf-8")
    app = TriageApp(read_path(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        body = app.query_one(DetailPane).part("body")
        assert body.plain == "We propose refresh learning with bold claims, code and ≥ 50%."
        styled = {body.plain[span.start:span.end]: str(span.style) for span in body.spans}
        assert styled["refresh learning"] == "italic"
        assert styled["bold"] == "bold"
        assert "code" in styled and "≥ 50" in styled
