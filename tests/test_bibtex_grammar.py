"""Every BibTeX we write parses under BibTeX's own grammar, checked by a second, independent
parser (pybtex, which counts braces as BibTeX does: an escaped `\\}` still closes a group)."""
from __future__ import annotations

import pybtex.database
from hypothesis import given, settings, strategies as st

from store.papers.model import Paper, paper_id
from store.readers import read_path
from store.cite import citations as cite, export
from store.cite.keys import citation_keys

BRACES = st.text(st.sampled_from(list("{}\\$ a_%")) | st.characters(exclude_categories=("Cs",)), max_size=40)


def ours(papers: list[Paper], keys: dict[str, str]) -> dict[str, dict[str, str]]:
    """Each entry's fields as handed to the writer (inside the braces it adds), authors aside."""
    return {
        keys[p.id]: {name: value for name, value, _ in cite.entry_fields(p, abstract=True)[1] if name != "author"}
        for p in papers
    }


def assert_pybtex_reads(text: str, papers: list[Paper], keys: dict[str, str]) -> None:
    data = pybtex.database.parse_string(text, "bibtex")
    assert list(data.entries) == [keys[p.id] for p in papers]
    expected = ours(papers, keys)
    for paper in papers:
        entry = data.entries[keys[paper.id]]
        assert dict(entry.fields) == expected[keys[paper.id]]
        assert len(entry.persons.get("author", ())) == len(paper.authors)


def test_real_conference_exports_with_abstracts_parse_under_bibtex_grammar(corpora):
    """4,870 ICLR and ICML 2024 records (some abstracts have a lone `{` or `}`), exported with
    `--abstract`: every entry parses and each field is the value we wrote."""
    for name in ("iclr-2024-papers.jsonl", "icml-2024-papers.jsonl"):
        papers = read_path(corpora / name).papers
        keys = citation_keys(papers)
        assert_pybtex_reads(export.render(papers, "bibtex", keys=keys, abstract=True), papers, keys)


def test_a_lone_brace_in_an_abstract_is_a_brace_again_when_read_back(tmp_path):
    text = "We study sets \\{x} and a stray } brace, then { another."
    paper = Paper(id=paper_id(text), text=text, plain=text, title="Lone } brace {", venue="ICLR", year=2024)
    keys = citation_keys([paper])
    bib = cite.bibtex([paper], keys, abstract=True)
    assert_pybtex_reads(bib, [paper], keys)
    out = tmp_path / "out.bib"
    out.write_text(bib, encoding="utf-8")
    back = read_path(out).papers[0]
    assert back.title == "Lone } brace {"
    assert back.plain == text


@settings(max_examples=300, deadline=None)
@given(title=BRACES, abstract=BRACES, author=BRACES, note=BRACES)
def test_any_text_in_any_field_parses_under_bibtex_grammar(title, abstract, author, note):
    text = abstract or "x"
    paper = Paper(id=paper_id(text), text=text, plain=text, title=title, venue="ICLR", year=2024,
                  authors=(author,) if " ".join(cite.inert(author).split()) else (), fields=(("note", note),))
    keys = citation_keys([paper])
    assert_pybtex_reads(cite.bibtex([paper], keys, abstract=True), [paper], keys)
