"""Citations: BibTeX that always parses back to the same fields, readable unique keys, plain and Markdown."""
from __future__ import annotations

import bibtexparser
from bibtexparser.middlewares import LatexDecodingMiddleware
from bibtexparser.middlewares.names import split_multiple_persons_names
from hypothesis import given, settings, strategies as st

from store.papers.model import Paper, paper_id
from store.common.errors import ReadError
from store.readers import read_path
from store.cite import citations as cite
from store.cite.keys import citation_keys


def parse_back(text: str, decode: bool = False) -> bibtexparser.Library:
    """Parse BibTeX as a reader would; fail on any block that did not parse."""
    library = bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware()] if decode else None)
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    return library


def authors_of(entry) -> list[str]:
    """The author list of a raw (undecoded) entry, split as BibTeX does, each name LaTeX-decoded."""
    decode = LatexDecodingMiddleware()._transform_python_value_string
    return [decode(name)[0] for name in split_multiple_persons_names(entry["author"])]


def written(papers: list[Paper], abstract: bool = False) -> list[dict[str, str]]:
    """The fields of each entry as handed to the writer, without the enclosing braces it adds."""
    return [{name: value for name, value, _ in cite.entry_fields(p, abstract)[1]} for p in papers]


def bib_paper(text: str, **kw) -> Paper:
    return Paper(id=paper_id(text), text=text, plain=text, source="refs.bib", **kw)


TRICKY = [
    bib_paper(
        "Grüße & 50% of $x$ {braces}",
        title="Über {Braces} & 100% of $\\alpha$-Nets: Ça marche — naïve #1 a_b ~ ^ `q' ''z'' x--y \\ end",
        authors=("Müller, Jürgen", "O'Brien, Kate", "Zoë Ångström", "Barnes and Noble Research"),
        venue="Journal of Ünïcode & Co",
        year=2023,
        key="muller2023uber",
        fields=(("journal", "Journal of Ünïcode & Co"), ("pages", "12–34"), ("doi", "10.1000/a_b%c"),
                ("publisher", "Spr{i}nger"), ("note", "中文 注释 50%")),
        links=("https://example.org/a_b?x=1&y=%20",),
    ),
    bib_paper("Second abstract.", title="Plain", authors=("Ann Lee",), venue="NeurIPS", year=2022, key="lee2022plain",
              fields=(("booktitle", "Advances in Neural Information Processing Systems"),)),
    bib_paper("Third.", title="Same key elsewhere", authors=("Ann Lee",), venue="NeurIPS", year=2022, key="lee2022plain"),
]


def test_every_seed_paper_parses_back_with_equal_fields_and_unique_keys(seed_path):
    papers = read_path(seed_path).papers
    text = cite.bibtex(papers, abstract=True)
    library = parse_back(text)
    keys = [e.key for e in library.entries]
    assert len(keys) == len(papers) == len(set(keys))
    assert [{f.key: f.value for f in e.fields} for e in library.entries] == written(papers, abstract=True)
    decoded = parse_back(text, decode=True).entries
    for paper, e in zip(papers, decoded):
        assert e["title"] == " ".join(paper.title.split())
        assert e["year"] == "2024"
        assert e.entry_type == "inproceedings" and "ICLR" in e["booktitle"]
        assert e["abstract"] == " ".join(paper.plain.split())
        if paper.links:
            assert e["url"] == paper.links[0]


def test_bibtex_sourced_papers_keep_key_authors_and_fields_through_a_round_trip():
    text = cite.bibtex(TRICKY)
    assert [{f.key: f.value for f in e.fields} for e in parse_back(text).entries] == written(TRICKY)
    first, second, third = parse_back(text, decode=True).entries
    paper = TRICKY[0]
    assert (first.entry_type, first.key) == ("article", "muller2023uber")
    assert first["title"] == paper.title
    assert authors_of(parse_back(text).entries[0]) == ["Müller, Jürgen", "O'Brien, Kate", "Zoë Ångström",
                                              "Barnes and Noble Research"]
    assert first["journal"] == "Journal of Ünïcode & Co"
    assert first["pages"] == "12–34" and first["note"] == "中文 注释 50%" and first["publisher"] == "Spr{i}nger"
    raw = parse_back(text).entries[0]
    assert raw["doi"] == "10.1000/a_b%c" and raw["url"] == "https://example.org/a_b?x=1&y=%20"
    assert (second.entry_type, second.key, second["booktitle"]) == (
        "inproceedings", "lee2022plain", "Advances in Neural Information Processing Systems")
    assert third.key == "lee2022plainb", "a repeated key gets a suffix so keys stay unique"


SOURCE_BIB = r"""
@inproceedings{muller2023uber,
  title = {{\"U}ber {B}races \& 100\% of \$5 --- na{\"\i}ve {\'E}cole \textbf{bold} 中文 \{x\}},
  author = {M{\"u}ller, J{\"u}rgen and O'Brien, Kate and {\AA}ngstr{\"o}m, Zo{\"e}},
  booktitle = {Proc. of Ünïcode \& Co},
  year = 2023,
  pages = {12--34},
  doi = {10.1000/a_b},
  url = {https://example.org/a_b?x=1&y=%20},
  note = { 50\% {Braced} $x^2$},
  abstract = {We use $\alpha$ and 50\% of {data}.}
}
@article{lee2022plain, title={Plain}, author={Ann Lee}, journal={J. Stuff}, year={2022}, software = {}}
@misc{, title = {No key at all}}
"""
SAME = ("title", "authors", "venue", "year", "text", "fields", "links")


