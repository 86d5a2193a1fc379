"""Hostile files through the real command: nested hundreds of thousands deep, lone surrogate
escapes. One line on stderr naming the file and line, never a traceback; the rest of a file loads."""
from __future__ import annotations

import json

from tests.hostile import one_line, rows, triage

ABSTRACT = "An abstract about hostile files that is long enough to be read as one."


def test_json_nested_100000_deep_is_refused_in_one_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    result = triage("list", str(path))
    assert result.returncode == 2
    assert one_line(result) == f"triage: {path}: nested too deeply to read (arrays or objects inside each other thousands deep)"


def test_a_jsonl_line_nested_100000_deep_is_skipped_and_the_other_lines_load(tmp_path):
    path = tmp_path / "deep.jsonl"
    good = [json.dumps({"title": f"Paper {n}", "abstract": f"{ABSTRACT} {n}"}) for n in (1, 3)]
    path.write_text(f"{good[0]}\n{'[' * 100_000}{']' * 100_000}\n{good[1]}\n")
    result = triage("list", str(path), "--format", "jsonl")
    assert result.returncode == 0
    assert [row["title"] for row in rows(result)] == ["Paper 1", "Paper 3"]
    assert one_line(result) == f"triage: 1 skipped: {path}:2: skipped a line nested too deeply to read"


def test_a_record_with_a_value_nested_hundreds_deep_is_skipped_not_a_crash(tmp_path):
    path = tmp_path / "deep.json"
    deep = json.loads("[" * 900 + "]" * 900)
    path.write_text(json.dumps([{"title": "Deep", "abstract": ABSTRACT, "extra": deep}, {"title": "Fine", "abstract": ABSTRACT + "!"}]))
    result = triage("list", str(path), "--format", "jsonl")
    assert result.returncode == 0 and [row["title"] for row in rows(result)] == ["Fine"]
    assert one_line(result) == f"triage: 1 skipped: {path}: record 1: skipped a record nested too deeply to read"


def test_a_lone_surrogate_escape_reads_as_a_replacement_character_and_the_paper_can_be_marked(tmp_path):
    path = tmp_path / "odd.json"
    path.write_text('[{"title": "Half \\ud800 a pair", "abstract": "\\ud800"}, {"title": "Whole", "abstract": "\\ud83d\\ude00 ok"}]')
    result = triage("list", str(path), "--format", "jsonl")
    assert result.returncode == 0 and result.stderr == ""
    assert [(row["title"], row["text"]) for row in rows(result)] == [("Half \ufffd a pair", "\ufffd"), ("Whole", "😀 ok")]
    marked = triage("set", rows(result)[0]["id"], str(path), "--star", "--note", "half")
    assert marked.returncode == 0, marked.stderr
    assert [row["starred"] for row in rows(triage("list", str(path), "--format", "jsonl"))] == [True, False]
