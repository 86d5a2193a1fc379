"""Regenerate the README's screenshots from Pilot runs at fixed sizes: `python screenshots/make.py`.

Each shot opens the bundled seed list with a fresh database, presses its keys and saves an SVG here; the
library shot opens the papers the main shot's keys marked, from the database alone (`triage --library`).
"""
from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from seeds import DEFAULT
from store.papers.model import Collection
from store.readers import read_path
from store.search.views import INTEREST_SORT, SORTS
from tui.app import TriageApp
from tui.cli.common import library

HERE = Path(__file__).resolve().parent

MARKS = ("s", "j", "2", "j", "r", "j", "j", "1", "j", "s", "3", "j", "j", "d")
"""Star, prioritise, read and dismiss (not for me) a few papers, so the rows, tabs and header have something to show."""

SEARCH = ("slash", *"language model", "enter", "j")
"""Filter by a query, back to the list, the second best match."""

SAVED = (
    "slash", *"is:unread graph", "enter", "M", *"graphs to read", "tab", "g", "enter",
    "slash", "ctrl+u", *"llm | agent", "enter", "M", *"llm", "tab", "l", "enter",
    "slash", "ctrl+u", *"has:code", "enter", "M", *"with code", "tab", "c", "enter", "slash", "escape", "apostrophe",
)
"""Save three queries (`M`, a name, a letter), clear the filter, open the saved searches (`'`)."""

SHOTS: dict[str, tuple[tuple[int, int], str, tuple[str, ...]]] = {
    "main": ((120, 40), "textual-dark", MARKS),
    "search": ((120, 40), "textual-dark", (*MARKS, *SEARCH)),
    "help": ((120, 40), "textual-dark", ("question_mark",)),
    "cite": ((120, 40), "textual-dark", (*MARKS, "C")),
    "small": ((80, 24), "textual-dark", (*MARKS, "v", "v", "v", "S")),
    "light": ((120, 40), "textual-light", (*MARKS, "enter")),
    "foryou": ((120, 40), "textual-dark", (*MARKS, *["S"] * list(SORTS).index(INTEREST_SORT), "g")),
    "saved": ((120, 40), "textual-dark", (*MARKS, *SAVED)),
}
"""name → (terminal size, theme, keys pressed before the shot)."""

LIBRARY = ((120, 40), "textual-dark", ("j",))
"""The library: every paper `MARKS` marked, the cursor on the second."""


async def shoot(name: str | None, size: tuple[int, int], theme: str, keys: tuple[str, ...],
                collection: Collection | None = None) -> None:
    """Open `collection` (the seed list), press `keys`, save the screen as NAME.svg (no name: nothing saved)."""
    app = TriageApp(collection or read_path(DEFAULT))
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await pilot.pause()
        await pilot.press(*keys)
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        if name:
            app.save_screenshot(str(HERE / f"{name}.svg"))
    if name:
        print(f"screenshots/{name}.svg")


async def main() -> None:
    for name, (size, theme, keys) in SHOTS.items():
        with tempfile.TemporaryDirectory() as folder:
            os.environ["TRIAGE_DB"] = str(Path(folder) / "triage.json")
            await shoot(name, size, theme, keys)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "triage.json"
        os.environ["TRIAGE_DB"] = str(db)
        await shoot(None, (120, 40), "textual-dark", MARKS)
        await shoot("library", *LIBRARY, collection=library(db))


if __name__ == "__main__":
    asyncio.run(main())