def assert_reads_back_the_same(papers, tmp_path):
    """BibTeX written for `papers` parses cleanly and reads back through our own reader unchanged."""
    text = cite.bibtex(papers, abstract=True)
    parse_back(text)
    out = tmp_path / "out.bib"
    out.write_text(text, encoding="utf-8")
    back = read_path(out).papers
    assert len(back) == len(papers)
    for before, after in zip(papers, back):
        assert [getattr(before, a) for a in SAME if a != "fields"] == [getattr(after, a) for a in SAME if a != "fields"]
        # A venue and year taken from the file's @proceedings (not a paper, not written) are written
        # into the entry itself: the only fields added.
        added = after.fields[len(before.fields):]
        assert after.fields[: len(before.fields)] == before.fields and {name for name, _ in added} <= {"booktitle", "journal", "year"}
        assert after.key == (before.key or citation_keys(papers)[before.id])
    return back


def test_bibtex_read_papers_read_back_with_equal_fields(tmp_path):
    source = tmp_path / "refs.bib"
    source.write_text(SOURCE_BIB, encoding="utf-8")
    papers = read_path(source).papers
    assert papers[0].title.startswith("Über Braces & 100% of $5 — naïve École bold 中文")
    back = assert_reads_back_the_same(papers, tmp_path)
    assert back[0].authors == ("Müller, Jürgen", "O'Brien, Kate", "Ångström, Zoë")
    assert dict(back[0].fields)["note"] == " 50\\% {Braced} $x^2$"
    assert [p.key for p in back[:2]] == ["muller2023uber", "lee2022plain"] and back[2].key


def test_every_real_bib_file_reads_back_with_equal_fields(corpora, tmp_path):
    files = sorted((corpora / "bib").rglob("*.bib"))
    checked = 0
    for path in files:
        try:
            papers = read_path(path).papers
        except ReadError:  # the corpus has files with no entries on purpose
            continue
        assert_reads_back_the_same(papers, tmp_path)
        checked += len(papers)
    assert checked > 500


def test_title_case_is_protected_and_specials_escaped():
    text = cite.bibtex(TRICKY[:1])
    assert "title = {{\\\"U" not in text  # Unicode stays Unicode in a UTF-8 file
    # Only what a style would lower-case is braced: a capitalised word in a sentence-case title.
    assert "title = {Über \\{{Braces}\\} \\& 100\\% of $\\alpha$-Nets: Ça marche" in text
    assert "x-{}-y" in text and "\\textbackslash{} end" in text


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(list("\\{}&%$#_~^`'\"-–,. aZé中!?<>@=")) | st.characters()))
def test_any_text_decodes_back_to_itself(value):
    flat = " ".join(cite.inert(value).split())
    paper = bib_paper("x", title=value, authors=(value,) if flat else ())
    text = cite.bibtex([paper])
    assert parse_back(text, decode=True).entries[0]["title"] == (flat or paper.id)
    if flat:
        assert authors_of(parse_back(text).entries[0]) == [flat]


def test_bare_abstract_cites_with_venue_year_title_and_code_link(seed_path):
    hdgnn = read_path(seed_path).papers[1]
    assert cite.plain(hdgnn) == f"{hdgnn.title}{'' if hdgnn.title[-1] in '.…' else '.'} ICLR 2024. https://github.com/ajy112/HDGNN"
    assert cite.markdown(hdgnn).endswith("](https://github.com/ajy112/HDGNN) — *ICLR 2024*")
    key = citation_keys([hdgnn])[hdgnn.id]
    assert key.startswith("iclr2024") and key.isalnum()


def test_plain_and_markdown_of_a_bibtex_sourced_paper():
    paper = TRICKY[1]
    assert cite.plain(paper) == "Ann Lee. Plain. NeurIPS 2022."
    many = bib_paper("m", title="A [link](x) *not* markup", authors=("A", "B", "C", "D"),
                     links=("https://x.org/a_(b)",))
    assert cite.markdown(many) == r"[A \[link\](x) \*not\* markup](https://x.org/a_%28b%29) — A et al."
    assert cite.render([paper, many], "id") == f"{paper.id}\n{many.id}\n"


def test_keys_are_unique_and_readable_over_a_real_conference(corpora):
    papers = read_path(corpora / "iclr-2024-abstracts.txt").papers
    keys = citation_keys(papers)
    assert len(set(keys.values())) == len(papers) == 2260
    assert all(k.startswith("iclr2024") and k.isalnum() for k in keys.values())


def test_repeated_keys_get_suffixes_in_order_and_never_collide():
    same = [bib_paper(f"abstract {i}", title="Large models", venue="ICLR", year=2024) for i in range(30)]
    natural = bib_paper("other", title="x", name="largeb", venue="ICLR", year=2024)
    keys = citation_keys([same[0], natural, *same[1:]])
    assert [keys[p.id] for p in same[:4]] == ["iclr2024large", "iclr2024largec", "iclr2024larged", "iclr2024largee"]
    assert keys[natural.id] == "iclr2024largeb"
    assert keys[same[-1].id] == "iclr2024largebe" and len(set(keys.values())) == 31
