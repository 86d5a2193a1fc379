"""`triage import FILE... [--star | --tag T | --read]`: every paper of a Zotero export, your own papers, a
reading-group list marked at once, through `triage set`'s path, so that the first list opened after knows
them; a file that cannot be read marks nothing. The installed `triage`, on a real database in a tmp folder."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import SEED

TRIAGE = str(Path(sys.executable).with_name("triage"))


def run(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed `triage`, as a user runs it (with a guard against a hang, not a measure of time)."""
    return subprocess.run([TRIAGE, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)


def ids(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The ids `triage list --format jsonl` printed (none: exit 1)."""
    assert result.returncode == (0 if result.stdout else 1), result.stderr
    return [json.loads(line)["id"] for line in result.stdout.splitlines()]


def test_a_ris_export_imported_starred_shows_in_the_iclr_list_and_for_you_ranks_by_it(corpora, tmp_path):
    iclr = corpora / "iclr-2024-papers.jsonl"
    topic = "offline reinforcement learning"
    # The user's Zotero library: ICLR papers about offline RL, exported as RIS.
    assert run("export", iclr, "-q", topic, "--format", "ris", "-o", tmp_path / "ris-export.ris").returncode == 0
    wanted = ids(run("list", iclr, "-q", topic, "--format", "jsonl"))

    imported = run("import", "ris-export.ris", "--star", cwd=tmp_path)
    assert (imported.returncode, imported.stdout, imported.stderr) == (0, f"ris-export.ris: {len(wanted)} papers starred\n", "")

    assert sorted(ids(run("list", iclr, "-q", "is:starred", "--format", "jsonl"))) == sorted(wanted)
    ranked = run("list", iclr, "--sort", "interest", "--format", "jsonl")
    assert ranked.stderr == ""  # no "star a paper to get suggestions"
    top = [row for row in map(json.loads, ranked.stdout.splitlines()[:20])]
    assert not any(row["starred"] for row in top)
    assert sum(row["area"] == "reinforcement learning" for row in top) >= 15, [row["title"] for row in top]  # (OpenReview's area)


def test_each_format_imports_tagged_or_read_and_the_same_papers_carry_the_marks(tmp_path):
    seed = ids(run("list", SEED, "--format", "jsonl"))
    # (BibTeX writes an abstract's LaTeX escaped: one with math reads back as another text, so another id)
    for name, fmt, query in (("mine.bib", "bibtex", "HDGNN"), ("group.json", "csl-json", "language"), ("x.jsonl", "jsonl", "diffusion")):
        assert run("export", SEED, "-q", query, "--format", fmt, "--abstract", "-o", tmp_path / name).returncode == 0
    assert run("export", SEED, "-q", "molecule", "--format", "ris", "-o", tmp_path / "read.ris").returncode == 0
    counts = {name: len(ids(run("list", tmp_path / name, "--format", "jsonl"))) for name in ("mine.bib", "group.json", "x.jsonl")}

    tagged = run("import", "mine.bib", "group.json", "x.jsonl", "--tag", "reading-group", cwd=tmp_path)
    assert tagged.returncode == 0, tagged.stderr
    assert tagged.stdout == "".join(f"{name}: {count} paper{'s' * (count != 1)} tagged reading-group\n" for name, count in counts.items())
    read = run("import", tmp_path / "read.ris", "--read")
    assert read.stdout == f"{tmp_path / 'read.ris'}: 1 paper marked read\n"

    in_seed = set(seed)
    for query, files in (("tag:reading-group", ("mine.bib", "group.json", "x.jsonl")), ("is:read", ("read.ris",))):
        expected = {pid for name in files for pid in ids(run("list", tmp_path / name, "--format", "jsonl"))}
        assert expected <= in_seed  # (exported from it: the same papers, the same ids)
        assert set(ids(run("list", SEED, "-q", query, "--format", "jsonl"))) == expected
    assert ids(run("list", SEED, "-q", "is:starred", "--format", "jsonl")) == []


def test_a_file_that_cannot_be_read_is_named_and_nothing_is_marked(tmp_path):
    good = tmp_path / "good.ris"
    assert run("export", SEED, "-q", "graph", "--format", "ris", "-o", good).returncode == 0
    (tmp_path / "notes.ris").write_text("no records here\n", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.bib")  # (read, it would block for ever)
    for bad, why in (("missing.bib", "no such file"), ("notes.ris", "no RIS records (a record starts with a line 'TY  - ')"),
                     ("pipe.bib", "a FIFO, not a regular file: not read")):
        result = run("import", "good.ris", bad, "--star", cwd=tmp_path)
        assert (result.returncode, result.stdout, result.stderr) == (2, "", f"triage: {bad}: {why}\n")
        assert ids(run("list", SEED, "-q", "is:starred", "--format", "jsonl")) == []
    assert not (tmp_path / "triage.json").exists() or "good" not in (tmp_path / "triage.json").read_text()
