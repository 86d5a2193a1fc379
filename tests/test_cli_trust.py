"""What the installed `triage` refuses rather than guess at: a query it does not understand, an
unknown export extension, a database folder that does not exist, a mistyped subcommand; and
options and FILES in any order, a query that starts with "-", exports with the umask's mode."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from store.readers import read_path
from tests.tmux import Tmux, triage_command


def triage(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None, umask: int | None = None):
    """The installed `triage` run as a user runs it (under `umask` when given)."""
    command = [triage_command(), *args]
    if umask is not None:
        command = ["sh", "-c", f'umask {umask:03o} && exec "$@"', "sh", *command]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env={**os.environ, **(env or {})})


def ids(result) -> list[str]:
    return [json.loads(line)["id"] for line in result.stdout.splitlines()]


@pytest.fixture
def iclr(corpora) -> Path:
    return corpora / "iclr-2024-abstracts.txt"


# --- item 4: a query that is not understood -----------------------------------------------------

def test_a_misspelt_qualifier_exports_nothing_instead_of_every_paper(iclr, tmp_path):
    out = tmp_path / "starred.bib"
    result = triage("export", "-q", "is:stared", str(iclr), "-o", str(out))
    assert result.returncode == 2
    assert result.stderr == "triage: query 'is:stared': is: needs one of read, unread, starred, dismissed, new, updated\n"
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("query", "why"), [
    ("auther:bengio", "unknown qualifier auther:"),
    ("p<=9", "p<= needs a number from 0 to 5"),
    ('diffusion "recovery', "unclosed quote"),
])
def test_list_refuses_a_query_it_does_not_understand(iclr, query, why):
    result = triage("list", str(iclr), "-q", query)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"triage: query {query!r}: {why}") and result.stderr.count("\n") == 1


# --- item 5: a query that starts with "-" ---------------------------------------------------------

def test_a_query_starting_with_a_dash_reaches_the_query(seed_path):
    papers = read_path(seed_path).papers
    assert triage("set", papers[2].id, "--read").returncode == 0
    for option in ("-q", "--query"):
        result = triage("list", option, "-is:read", "--format", "jsonl")
        assert result.returncode == 0, result.stderr
        assert ids(result) == [p.id for p in papers if p.id != papers[2].id]
    assert "-q -is:read" in " ".join(triage("list", "--help").stdout.split())


# --- item 13: options and files in any order ------------------------------------------------------

def test_options_after_files_in_every_subcommand(seed_path, iclr, tmp_path):
    target = read_path(seed_path).papers[4].id
    marked = triage("set", target, "--star", str(seed_path), "--format", "jsonl")
    assert marked.returncode == 0, marked.stderr
    assert json.loads(marked.stdout)["starred"] is True
    listed = triage("list", str(seed_path), "--format", "jsonl", str(iclr))
    assert listed.returncode == 0, listed.stderr
    assert ids(listed) == ids(triage("list", str(seed_path), str(iclr), "--format", "jsonl")) and len(ids(listed)) > 2260
    out = tmp_path / "out.bib"
    exported = triage("export", str(iclr), "-q", "is:starred", "-o", str(out), str(seed_path))
    assert exported.returncode == 0, exported.stderr
    assert exported.stderr == f"1 papers written to {out} (bibtex)\n"
    cited = triage("cite", target, "--format", "id", str(seed_path))
    assert (cited.returncode, cited.stdout) == (0, target + "\n")


# --- item 9: exports --------------------------------------------------------------------------

@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_an_export_gets_the_mode_the_umask_gives(tmp_path, umask, mode):
    out = tmp_path / "refs.bib"
    result = triage("export", "-o", str(out), umask=umask)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_mode & 0o777 == mode


def test_an_overwritten_export_keeps_its_mode(tmp_path):
    out = tmp_path / "refs.bib"
    out.write_text("mine\n")
    out.chmod(0o640)
    assert triage("export", "-o", str(out), "--force", umask=0o022).returncode == 0
    assert out.stat().st_mode & 0o777 == 0o640 and out.read_text().startswith("@inproceedings{")


def test_an_unknown_extension_is_refused_unless_a_format_is_given(tmp_path):
    out = tmp_path / "list.txt"
    result = triage("export", "-o", str(out))
    assert result.returncode == 2 and not out.exists()
    assert result.stderr == (
        f"triage: {out}: unknown extension .txt: name it .bib, .ris, .json, .md, .csv or .jsonl, or pass --format\n"
    )
    assert triage("export", "-o", str(tmp_path / "list")).stderr.endswith("no extension: name it .bib, .ris, .json, .md, .csv or .jsonl, or pass --format\n")
    assert triage("export", "-o", str(out), "--format", "markdown").returncode == 0
    assert out.read_text(encoding="utf-8").startswith("# Reading list")


# --- item 12: the database's folder, `triage set` outside the lists, a mistyped command ----------

@pytest.mark.parametrize("how", ["--db", "$TRIAGE_DB"])
def test_a_database_in_a_folder_that_does_not_exist_is_refused(seed_path, tmp_path, how):
    db = tmp_path / "typo" / "dir" / "db.json"
    args, env = (["--db", str(db)], {}) if how == "--db" else ([], {"TRIAGE_DB": str(db)})
    for command in (["set", read_path(seed_path).papers[0].id, "--star"], ["list", "--format", "jsonl"], ["export"]):
        result = triage(*command, *args, env=env)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == f"triage: no folder {db.parent} for the database ({how})\n"
    assert not (tmp_path / "typo").exists()


def test_the_app_refuses_a_database_folder_that_does_not_exist_before_drawing(tmp_path):
    db = tmp_path / "typo" / "db.json"
    term = Tmux(f"{triage_command()} --db {db}")
    try:
        screen = term.wait_for(lambda s: "EXIT=" in s)
        assert f"triage: no folder {db.parent} for the database (--db)" in screen and "EXIT=2" in screen
        assert not db.parent.exists()
    finally:
        term.kill()


def test_the_platform_data_folder_is_created(seed_path, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TRIAGE_DB"}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    result = subprocess.run([triage_command(), "set", read_path(seed_path).papers[0].id, "--star"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "data" / "paper-triage" / "triage.json").exists()


def test_set_of_a_paper_not_in_the_lists_says_to_pass_its_file(iclr, seed_path):
    iclr_only = next(p.id for p in read_path(iclr).papers if p.id not in {q.id for q in read_path(seed_path).papers})
    result = triage("set", iclr_only, "--star")
    assert result.returncode == 2
    assert result.stderr == (
        f"triage: no paper with id {iclr_only!r} in {seed_path} or the database;"
        " pass the file it is in: triage set ID FILE...\n"
    )
    assert triage("set", iclr_only, "--star", str(iclr)).returncode == 0
    assert "pass the file it is in" in " ".join(triage("set", "--help").stdout.split())


def test_a_mistyped_command_is_named_with_the_one_meant(tmp_path):
    result = triage("lsit", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "triage: no such file or command 'lsit' (did you mean list?)\n"
    (tmp_path / "lsit").write_text("Abstract one about graphs and more words here.\n")
    assert triage("list", "lsit", cwd=tmp_path).returncode == 0, "a file of that name is still a file"


@pytest.mark.parametrize("word", ["help", "rank"])
def test_a_word_that_is_neither_a_file_nor_a_command_says_so(word, tmp_path):
    """Before: `triage help` said "help: no such file", as if a list were missing."""
    result = triage(word, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"triage: no such file or command {word!r} (see triage --help)\n"
