"""The seed format: header, blank line, one abstract per paragraph."""
from __future__ import annotations

import dataclasses

import pytest

from store.common.errors import ReadError
from store.papers.model import kept_plain, paper_id
from store.readers import read_path, records
from store.readers.seed import paragraphs


def seed_paragraphs(path):
    text = path.read_text(encoding="utf-8")
    return [p.strip() for p in text.split("\n\n")[1:] if p.strip()]


def test_seed_has_19_papers_with_venue_and_year(seed_path):
    collection = read_path(seed_path)
    assert collection.header == "ICLR 2024 论文列表"
    assert (collection.venue, collection.year) == ("ICLR", 2024)
    assert len(collection.papers) == 19
    assert [p.text for p in collection.papers] == seed_paragraphs(seed_path)
    assert all((p.venue, p.year) == ("ICLR", 2024) for p in collection.papers)


def test_ids_are_unique_and_stable(seed_path):
    papers = read_path(seed_path).papers
    assert len({p.id for p in papers}) == 19
    assert papers[1].id == paper_id(papers[1].text)
    assert paper_id("  Some   Abstract\ntext ") == paper_id("some abstract text")


def test_positions_and_lines_point_into_the_file(seed_path):
    papers = read_path(seed_path).papers
    lines = seed_path.read_text(encoding="utf-8").split("\n")
    assert [p.position for p in papers] == list(range(19))
    for p in papers:
        assert lines[p.line - 1].strip() == p.text


@pytest.mark.parametrize(
    "before, after_header",
    [("\n", ""), ("  \n\t\n", ""), ("", "   "), ("\n\n", " \t")],
    ids=["a leading blank line", "leading blank lines with spaces", "spaces after the header", "both"],
)
def test_blank_lines_before_and_spaces_after_the_header_are_no_abstract(tmp_path, seed_path, before, after_header):
    text = seed_path.read_text(encoding="utf-8")
    header, rest = text.split("\n", 1)
    path = tmp_path / "list.txt"
    path.write_text(before + header + after_header + "\n" + rest, encoding="utf-8")
    collection = read_path(path)
    assert collection.header == "ICLR 2024 论文列表"
    assert (collection.venue, collection.year) == ("ICLR", 2024)
    assert [p.text for p in collection.papers] == seed_paragraphs(seed_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert all(lines[p.line - 1].strip() == p.text for p in collection.papers)


def test_every_paper_has_a_title_and_links_are_found(seed_path):
    papers = read_path(seed_path).papers
    assert all(p.title for p in papers)
    assert papers[1].links == ("https://github.com/ajy112/HDGNN",)


def test_same_abstract_twice_is_one_paper(tmp_path):
    path = tmp_path / "dup.txt"
    path.write_text("VENUE 2023 list\n\nAn abstract.\n\nAnother one.\n\nAn   abstract.\n", encoding="utf-8")
    collection = read_path(path)
    assert [p.text for p in collection.papers] == ["An abstract.", "Another one."]
    assert (collection.venue, collection.year) == ("VENUE", 2023)


@pytest.mark.parametrize(
    "content, message",
    [(None, "no such file"), (b"", "empty file"), (b"\n\n  \n", "empty file"), (b"\x00\x01\x02binary", "binary")],
)
def test_bad_input_names_the_file(tmp_path, content, message):
    path = tmp_path / "input.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ReadError) as info:
        read_path(path)
    assert str(path) in str(info.value)
    assert message in str(info.value)


def test_a_seed_lists_papers_are_made_as_any_records_papers_are(corpora):
    """Records that are an abstract alone (the seed format's) are made papers by a shortcut, `bare_papers` (a third
    of `make_paper`'s time each): every field is what `make_paper` makes, on the ICLR list and on odd abstracts (a
    control character, markup and a link to a PDF, none at all, a venue naming its track and year)."""
    text = (corpora / "iclr-2024-abstracts.txt").read_text(encoding="utf-8")
    found = [{"text": paragraph, "source": "list.txt", "line": line, "venue": "ICLR 2024 oral", "year": None}
             for line, paragraph in paragraphs(text)]
    found += [{"text": "  A \x1b[31m **bold** $\\alpha$ model: https://example.org/paper.pdf ", "source": "list.txt", "line": 1},
              {"text": "", "source": "list.txt", "line": 2, "venue": "", "year": 2020}]
    analyses = records.analyse([record["text"].strip() for record in found])
    made = [records.make_paper(**record, analysis=analysis, position=5 + i) for i, (record, analysis) in enumerate(zip(found, analyses))]
    fields = lambda paper: [getattr(paper, f.name) for f in dataclasses.fields(paper)] + [kept_plain(paper)]  # noqa: E731
    assert list(map(fields, records.bare_papers(found, analyses, 5))) == list(map(fields, made))
