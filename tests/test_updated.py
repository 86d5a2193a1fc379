"""`↻` (`is:updated`) where a user meets it (issue 32 item 4): the library, whose rows are the kept records
themselves, says a marked paper was seen in a later version as a list says it; and marking the later version takes
`↻` off its row at once (that version's record is kept then), in the app at a scrolled position of the real ICLR
list. Real parts: the installed `triage` on real TinyDB files, the records of ../shared/corpora, the app under Pilot."""
from __future__ import annotations

import json
from pathlib import Path

from tests.hostile import rows, triage
from tests.test_identity import listed, mark, reworded, write


def iclr(corpora: Path) -> list[dict]:
    return [json.loads(line) for line in (corpora / "iclr-2024-papers.jsonl").read_text(encoding="utf-8").split("\n") if line]


def preprint(record: dict, number: str, version: int = 1) -> dict:
    """`record` as an arXiv listing has it in its `version`th version (another abstract, no OpenReview link)."""
    return {**reworded(record, arxiv=number, url=f"https://arxiv.org/abs/{number}v{version}"),
            "abstract": f"Version {version}. " + record["abstract"]}


def library_updated(db: Path) -> list[str]:
    done = triage("list", "--library", "-q", "is:updated", "--format", "jsonl", "--db", str(db))
    assert "Traceback" not in done.stderr, done.stderr
    return [row["title"] for row in rows(done)]


async def test_the_library_says_a_marked_paper_was_seen_in_a_later_version(tmp_path, corpora):
    from tests.waits import until
    from tui.app import TriageApp
    from tui.cli.common import load
    from tui.widgets.paper_list import PaperList

    papers = iclr(corpora)[:20]
    db = tmp_path / "triage.json"
    v1 = write(tmp_path / "v1.jsonl", [preprint(papers[3], "2402.00003"), preprint(papers[4], "2402.00004")])
    for record in papers[3:5]:
        mark(db, v1, record["title"], "--star")
    assert library_updated(db) == []  # no later version seen yet
    v2 = write(tmp_path / "v2.jsonl", [preprint(papers[3], "2402.00003", 2), preprint(papers[4], "2402.00004")])
    assert [title for title, row in listed(db, v2).items() if row.get("updated")] == [papers[3]["title"]]
    assert library_updated(db) == [papers[3]["title"]]
    library = load([], db=db)
    app = TriageApp(library, str(db))
    async with app.run_test(size=(140, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        await until(pilot, lambda: len(paper_list.papers) == 2)
        shown = {paper.title: y for y, paper in enumerate(paper_list.papers)}
        assert "↻" in paper_list.render_line(shown[papers[3]["title"]]).text
        assert "↻" not in paper_list.render_line(shown[papers[4]["title"]]).text
    # marked in its second version, that is the record kept: the library no longer says so
    mark(db, v2, papers[3]["title"], "--read")
    assert library_updated(db) == []
    # the proceedings (the conference's list: published after the preprint) are later than both
    listed(db, write(tmp_path / "iclr.jsonl", papers))
    assert sorted(library_updated(db)) == sorted(record["title"] for record in papers[3:5])


async def test_marking_the_later_version_takes_its_mark_off_at_once_at_a_scrolled_position(tmp_path, corpora):
    """The paper starred as an arXiv preprint, seen in the ICLR list (the proceedings: its later version) far down."""
    from store.readers import read_path
    from tests.waits import until
    from tui.app import TriageApp
    from tui.widgets.paper_list import PaperList

    papers = iclr(corpora)
    far = 1200
    db = tmp_path / "triage.json"
    arxiv = write(tmp_path / "arxiv.jsonl", [preprint(papers[far], "2402.01200"), preprint(papers[far + 1], "2402.01201")])
    for record in papers[far : far + 2]:
        mark(db, arxiv, record["title"], "--star")
    app = TriageApp(read_path(corpora / "iclr-2024-papers.jsonl"), str(db))
    async with app.run_test(size=(140, 40)) as pilot:
        paper_list = app.query_one(PaperList)
        await until(pilot, lambda: len(paper_list.papers) == len(papers) and paper_list.papers[far].id in paper_list.updated)
        later, other = paper_list.papers[far], paper_list.papers[far + 1]
        assert later.title == papers[far]["title"] and other.id in paper_list.updated
        paper_list.cursor = far
        await pilot.pause()
        top = paper_list.scroll_offset.y
        assert top > 0
        assert "↻" in paper_list.render_line(far - top).text and "★" in paper_list.render_line(far - top).text
        await pilot.press("r")  # read, here: this version's record is kept
        await until(pilot, lambda: not app.saving and app.states[later.id].read and later.id not in paper_list.updated)
        assert paper_list.scroll_offset.y == top
        row = paper_list.render_line(far - top).text
        assert "↻" not in row and "★" in row
        assert "↻" in paper_list.render_line(far + 1 - top).text  # the other stays updated
    assert [title for title, row in listed(db, arxiv).items() if row["read"]] == [papers[far]["title"]]


def test_a_seen_file_whose_later_versions_are_damaged_or_absent_says_none(tmp_path, corpora):
    """A first-seen file from before (no "later") or with a damaged one: the library says no paper updated, and a list
    opened again writes what it sees."""
    papers = iclr(corpora)[:10]
    db = tmp_path / "triage.json"
    v1 = write(tmp_path / "v1.jsonl", [preprint(papers[3], "2402.00003")])
    mark(db, v1, papers[3]["title"], "--star")
    seen = db.with_name(db.name + ".seen")
    data = json.loads(seen.read_text())
    assert "later" not in data  # (as a database from before has it)
    assert library_updated(db) == []
    pid = listed(db, v1)[papers[3]["title"]]["id"]
    for damaged in ({pid: [[2, "v2"], "x", [1]]}, {pid: "later"}, ["not", "a", "map"]):
        seen.write_text(json.dumps({**data, "later": damaged}))
        assert library_updated(db) == []
    v2 = write(tmp_path / "v2.jsonl", [preprint(papers[3], "2402.00003", 2)])
    listed(db, v2)
    assert library_updated(db) == [papers[3]["title"]]
