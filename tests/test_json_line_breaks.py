"""Every JSON the program writes keeps Unicode line breaks (U+2028, U+2029, U+0085) escaped inside its
strings: a consumer that splits lines as Python's `str.splitlines` or JavaScript does sees one line per
record, and `json.loads` gives the text back. Real `triage` processes on real files in a temp dir."""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.test_cli import triage

BREAKS = "one\u2028two\u2029three\x85four"
ABSTRACT = f"An abstract with line breaks: {BREAKS}. It goes on about graphs and diffusion."
NOTE = f"a note {BREAKS}"


def records(text: str) -> list[dict]:
    """The records of JSON Lines, split as a Unicode-aware consumer splits them: each line a record."""
    lines = text.splitlines()
    assert lines == text.split("\n")[: len(lines)], "a line break inside a record"
    return [json.loads(line) for line in lines]


def write_papers(folder: Path) -> str:
    papers = folder / "papers.jsonl"
    rows = [{"id": f"p{k}", "title": f"Paper {k} on graphs", "abstract": ABSTRACT if k == 0 else f"Plain abstract {k} on graphs."}
            for k in range(3)]
    papers.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")  # escaped as \u2028 here
    return str(papers)


def test_every_json_output_keeps_one_line_per_record(tmp_path):
    papers = write_papers(tmp_path)
    listed = triage("list", papers, "--format", "jsonl")
    assert listed.returncode == 0, listed.stderr
    rows = records(listed.stdout)
    assert len(rows) == 3 and "one\u2028two\u2029three" in rows[0]["text"]
    pid = rows[0]["id"]

    marked = triage("set", pid, papers, "--note", NOTE, "--tag", "t\u2028ag", "--format", "jsonl")
    assert marked.returncode == 0, marked.stderr
    [row] = records(marked.stdout)
    said = triage("set", pid, papers).stdout  # the plain line a person reads: one line too
    assert len(said.splitlines()) == 1 and said.endswith("tags: t ag; note: a note one two threefour)\n"), said
    assert row["note"] == NOTE.replace("\x85", "") and row["tags"] == ["t\u2028ag"]  # (U+0085 is a C1 control: inert)

    for args in (("list", papers, "-q", "graphs", "--format", "jsonl"), ("similar", rows[1]["id"], papers, "--format", "jsonl"),
                 ("export", papers, "--format", "jsonl")):
        result = triage(*args)
        assert result.returncode == 0, result.stderr
        assert any(r.get("note") == row["note"] for r in records(result.stdout)), args

    assert triage("backup", str(tmp_path / "marks.backup")).returncode == 0
    folder = tmp_path / "sync"
    folder.mkdir()
    assert triage("sync", str(folder)).returncode == 0
    [device] = folder.iterdir()
    noted = json.dumps(row["note"], ensure_ascii=False)
    for path in (tmp_path / "marks.backup", device):
        assert any(noted in json.dumps(r, ensure_ascii=False) for r in records(path.read_text(encoding="utf-8"))), path
    db = Path(os.environ["TRIAGE_DB"])
    held = []  # the database: its snapshot a document a line, its journal a change a line
    for path in (db, Path(f"{db}.journal")):
        if path.exists():
            text = path.read_text(encoding="utf-8")
            lines = text.splitlines()
            assert lines == text.split("\n")[: len(lines)], path
            held += [json.loads(text)] if path == db else [json.loads(line) for line in lines]
    assert any(noted in json.dumps(doc, ensure_ascii=False) for doc in held)
