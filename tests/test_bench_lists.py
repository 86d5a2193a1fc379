"""The large lists bench/scale.py and bench/engines.py measure are what they claim: records in the arXiv
metadata snapshot's form, which the installed `triage` reads as arXiv papers (ids, authors, categories,
the first version's year), every record a paper of its own."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _arxiv_lists():
    spec = importlib.util.spec_from_file_location("arxiv_lists", ROOT / "bench" / "arxiv_lists.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return module


def test_an_arxiv_form_list_is_read_as_arxiv_papers(corpora, tmp_path):
    path = _arxiv_lists().arxiv_list(300, tmp_path)
    made = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    listed = subprocess.run([str(Path(sys.executable).parent / "triage"), "list", str(path), "--format", "jsonl"],
                            capture_output=True, text=True, check=True, timeout=120)
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert len(rows) == 300  # no two records alike: none merged as duplicates
    for record, row in zip(made, rows):
        assert row["arxiv"] == record["id"]
        assert row["keywords"] == record["categories"].split()
        assert row["authors"][0] == record["authors_parsed"][0][1] + " " + record["authors_parsed"][0][0]
        assert row["year"] == int(record["versions"][0]["created"].split()[3])
        assert row["title"] == " ".join(record["title"].split())
