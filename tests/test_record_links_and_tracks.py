"""What a record says about itself wins over guesses: the year and track in an OpenReview venue
('ICLR 2024 oral'), the record's own url and pdf before the links found in its abstract."""
from __future__ import annotations

import json

import bibtexparser

from store.search.engine import Engine
from store.readers import read_path
from store.cite import citations as cite
from store.cite.keys import citation_keys

ABSTRACT = ("We propose Kahl, a way to align values. Code is at https://github.com/kahl/values and "
            "more at https://kahl.example.org.")


def jsonl(tmp_path, **record):
    path = tmp_path / "papers.jsonl"
    base = {"title": "Values: Aligning Things", "abstract": ABSTRACT, "authors": ["Ana Kahl", "Bo Li"]}
    path.write_text(json.dumps({**base, **record}) + "\n", encoding="utf-8")
    return path


def test_an_openreview_venue_gives_the_year_and_keeps_the_track_apart(tmp_path):
    (paper,) = read_path(jsonl(tmp_path, venue="ICLR 2024 oral")).papers
    assert (paper.venue, paper.year, paper.track) == ("ICLR 2024", 2024, "oral")
    (entry,) = bibtexparser.parse_string(cite.bibtex([paper])).entries
    assert entry.key == "kahl2024values" and entry["year"] == "2024"
    assert entry["booktitle"] == "International Conference on Learning Representations (ICLR 2024)"
    assert "2024" in cite.plain(paper) and "oral" not in cite.plain(paper).casefold()
    index = Engine.of([paper])
    assert index.search("year:2024").ids == index.search("venue:oral").ids == [paper.id]
    assert index.search("venue:poster").ids == []


def test_every_track_and_case_of_the_real_lists(corpora):
    for name, venue, tracks in [
        ("iclr-2024-papers.jsonl", "ICLR 2024", {"oral": 86, "spotlight": 367, "poster": 1807}),
        ("icml-2024-papers.jsonl", "ICML 2024", {"oral": 144, "spotlight": 191, "poster": 2275}),
    ]:
        papers = read_path(corpora / name).papers
        assert {p.venue for p in papers} == {venue} and {p.year for p in papers} == {2024}
        assert {t: sum(p.track == t for p in papers) for t in tracks} == tracks
        index = Engine.of(papers)
        assert len(index.search("year:2024").ids) == len(papers)
        assert len(index.search("venue:oral").ids) == tracks["oral"]
        keys = citation_keys(papers)
        assert all("2024" in key for key in keys.values())


URL = "https://openreview.net/forum?id=kahl1"
PDF = "https://openreview.net/pdf?id=kahl1"


def test_the_records_own_url_comes_before_the_links_in_its_abstract(tmp_path):
    (paper,) = read_path(jsonl(tmp_path, url=URL, pdf_url=PDF, doi="10.5555/kahl")).papers
    assert paper.links == (URL, "https://doi.org/10.5555/kahl", PDF, "https://github.com/kahl/values",
                           "https://kahl.example.org")
    assert paper.pdf == PDF
    (entry,) = bibtexparser.parse_string(cite.bibtex([paper])).entries
    assert (entry["url"], entry["doi"]) == (URL, "10.5555/kahl")
    assert cite.plain(paper).endswith(URL) and f"]({URL})" in cite.markdown(paper)


def test_a_record_with_only_a_doi_cites_it_and_no_code_link(tmp_path):
    (paper,) = read_path(jsonl(tmp_path, doi="10.5555/kahl")).papers
    assert paper.links[0] == "https://doi.org/10.5555/kahl" and paper.pdf == ""
    (entry,) = bibtexparser.parse_string(cite.bibtex([paper])).entries
    assert entry["doi"] == "10.5555/kahl" and "url" not in entry.fields_dict


def test_a_bare_abstract_cites_its_first_link_and_finds_a_pdf_in_it(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("We propose Kahl. Code: https://github.com/kahl/values, paper: https://kahl.org/kahl.pdf\n")
    (paper,) = read_path(path).papers
    assert paper.links == ("https://github.com/kahl/values", "https://kahl.org/kahl.pdf")
    assert paper.pdf == "https://kahl.org/kahl.pdf"
    (entry,) = bibtexparser.parse_string(cite.bibtex([paper])).entries
    assert entry["url"] == "https://github.com/kahl/values"


def test_every_iclr_paper_links_and_cites_its_openreview_page_first(corpora):
    path = corpora / "iclr-2024-papers.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]
    papers = read_path(path).papers
    assert [p.links[0] for p in papers] == [r["url"] for r in records]
    assert [p.pdf for p in papers] == [r["pdf_url"] for r in records]
    coded = [p for p in papers if any("github.com" in link for link in p.links)]
    assert len(coded) > 300 and all("github.com" not in p.links[0] for p in coded)
    library = bibtexparser.parse_string(cite.bibtex(papers))
    assert [e["url"] for e in library.entries] == [r["url"] for r in records]
