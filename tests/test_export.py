"""Export: a .bib, a Markdown reading list by priority with notes, CSV and JSONL; no file is ever clobbered."""
from __future__ import annotations

import csv
import io
import json

import bibtexparser
import pytest

from store.common.errors import ReadError
from store.papers.model import Triage
from store.readers import read_path
from store.cite import export
from store.cite.keys import citation_keys


@pytest.fixture
def papers(seed_path):
    return read_path(seed_path).papers


@pytest.fixture
def states(papers):
    return {
        papers[0].id: Triage(priority=2, note="Compare with EWC.\n\nRead section 3 first.", tags=("cl",)),
        papers[1].id: Triage(read=True, starred=True, priority=1, note="[@click=app.quit] \x1b[31mred"),
        papers[2].id: Triage(starred=True),
    }


def test_markdown_groups_by_priority_and_carries_notes(papers, states):
    text = export.render(papers[:4], "markdown", states)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Priority 1", "## Priority 2", "## No priority"]
    one, two, none = text.split("## ")[1:]
    assert "- [x] ★ [" in one and "https://github.com/ajy112/HDGNN" in one
    assert "  > [@click=app.quit] red" in one, "notes are kept, escape sequences are not"
    assert "  > Compare with EWC.\n  >\n  > Read section 3 first.\n  tags: cl" in two
    assert none.count("\n- [ ] ") == 2 and "★" in none


def test_csv_and_jsonl_carry_state_and_text(papers, states):
    keys = citation_keys(papers)
    rows = list(csv.DictReader(io.StringIO(export.render(papers, "csv", states, keys))))
    assert [r["id"] for r in rows] == [p.id for p in papers]
    assert rows[1]["starred"] == "True" and rows[1]["priority"] == "1" and rows[1]["text"] == papers[1].text
    assert rows[0]["note"] == states[papers[0].id].note and rows[0]["key"] == keys[papers[0].id]
    records = [json.loads(line) for line in export.render(papers, "jsonl", states, keys).splitlines()]
    assert len(records) == len(papers)
    assert records[1]["links"] == ["https://github.com/ajy112/HDGNN"] and records[1]["read"] is True
    assert records[5] == {
        **records[5], "read": False, "starred": False, "priority": 0, "dismissed": False, "note": "", "tags": [],
    }


def test_exports_mark_the_papers_not_for_me(papers, states):
    """A reading list of the papers shown has them all: those marked not for me in a section of their own, last."""
    states = {**states, papers[1].id: Triage(read=True, priority=1, dismissed=True), papers[4].id: Triage(dismissed=True)}
    text = export.render(papers[:6], "markdown", states)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Priority 2", "## No priority", "## Not for me"]
    mine = text.split("## Not for me")[1]
    assert mine.count("\n- [") == 2 and "- [x] " in mine and papers[4].title[:20] in mine
    rows = list(csv.DictReader(io.StringIO(export.render(papers[:6], "csv", states))))
    assert [r["dismissed"] for r in rows] == ["False", "True", "False", "False", "True", "False"]
    records = [json.loads(line) for line in export.render(papers[:6], "jsonl", states).splitlines()]
    assert [r["dismissed"] for r in records] == [False, True, False, False, True, False]


def test_csv_cells_never_become_spreadsheet_formulas(tmp_path):
    path = tmp_path / "evil.txt"
    path.write_text("X 2024 list\n\n=HYPERLINK(\"http://evil.example\",\"click\") is an abstract.\n", encoding="utf-8")
    (paper,) = read_path(path).papers
    state = {paper.id: Triage(note="@SUM(A1:A2)", tags=("-x",))}
    (row,) = csv.DictReader(io.StringIO(export.render([paper], "csv", state)))
    assert row["text"] == "'" + paper.text
    assert (row["note"], row["tags"]) == ("'@SUM(A1:A2)", "'-x")


def test_bibtex_export_keeps_collection_keys_for_a_subset(papers):
    keys = citation_keys(papers)
    subset = papers[9:11]
    library = bibtexparser.parse_string(export.render(subset, "bibtex", keys=keys))
    assert [e.key for e in library.entries] == [keys[p.id] for p in subset]


def test_write_never_overwrites_without_force(tmp_path):
    target = tmp_path / "list.bib"
    export.write(target, "first\n")
    with pytest.raises(ReadError, match="list.bib: already exists"):
        export.write(target, "second\n")
    assert target.read_text() == "first\n"
    export.write(target, "second\n", force=True)
    assert target.read_text() == "second\n"
    assert [p.name for p in tmp_path.iterdir()] == ["list.bib"], "no temporary file is left behind"


def test_write_to_a_missing_folder_names_the_file(tmp_path):
    with pytest.raises(ReadError, match="nowhere/list.md"):
        export.write(tmp_path / "nowhere" / "list.md", "x")
