"""The `triage` command line without the app: list, version, errors."""
from __future__ import annotations

import json
import subprocess
import sys

from store import read_path


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


def test_subcommands_do_not_import_textual():
    code = "import sys; from tui import cli; cli.main(['list', '--format', 'jsonl']); print('textual' in sys.modules, file=sys.stderr)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stderr.strip() == "False"
