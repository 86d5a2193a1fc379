"""Regenerate the README's screenshots from Pilot runs at fixed sizes: `python screenshots/make.py`.

Each shot opens the bundled seed list with a fresh database, presses its keys and saves an SVG here.
"""
from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from seeds import DEFAULT
from store.readers import read_path
from tui.app import TriageApp

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
    "foryou": ((120, 40), "textual-dark", (*MARKS, "S", "S", "S", "S", "g")),
    "saved": ((120, 40), "textual-dark", (*MARKS, *SAVED)),
}
"""name → (terminal size, theme, keys pressed before the shot)."""


async def shoot(name: str, size: tuple[int, int], theme: str, keys: tuple[str, ...]) -> None:
    app = TriageApp(read_path(DEFAULT))
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await pilot.pause()
        await pilot.press(*keys)
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        app.save_screenshot(str(HERE / f"{name}.svg"))
    print(f"screenshots/{name}.svg")


async def main() -> None:
    for name, (size, theme, keys) in SHOTS.items():
        with tempfile.TemporaryDirectory() as folder:
            os.environ["TRIAGE_DB"] = str(Path(folder) / "triage.json")
            await shoot(name, size, theme, keys)


if __name__ == "__main__":
    asyncio.run(main())
