"""Regenerate the README's screenshots from Pilot runs at fixed sizes: `python screenshots/make.py`."""
from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from seeds import DEFAULT
from store import read_path
from tui.app import TriageApp

HERE = Path(__file__).resolve().parent


async def shoot(name: str, keys: tuple[str, ...], size: tuple[int, int]) -> None:
    app = TriageApp(read_path(DEFAULT))
    async with app.run_test(size=size) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        app.save_screenshot(str(HERE / f"{name}.svg"))
    print(f"screenshots/{name}.svg")


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TRIAGE_DB"] = str(Path(folder) / "triage.json")
        await shoot("main", ("j",), (120, 40))


if __name__ == "__main__":
    asyncio.run(main())
