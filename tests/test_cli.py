"""The `triage` command line without the app: list, version, errors."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from store.readers import read_path


def triage(*args: str, cwd=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True, text=True, cwd=cwd)


def test_list_jsonl_is_the_seed(seed_path, tmp_path):
    result = triage("list", "--format", "jsonl", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["text"] for row in rows] == [p.text for p in read_path(seed_path).papers]
    assert {(row["venue"], row["year"]) for row in rows} == {("ICLR", 2024)}
    assert len({row["id"] for row in rows}) == 19
    assert all({"id", "title", "venue", "year", "links", "text"} <= row.keys() for row in rows)


def test_list_table_has_a_row_per_paper(seed_path):
    result = triage("list", str(seed_path))
    assert result.returncode == 0
    assert len(result.stdout.splitlines()) == 19


def test_list_table_names_the_year_once(corpora, seed_path):
    """A venue that names its year ('ICLR 2024') is not followed by the year again."""
    jsonl = triage("list", str(corpora / "iclr-2024-papers.jsonl")).stdout.splitlines()
    seed = triage("list", str(seed_path)).stdout.splitlines()
    assert len(jsonl) == 2260 and all(line.endswith("  ICLR 2024") for line in jsonl)
    assert all(line.endswith("  ICLR 2024") for line in seed)  # the seed's header: venue ICLR, year 2024


def test_version_and_help():
    assert triage("--version").stdout.startswith("triage ")
    help_text = triage("--help").stdout
    assert "triage list" in help_text and "--db" in help_text


def test_missing_file_is_one_line_and_exit_2(tmp_path):
    missing = tmp_path / "nope.txt"
    result = triage("list", str(missing))
    assert result.returncode == 2
    assert result.stderr.strip() == f"triage: {missing}: no such file"
    result = triage(str(missing))
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_output_a_full_disk_refuses_is_one_line_and_exit_120(seed_path):
    """The output still held when the command ends, refused by a full disk: one line says so, never a traceback."""
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "tui", "cite", read_path(seed_path).papers[0].id, str(seed_path)],
                                stdout=full, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": ""})
    assert (result.returncode, result.stderr) == (120, "triage: output not written whole (No space left on device)\n")


@pytest.mark.parametrize("command", [["list", "--format", "jsonl"], ["export", "--format", "ris"]])
def test_output_a_full_disk_refuses_midway_is_one_line_and_exit_120(seed_path, command):
    """The seeds' list (36 kB as JSON Lines, 31 kB as RIS) is more than stdout's buffer (8 kB at most): a write is
    refused while the command runs, not at its end; still the one line, and nothing else."""
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "tui", *command, str(seed_path)],
                                stdout=full, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": ""})
    assert (result.returncode, result.stderr) == (120, "triage: output not written whole (No space left on device)\n")


def test_a_csv_without_a_header_row_is_one_line_and_exit_2_unless_it_is_a_column_of_abstracts(tmp_path):
    abstracts = ["We propose FairTune, a framework to optimise fairness of fine-tuned models, and show it works.",
                 "Vision tasks are local, yet transformers see everything at once; we introduce a task to measure it."]
    rows = tmp_path / "rows.csv"
    rows.write_text("".join(f'"Title {i}","{text}"\n' for i, text in enumerate(abstracts)), encoding="utf-8")
    result = triage("list", str(rows))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"triage: {rows}:1: no title or abstract column in the header row 'Title 0,We propose")
    column = tmp_path / "column.csv"
    column.write_text("".join(f'"{text}"\n' for text in abstracts), encoding="utf-8")
    result = triage("list", str(column), "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["text"] for line in result.stdout.splitlines()] == abstracts


def test_subcommands_do_not_import_textual():
    code = "import sys; from tui import cli; cli.main(['list', '--format', 'jsonl']); print('textual' in sys.modules, file=sys.stderr)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stderr.strip() == "False"


def test_several_files_and_directories_are_one_list_and_skipped_records_are_named(tmp_path, seed_path):
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "extra.jsonl").write_text(
        json.dumps({"title": "Extra: One More", "abstract": "A new abstract about Extra."}) + "\n{broken\n", encoding="utf-8"
    )
    (tmp_path / "more" / "copy.txt").write_bytes(seed_path.read_bytes())
    result = triage("list", "--format", "jsonl", str(seed_path), str(tmp_path / "more"))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 20 and rows[-1]["title"] == "Extra: One More"
    assert result.stderr.strip() == f"triage: 1 skipped: {tmp_path / 'more' / 'extra.jsonl'}:2: skipped a line that is not JSON (Expecting property name enclosed in double quotes)"


def test_bad_files_exit_2_with_one_line(tmp_path):
    cases = {"empty.txt": b"", "binary.txt": bytes(range(256)), "bad.json": b"[1,"}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        result = triage("list", str(tmp_path / name))
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stderr.startswith(f"triage: {tmp_path / name}")
    (tmp_path / "dir").mkdir()
    result = triage(str(tmp_path / "dir"))
    assert result.returncode == 2 and "no readable lists" in result.stderr and "Traceback" not in result.stderr


def test_a_folder_with_no_readable_list_names_each_file_it_skipped_and_why(tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "scores.tsv").write_text("1\t2\n3\t4\n", encoding="utf-8")
    (folder / "empty.txt").write_text("\x00\x01\n", encoding="utf-8")
    (folder / "paper.pdf").write_bytes(b"%PDF-1.7")
    result = triage("list", str(folder))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    line = result.stderr
    assert line.startswith(f"triage: {folder}: no readable lists in this directory"), line
    assert f"{folder / 'scores.tsv'}:1: no title or abstract column" in line and f"{folder / 'empty.txt'}: binary file" in line
    assert "1 file of another kind (paper.pdf)" in line


def test_a_whole_file_read_as_one_abstract_without_a_sentence_is_warned_about(tmp_path):
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n", encoding="utf-8")
    result = triage("list", str(passwd))
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 1
    assert result.stderr == f"triage: {passwd}: read as one abstract without a sentence: is it a list of abstracts?\n"
    one = tmp_path / "one.txt"
    one.write_text("We propose a method. It works well on graphs.\n", encoding="utf-8")
    assert triage("list", str(one)).stderr == ""  # one real abstract: no doubt
