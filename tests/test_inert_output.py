"""Whatever a list file or the database holds, `triage list`, `cite`, `export` and `set` write no
terminal control to stdout or stderr: no ESC, no C0 but tab and newline, no C1, no bidi control."""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, HealthCheck, settings, strategies as st

from store.papers.model import Triage
from store.cite import citations as cite
from store.readers import read_paths
from store.marks.db import TriageStore
from tests.tmux import triage_command
from tui.cli import main

OSC = "\x1b]2;PWNED\x1b\\\x1b]52;c;SGVsbG8t\x1b\\"
C1 = "\x9b31m\x9d2;PWNED\x9c"
BIDI = "\u202e\u2066\u061c\u200f"
HOSTILE = OSC + C1 + BIDI
ABSTRACT = "We propose a method that works, and the abstract says so in a few words."
MORE = "\n\n".join(f"Another abstract, number {n}, long enough that the escapes are no binary file." for n in range(4))
# What must never reach a terminal: C0 but tab and newline (ESC among them), DEL, C1, bidi controls.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def controls(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in CONTROL.findall(text)})


def record(text: str = HOSTILE) -> dict[str, object]:
    return {"title": f"Title {text}", "abstract": f"{ABSTRACT} {text}", "authors": [f"Ann {text} Lee", text],
            "venue": f"ICLR {text}", "year": 2024, "url": f"https://x.org/{text}", "doi": f"10.1/{text}",
            "pdf_url": f"https://x.org/{text}.pdf", "key": f"key{text}", "note": text}


def hostile_lists(folder: Path) -> dict[str, Path]:
    """One hostile list per format the readers take, and a directory with a hostile file name."""
    folder.mkdir()
    lists = {}
    lists["txt"] = folder / "h.txt"
    lists["txt"].write_text(f"{HOSTILE} my list\n\n{ABSTRACT} {HOSTILE}\n\n{MORE}\n", encoding="utf-8")
    lists["jsonl"] = folder / "h.jsonl"
    lists["jsonl"].write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in [record(), {**record(), "abstract": HOSTILE * 3}, {"abstract": MORE}]),
        encoding="utf-8")
    lists["json"] = folder / "h.json"
    lists["json"].write_text(json.dumps([record(), {"abstract": MORE}], ensure_ascii=True), encoding="utf-8")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(record()))
    writer.writeheader()
    writer.writerows([{k: "; ".join(v) if isinstance(v, list) else v for k, v in record().items()}, {"abstract": MORE}])
    lists["csv"] = folder / "h.csv"
    lists["csv"].write_text(out.getvalue(), encoding="utf-8")
    bel = "\x1b]2;PWNED\x07\x1b]52;c;SGVsbG8t\x07" + C1 + BIDI  # (BibTeX: `\\}` would escape the brace)
    lists["bib"] = folder / "h.bib"
    lists["bib"].write_text(
        f"@article{{key{bel},\n  title = {{Title {bel}}},\n  author = {{Ann {bel} Lee and {bel}}},\n"
        f"  journal = {{J {bel}}},\n  note = {{{bel}}},\n  url = {{https://x.org/{bel}}},\n  doi = {{10.1/{bel}}},\n"
        f"  abstract = {{{ABSTRACT} {bel}}}\n}}\n@misc{{other, title = {{Other}}, abstract = {{{MORE}}}}}\n",
        encoding="utf-8")
    inside = folder / "dir"
    inside.mkdir()
    (inside / f"{OSC}{C1}list.txt").write_text(f"My list\n\n{ABSTRACT}\n\n{MORE}\n", encoding="utf-8")
    (inside / f"{OSC}broken.json").write_text("[not json", encoding="utf-8")  # skipped: a warning names it
    lists["directory"] = inside
    return lists


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([triage_command(), *args], capture_output=True, text=True, encoding="utf-8")


@pytest.fixture(scope="module")
def lists(tmp_path_factory) -> dict[str, Path]:
    return hostile_lists(tmp_path_factory.mktemp("hostile") / "lists")


