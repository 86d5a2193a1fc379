"""For you learns from the whole library (issue 32, item 3): twelve stars on one area of the ICLR 2024 list, nothing
marked in ICML 2024, and ICML's For-you order puts that topic first, with reasons that may name a starred ICLR paper.
Real parts: the corpora of ../shared, the installed `triage` as a subprocess, the app under Pilot on a real database."""
from __future__ import annotations

import json
from pathlib import Path

from store.readers import read_path
from tests.hostile import rows, triage
from tests.waits import until
from tui.app import TriageApp
from tui.widgets.detail import DetailPane

AREA = "reinforcement learning"
TOPIC = ("reinforcement", "reward", "policy", "policies", "agent", "markov decision", "bandit", "q-learning", "offline rl")


def star_area(db: Path, corpora: Path, count: int = 12) -> list[str]:
    """Star the first `count` papers of the ICLR list whose OpenReview primary area is `AREA`; their titles."""
    listing = corpora / "iclr-2024-papers.jsonl"
    titles = [record["title"] for record in map(json.loads, filter(None, listing.read_text().split("\n")))
              if record.get("primary_area") == AREA][:count]
    by_title = {row["title"]: row["id"] for row in rows(triage("list", str(listing), "--format", "jsonl", "--db", str(db)))}
    done = triage("set", "-", "--star", str(listing), "--db", str(db), input="\n".join(by_title[t] for t in titles) + "\n")
    assert done.returncode == 0, done.stderr
    return titles


def on_topic(row: dict) -> bool:
    text = f"{row['title']} {row['text']}".lower()
    return any(word in text for word in TOPIC)


def test_for_you_in_icml_learns_from_twelve_stars_in_iclr(tmp_path, corpora):
    db = tmp_path / "triage.json"
    star_area(db, corpora)
    icml = corpora / "icml-2024-papers.jsonl"
    done = triage("list", str(icml), "--sort", "interest", "--format", "jsonl", "--db", str(db), timeout=300)
    assert done.returncode == 0 and "star a paper" not in done.stderr, done.stderr
    top = rows(done)[:20]
    assert not any(row["starred"] for row in top)  # nothing of ICML is marked: all of them are suggestions
    file_order = rows(triage("list", str(icml), "--format", "jsonl", "--db", str(db)))[:20]
    assert sum(map(on_topic, top)) >= 15 > sum(map(on_topic, file_order))


async def test_why_names_a_starred_paper_of_the_other_list(tmp_path, corpora):
    db = tmp_path / "triage.json"
    titles = star_area(db, corpora)
    app = TriageApp(read_path(corpora / "icml-2024-papers.jsonl"), str(db))
    async with app.run_test(size=(140, 50)) as pilot:
        app.sort = "interest"
        await until(pilot, lambda: app._ranking is not None, timeout=120)
        await pilot.pause()
        shown = str(app.query_one(DetailPane).part("state"))
        assert "close to:" in shown and "· ICLR 2024" in shown
        assert any(title[:20] in shown or title.split(":")[0] in shown for title in titles)
        assert app.query_one(DetailPane) is not None and not app.states  # no ICML paper got a mark
