"""The record fields researchers triage by (authors, keywords, TL;DR, area, track, DOI, arXiv id, PDF),
read from JSON, JSONL and CSV."""
from __future__ import annotations

import json

from store import read_path

ABSTRACT = "We study score distillation for diffusion models at scale and show that a student matches its teacher."
OPENREVIEW = {
    "title": "Score Distillation at Scale", "abstract": ABSTRACT, "authors": ["Ana García", "Yoshua Bengio"],
    "url": "https://openreview.net/forum?id=abc", "pdf_url": "https://openreview.net/pdf/abc.pdf",
    "venue": "ICLR 2024 spotlight", "keywords": ["Diffusion Models", "distillation"],
    "primary_area": "generative models", "tldr": "A student \x1b]52;c;aGk=\x07matches its teacher\x1b[31m in four steps.",
    "doi": "https://doi.org/10.1000/xyz.1",
}


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def fields_of(paper) -> tuple:
    return (paper.authors, paper.keywords, paper.area, paper.track, paper.venue, paper.year, paper.pdf, paper.doi)


WANTED = (("Ana García", "Yoshua Bengio"), ("Diffusion Models", "distillation"), "generative models", "spotlight",
          "ICLR 2024", 2024, "https://openreview.net/pdf/abc.pdf", "10.1000/xyz.1")


def test_openreview_records_keep_their_fields_in_json_jsonl_and_csv(tmp_path):
    as_json = read_path(write(tmp_path, "a.json", json.dumps([OPENREVIEW]))).papers[0]
    as_jsonl = read_path(write(tmp_path, "a.jsonl", json.dumps(OPENREVIEW) + "\n")).papers[0]
    csv = ("title,abstract,authors,keywords,primary_area,venue,pdf_url,doi,TL;DR\n"
           f'"Score Distillation at Scale","{ABSTRACT}","Ana García; Yoshua Bengio","Diffusion Models; distillation",'
           '"generative models","ICLR 2024 spotlight",https://openreview.net/pdf/abc.pdf,doi:10.1000/xyz.1,'
           '"A student matches its teacher in four steps."\n')
    as_csv = read_path(write(tmp_path, "a.csv", csv)).papers[0]
    for paper in (as_json, as_jsonl, as_csv):
        assert fields_of(paper) == WANTED
        assert paper.tldr == "A student matches its teacher in four steps."  # escapes gone: it is shown as text
        assert "https://doi.org/10.1000/xyz.1" in paper.links
        assert not {name for name, _ in paper.fields} & {"keywords", "primary_area", "tldr", "TL;DR"}


def test_a_track_field_and_one_string_of_keywords_and_of_arxiv_style_authors(tmp_path):
    record = {"title": "T", "abstract": ABSTRACT, "authors": "A. One, B. Two and C. Three", "keywords": "graphs, GNN",
              "track": "Oral", "arxiv_id": "arXiv:2401.01234v3"}
    paper = read_path(write(tmp_path, "b.json", json.dumps([record]))).papers[0]
    assert (paper.authors, paper.keywords, paper.track, paper.arxiv) == (
        ("A. One", "B. Two", "C. Three"), ("graphs", "GNN"), "oral", "2401.01234")
    bibtex_order = {"title": "T", "abstract": ABSTRACT, "author": "One, Ann and Two, Bo"}
    assert read_path(write(tmp_path, "c.json", json.dumps([bibtex_order]))).papers[0].authors == ("One, Ann", "Two, Bo")


def test_escapes_in_every_record_field_are_removed_as_it_is_read(tmp_path):
    hostile = "\x1b]52;c;aGk=\x07\x1b[2J\u202e"
    record = {"title": "T", "abstract": ABSTRACT, "authors": [f"Ana{hostile}"], "keywords": [f"kw{hostile}"],
              "primary_area": f"area{hostile}", "track": f"oral{hostile}", "tldr": f"short{hostile}",
              "doi": f"10.1000/x{hostile}", "arxiv_id": f"2401.01234{hostile}"}
    paper = read_path(write(tmp_path, "h.jsonl", json.dumps(record) + "\n")).papers[0]
    values = [paper.authors[0], paper.keywords[0], paper.area, paper.track, paper.tldr, paper.doi, paper.arxiv]
    assert values == ["Ana", "kw", "area", "oral", "short", "10.1000/x", "2401.01234"]
