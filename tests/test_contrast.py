"""Every letter the app draws in the header, the tabs, the list, the detail pane and the footer can be read:
WCAG AA contrast (4.5:1) between each drawn cell's colour and its background, in every built-in theme,
measured on the screen as composed (after Textual's own filters), on the ICLR list scrolled well down."""
from __future__ import annotations

import pytest
from rich.color import Color

from store.papers.model import Triage
from store.readers import read_path
from tui.app import TriageApp
from tui.contrast import contrast
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList
from tui.widgets.status import StatusLine
from tui.widgets.view_tabs import ViewTabs
from textual.widgets import Footer

AA = 4.5
REGIONS = (StatusLine, ViewTabs, PaperList, DetailPane, Footer)
"""The widgets whose text is checked (the filter bar is the input's own)."""


def graphic(text: str) -> bool:
    """Box drawing and block elements (borders, bars, the scrollbar, the selection's ▌): lines, not letters."""
    return all(0x2500 <= ord(ch) <= 0x259F or ch.isspace() for ch in text)


def test_the_contrast_is_wcags():
    assert contrast(Color.parse("#000000"), Color.parse("#ffffff")) == 21
    assert round(contrast(Color.parse("#767676"), Color.parse("#ffffff")), 2) == 4.54  # WCAG's lightest AA grey


def illegible(app: TriageApp) -> list[tuple[str, str, float]]:
    """(widget, text, contrast) of each run of letters on screen below AA, in the checked widgets."""
    strips = app.screen._compositor.render_strips()
    regions = [(cls.__name__, app.query_one(cls).region) for cls in REGIONS if app.query_one(cls).display]
    found = []
    for y, strip in enumerate(strips):
        x = 0
        for segment in strip:
            style, text, start = segment.style, segment.text, x
            x += segment.cell_length
            if style is None or graphic(text) or style.color is None or style.bgcolor is None:
                continue
            fg, bg = (style.bgcolor, style.color) if style.reverse else (style.color, style.bgcolor)
            if fg.is_default or bg.is_default:  # the terminal's own colours (the ansi themes)
                continue
            where = next((name for name, region in regions if region.contains(start, y)), None)
            ratio = contrast(fg, bg)
            if where and ratio < AA:
                found.append((where, text.strip()[:24], round(ratio, 2)))
    return found


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_every_letter_meets_wcag_aa_in_every_theme(corpora, tmp_path, size):
    collection = read_path(corpora / "iclr-2024-papers.jsonl")
    papers = collection.papers
    app = TriageApp(collection, str(tmp_path / "db.json"))
    async with app.run_test(size=size) as pilot:
        app.change({papers[600].id: Triage(read=True), papers[601].id: Triage(starred=True, priority=2),
                    papers[602].id: Triage(dismissed=True), papers[604].id: Triage(priority=1, note="to cite")})
        paper_list = app.query_one(PaperList)
        paper_list.cursor = 603
        await pilot.press("semicolon")  # 603 selected, the cursor on 604
        await pilot.pause()
        failures = {}
        for theme in sorted(app.available_themes):
            app.theme = theme
            for focus in ("list", "detail") if theme.startswith("textual") else ("list",):  # (the cursor blurred)
                await pilot.press("enter" if focus == "detail" else "h")
                await pilot.pause()
                bad = illegible(app)
                if bad:
                    failures[theme, focus] = sorted(set(bad), key=lambda item: item[2])[:6]
        assert not failures, "\n".join(f"{key}: {value}" for key, value in failures.items())
