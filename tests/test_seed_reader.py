"""The seed format: header, blank line, one abstract per paragraph."""
from __future__ import annotations

import pytest

from store import ReadError, paper_id, read_path


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