@pytest.mark.parametrize("kind", ["txt", "jsonl", "json", "csv", "bib", "directory"])
def test_no_control_reaches_stdout_or_stderr_from_any_format(lists, kind, tmp_path):
    files = str(lists[kind])
    db = str(tmp_path / "db.json")
    papers = read_paths([files]).papers
    first = papers[0].id
    noted = run("set", first, files, "--db", db, "--note", f"see {HOSTILE}", "--tag", HOSTILE, "--tag", "ok")
    assert noted.returncode == 0, noted.stderr
    results = [noted, run("list", files, "--db", db), run("list", files, "--db", db, "--format", "jsonl")]
    results += [run("list", files, "--db", db, "-q", "method", "--format", "jsonl")]
    results += [run("cite", first, files, "--format", fmt, "--abstract") for fmt in cite.FORMATS]
    results += [run("export", files, "--db", db, "--format", fmt, "--abstract") for fmt in ("bibtex", "markdown", "csv", "jsonl")]
    for result in results:
        assert result.returncode == 0, (result.args, result.stderr)
        assert controls(result.stdout) == [] and controls(result.stderr) == [], result.args
    # Still there: the words, the note, the tag, the paper's link (what the escapes wrapped).
    listed = [json.loads(line) for line in results[2].stdout.splitlines()]
    assert listed[0]["note"] == "see " and "ok" in listed[0]["tags"]
    assert ABSTRACT in listed[0]["text"]
    # Nor an escaped ESC in JSON: `jq -r` would print it.
    assert all("\\u001b" not in result.stdout for result in results)


def test_a_file_name_with_escapes_is_named_without_them(lists, tmp_path):
    result = run("list", str(lists["directory"]), "--db", str(tmp_path / "db.json"), "--format", "jsonl")
    assert "broken.json" in result.stderr and controls(result.stderr) == []
    assert "list.txt" in json.loads(result.stdout.splitlines()[0])["source"]


TEXT = st.lists(st.characters(exclude_categories=("Cs",)) | st.sampled_from(["\x1b", "\x1b]52;c;", "\x1b[", "\x9b", "\x9d", "\x07", "\\", "}"]),
                max_size=20).map("".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.fixed_dictionaries({k: TEXT for k in ("title", "abstract", "author", "venue", "url", "doi", "key", "note", "tag")}))
def test_any_string_in_any_field_and_the_database_never_reaches_stdout_as_a_control(values, tmp_path, capsys):
    folder = Path(tempfile.mkdtemp(prefix="lists-", dir=tmp_path))  # (hypothesis may give one example twice)
    rec = {"title": values["title"], "abstract": f"{ABSTRACT} {values['abstract']}", "authors": [values["author"]],
           "venue": values["venue"], "year": 2024, "url": values["url"], "doi": values["doi"], "key": values["key"]}
    (folder / "h.jsonl").write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    with (folder / "h.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[k for k in rec if k != "authors"] + ["authors"])
        writer.writeheader()
        writer.writerow({**rec, "abstract": f"Other: {rec['abstract']}", "authors": values["author"]})
    (folder / "h.txt").write_text(f"{values['title']}\n\n{ABSTRACT} again. {values['abstract']}\n\n{MORE}\n", encoding="utf-8")
    files = [str(folder)]
    papers = read_paths(files).papers
    db = tmp_path / f"{folder.name}.json"
    store = TriageStore(db)
    store.attach(papers)
    store.put({p.id: Triage(starred=True, note=values["note"], tags=(values["tag"],)) for p in papers})
    store.close()
    commands = [["list", *files], ["list", *files, "--format", "jsonl"]]
    commands += [["export", *files, "--format", fmt, "--abstract"] for fmt in ("bibtex", "markdown", "csv", "jsonl")]
    commands += [["cite", papers[0].id, *files, "--format", fmt, "--abstract"] for fmt in cite.FORMATS]
    for command in commands:
        code = main([*command, "--db", str(db)])
        out, err = capsys.readouterr()
        assert code == 0, (command, err)
        assert out and controls(out) == [] and controls(err) == [], command
