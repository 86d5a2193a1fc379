"""`triage cite` and `triage export` from the command line."""
from __future__ import annotations

import subprocess
import sys

import bibtexparser

from store.papers.model import Triage
from store.readers import read_path
from store.cite.keys import citation_keys
from store.marks.db import TriageStore


def triage(*args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True, text=True, **kw)


def test_cite_by_id_or_key_in_each_format(seed_path):
    papers = read_path(seed_path).papers
    hdgnn = papers[1]
    key = citation_keys(papers)[hdgnn.id]
    by_id = triage("cite", hdgnn.id)
    assert by_id.returncode == 0, by_id.stderr
    assert by_id.stdout == triage("cite", key, str(seed_path)).stdout == triage("cite", hdgnn.id[:6]).stdout
    entry = bibtexparser.parse_string(by_id.stdout).entries[0]
    assert entry.key == key and entry["url"] == "https://github.com/ajy112/HDGNN"
    assert triage("cite", hdgnn.id, "--format", "plain").stdout.strip().endswith("ICLR 2024. https://github.com/ajy112/HDGNN")
    assert triage("cite", hdgnn.id, "--format", "markdown").stdout.startswith("[")


def test_cite_unknown_or_ambiguous_id_is_exit_2_with_one_line(seed_path):
    result = triage("cite", "nosuchpaper")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == f"triage: 'nosuchpaper' is no paper's id, id prefix or key in {seed_path}"
    assert triage("cite", "").stderr.strip() == f"triage: '' matches 19 papers in {seed_path}"


def test_copy_with_no_clipboard_at_all_says_so(seed_path):
    """No X display and no controlling terminal: nothing can take the text, and the user is told."""
    result = triage("cite", read_path(seed_path).papers[0].id, "--copy", env=no_display(), start_new_session=True)
    assert result.returncode == 2 and result.stdout.startswith("@inproceedings{")
    assert result.stderr.startswith("triage: not copied: no clipboard")


def no_display() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}


def test_export_reading_list_with_marks_from_the_db(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    db = tmp_path / "marks.json"
    store = TriageStore(db)
    store.attach(papers)
    store.put({papers[3].id: Triage(priority=1, starred=True, note="Read first.")})
    store.close()
    out = tmp_path / "list.md"
    result = triage("export", "--db", str(db), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == f"19 papers written to {out} (markdown)"
    text = out.read_text(encoding="utf-8")
    assert text.index("## Priority 1") < text.index("## No priority")
    assert "- [ ] ★ " in text and "  > Read first." in text


def test_export_never_overwrites_without_force(tmp_path):
    out = tmp_path / "refs.bib"
    out.write_text("% my own bibliography\n")
    result = triage("export", "-o", str(out))
    assert result.returncode == 2
    assert result.stderr.strip() == f"triage: {out}: already exists (pass --force to overwrite)"
    assert out.read_text() == "% my own bibliography\n"
    assert triage("export", "-o", str(out), "--force").returncode == 0
    assert len(bibtexparser.parse_file(str(out)).entries) == 19


def test_export_formats_to_stdout():
    assert triage("export", "--format", "jsonl").stdout.count("\n") == 19
    assert triage("export", "--format", "csv").stdout.startswith("id,key,title,")


def test_export_of_the_starred_is_a_bib_of_the_reading_list(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    db = tmp_path / "marks.json"
    store = TriageStore(db)
    store.attach(papers)
    store.put({papers[1].id: Triage(starred=True), papers[4].id: Triage(starred=True, priority=2)})
    store.close()
    out = tmp_path / "reading.bib"
    assert triage("export", "--db", str(db), "--query", "is:starred", "-o", str(out)).returncode == 0
    keys = citation_keys(papers)
    assert {e.key for e in bibtexparser.parse_file(str(out)).entries} == {keys[papers[1].id], keys[papers[4].id]}
    nothing = triage("export", "--db", str(db), "--query", "is:starred zzzqqq", "-o", str(tmp_path / "none.bib"))
    assert nothing.returncode == 1 and not (tmp_path / "none.bib").exists()
    assert nothing.stderr.strip() == "triage: no paper matches 'is:starred zzzqqq': nothing exported"
