"""Regenerate the README's screenshots from Pilot runs at fixed sizes: `python screenshots/make.py`.

Each shot opens the bundled seed list with a fresh database, presses its keys and saves an SVG here.
"""
from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from seeds import DEFAULT
from store import read_path
from tui.app import TriageApp

HERE = Path(__file__).resolve().parent

SHOTS: dict[str, tuple[tuple[int, int], tuple[str, ...]]] = {
    "main": ((120, 40), ("j",)),
    "help": ((120, 40), ("question_mark",)),
    "small": ((80, 24), ("j", "j")),
}
"""name → (terminal size, keys pressed before the shot)."""


async def shoot(name: str, size: tuple[int, int], keys: tuple[str, ...]) -> None:
    app = TriageApp(read_path(DEFAULT))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        app.save_screenshot(str(HERE / f"{name}.svg"))
    print(f"screenshots/{name}.svg")


async def main() -> None:
    for name, (size, keys) in SHOTS.items():
        with tempfile.TemporaryDirectory() as folder:
            os.environ["TRIAGE_DB"] = str(Path(folder) / "triage.json")
            await shoot(name, size, keys)


if __name__ == "__main__":
    asyncio.run(main())
