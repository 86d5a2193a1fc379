"""Ids are 40 bits: two abstracts in a million share one (two pairs in the 2.7 million of an arXiv snapshot). Each is
a paper of its own with marks of its own, the later one under another id, the same each time the list is read; a
repeat of either is still no second paper (store.readers.uniques)."""
from __future__ import annotations

import json
import subprocess

from store.papers.model import paper_id
from store.readers import read_path
from tests.tmux import triage_command

FIRST = "We study problem 434459 and show that it can be solved."
SECOND = "We study problem 730747 and show that it can be solved."
"""Two abstracts of one id (c9c80100eb), found by trying numbers."""


def triage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([triage_command(), *args], capture_output=True, text=True, timeout=120)


def test_two_abstracts_of_one_id_are_two_papers_each_with_its_own_marks(tmp_path):
    path = tmp_path / "clash.txt"
    # the second again in capitals, the first again spaced out: repeats, no paper
    path.write_text(f"Clashing abstracts\n\n{FIRST}\n\n{SECOND}\n\n{SECOND.upper()}\n\n{FIRST.replace(' ', '   ')}\n")
    papers = read_path(path).papers
    assert [paper.text for paper in papers] == [FIRST, SECOND]
    assert paper_id(FIRST) == paper_id(SECOND) == papers[0].id != papers[1].id
    assert [paper.id for paper in read_path(path).papers] == [paper.id for paper in papers]  # (read again: from the cache)
    db = str(tmp_path / "marks.json")
    result = triage("set", papers[1].id, str(path), "--star", "--db", db)
    assert result.returncode == 0, result.stderr
    listed = triage("list", str(path), "--db", db, "--format", "jsonl")
    assert [(row["text"], row["starred"]) for row in map(json.loads, listed.stdout.splitlines())] == \
        [(FIRST, False), (SECOND, True)]
