"""What a BibTeX entry tells about its paper beyond title and authors: keywords, the DOI, the arXiv
id and primary class, and values made of `@string` macros and `#`."""
from __future__ import annotations

from store.readers import read_path
from store.readers.identifiers import arxiv_id, bare_doi

REFS = r"""@string{nips = "Neural Information " # "Processing Systems"}

@book{latexcompanion,
  title = {The \LaTeX\ Companion},
  author = {{IEEE Computer Society} and Goossens, Michel},
  year = 1993, month = jan,
  doi = {http://dx.doi.org/10.1000/COMP.1993},
  keywords = {typesetting, {\TeX}; macros},
}

@inproceedings{devlin2019bert,
  title = {{BERT}: Pre-training of Deep Bidirectional Transformers},
  author = {Devlin, Jacob},
  booktitle = "Advances in " # NIPS,
  year = {2019},
  eprint = {1810.04805v2}, archivePrefix = {arXiv}, primaryClass = {cs.CL},
}

@misc{laide2013, title = {{An} amazing {title}}, url = {https://arxiv.org/abs/2401.01234v3}}
"""


def test_a_bib_entry_gives_the_paper_its_keywords_doi_arxiv_id_and_area(tmp_path):
    source = tmp_path / "refs.bib"
    source.write_text(REFS, encoding="utf-8")
    companion, bert, laide = read_path(source).papers
    assert (companion.doi, companion.keywords, companion.arxiv, companion.area) == (
        "10.1000/COMP.1993", ("typesetting", "TeX", "macros"), "", "")
    assert companion.links == ("https://doi.org/10.1000/COMP.1993",)
    assert (bert.arxiv, bert.area, bert.doi, bert.keywords, bert.tldr) == ("1810.04805", "cs.CL", "", (), "")
    assert bert.venue == "Advances in Neural Information Processing Systems"  # `#` and a macro resolved
    assert (laide.arxiv, laide.area) == ("2401.01234", "")  # from its arxiv.org url; no eprint, no class
    assert dict(companion.fields)["title"] == "The \\LaTeX\\ Companion" and companion.title == "The LaTeX Companion"


def test_dois_and_arxiv_ids_are_read_in_the_forms_records_write_them():
    assert [bare_doi(v) for v in ("10.1000/x.y", " doi:10.1000/X ", "https://doi.org/10.1000/a(b)", "n/a")] == [
        "10.1000/x.y", "10.1000/X", "10.1000/a(b)", ""]
    assert arxiv_id("arXiv:hep-th/9901001v3") == "hep-th/9901001" and arxiv_id("2401.01234") == "2401.01234"
    assert arxiv_id("https://arxiv.org/pdf/2401.01234v2.pdf") == "2401.01234"
    assert arxiv_id("10.48550/arXiv.2310.00001") == "2310.00001"
    assert arxiv_id("hal-01234") == arxiv_id("https://example.org/2401.01234") == ""


def test_string_macros_and_concatenation_read_as_bibtex_reads_them(tmp_path):
    source = tmp_path / "macros.bib"
    source.write_text(
        '@string{first = "John"}\n@String{Full = first # " Doe"}\n@STRING{cool = {Cool}}\n'
        '@article{k, author = "Ann Lee and " # FULL, title = cool # " stuff " # 2, journal = jmlr, month = jan,'
        ' year = 2020}\n',
        encoding="utf-8",
    )
    (paper,) = read_path(source).papers
    assert paper.authors == ("Ann Lee", "John Doe")  # was ('"Ann Lee and " # FULL',)
    assert paper.title == "Cool stuff 2"
    assert paper.venue == "jmlr" and ("month", "jan") in paper.fields  # undefined macros stay their names
