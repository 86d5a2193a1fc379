"""RIS and CSL-JSON lists (the exports of Zotero, Mendeley, EndNote, Paperpile) open as every list does: by
extension or by content, each field where the app shows it, untrusted text inert, and a file or record
that cannot be read named with its line."""
from __future__ import annotations

import json

from store.readers import read_path
from tests.hostile import one_line, rows, triage

ZOTERO_RIS = """\ufeffTY  - CPAPER
TI  - Attention is all you need
AU  - Vaswani, Ashish
AU  - Shazeer, Noam
AU  - Parmar, Niki
T2  - Advances in Neural Information Processing Systems
DA  - 2017///
PY  - 2017
VL  - 30
SP  - 5998
EP  - 6008
PB  - Curran Associates, Inc.
DO  - 10.48550/arXiv.1706.03762
UR  - https://papers.nips.cc/paper/7181-attention-is-all-you-need
L1  - https://arxiv.org/pdf/1706.03762.pdf
KW  - Computer Science - Computation and Language
KW  - Computer Science - Machine Learning
AB  - The dominant sequence transduction models are based on complex recurrent or convolutional neural networks.
We propose a new simple network architecture, the Transformer.
ID  - vaswani2017attention
ER  - 

TY  - JOUR
TI  - Deep learning
AU  - LeCun, Yann
AU  - Bengio, Yoshua
AU  - Hinton, Geoffrey
PY  - 2015/05/27/
JO  - Nature
ER  - 
"""

ZOTERO_CSL = [
    {"id": "http://zotero.org/users/local/abc/items/X7Y8", "type": "article", "title": "Mamba: Linear-Time Sequence Modeling with Selective State Spaces",
     "author": [{"family": "Gu", "given": "Albert"}, {"family": "Dao", "given": "Tri"}],
     "issued": {"date-parts": [["2023", 12, 1]]}, "number": "arXiv:2312.00752", "publisher": "arXiv",
     "URL": "http://arxiv.org/abs/2312.00752", "DOI": "10.48550/arXiv.2312.00752",
     "abstract": "Foundation models, now powering most of the exciting applications in deep learning, are almost universally based on the Transformer.",
     "keyword": "Computer Science - Machine Learning, Computer Science - Artificial Intelligence"},
    {"id": "beethoven1808", "citation-key": "vanbeethoven1808", "type": "paper-conference", "title": "Symphony <i>No.</i> 5",
     "author": [{"family": "Beethoven", "non-dropping-particle": "van", "given": "Ludwig"}, {"literal": "Wiener Philharmoniker"}],
     "container-title": "Proceedings of Music", "issued": {"date-parts": [[1808]]}, "volume": "5", "page": "1-40"},
]


def test_a_zotero_ris_export_opens_with_every_field(tmp_path):
    path = tmp_path / "My Library.ris"
    path.write_text(ZOTERO_RIS, encoding="utf-8")
    first, second = read_path(path).papers
    assert first.title == "Attention is all you need"
    assert first.authors == ("Vaswani, Ashish", "Shazeer, Noam", "Parmar, Niki")
    assert (first.venue, first.year, first.doi, first.arxiv, first.key) == (
        "Advances in Neural Information Processing Systems", 2017, "10.48550/arXiv.1706.03762", "1706.03762", "vaswani2017attention")
    assert first.links[0] == "https://papers.nips.cc/paper/7181-attention-is-all-you-need"
    assert first.pdf == "https://arxiv.org/pdf/1706.03762.pdf"
    assert first.keywords == ("Computer Science - Computation and Language", "Computer Science - Machine Learning")
    assert first.text.endswith("neural networks.\nWe propose a new simple network architecture, the Transformer.")  # a wrapped value
    assert ("volume", "30") in first.fields and ("pages", "5998--6008") in first.fields
    assert (second.title, second.venue, second.year, second.line) == ("Deep learning", "Nature", 2015, 23)


def test_ris_is_known_by_its_content_in_a_txt_file(tmp_path):
    path = tmp_path / "endnote export.txt"
    path.write_text(ZOTERO_RIS, encoding="utf-8")
    assert [p.title for p in read_path(path).papers] == ["Attention is all you need", "Deep learning"]


def test_a_zotero_csl_json_export_opens_with_every_field(tmp_path):
    path = tmp_path / "My Library.json"
    path.write_text(json.dumps(ZOTERO_CSL, indent=2), encoding="utf-8")
    mamba, symphony = read_path(path).papers
    assert mamba.authors == ("Gu, Albert", "Dao, Tri")
    assert (mamba.year, mamba.arxiv, mamba.doi, mamba.links[0]) == (2023, "2312.00752", "10.48550/arXiv.2312.00752", "http://arxiv.org/abs/2312.00752")
    assert mamba.keywords == ("Computer Science - Machine Learning", "Computer Science - Artificial Intelligence")
    assert mamba.key == "http://zotero.org/users/local/abc/items/X7Y8"
    assert (symphony.title, symphony.key, symphony.venue, symphony.year) == ("Symphony No. 5", "vanbeethoven1808", "Proceedings of Music", 1808)
    assert symphony.authors == ("van Beethoven, Ludwig", "Wiener Philharmoniker")
    assert ("pages", "1-40") in symphony.fields
    # One item a line (CSL-JSON as JSON Lines) and no extension at all: the same papers.
    lines = tmp_path / "items"
    lines.write_text("".join(json.dumps(item) + "\n" for item in ZOTERO_CSL), encoding="utf-8")
    assert [p.id for p in read_path(lines).papers] == [mamba.id, symphony.id]


def test_untrusted_text_in_ris_and_csl_is_inert(tmp_path):
    evil = "\x1b]52;c;aGk=\x07\x1b[2J[@click=app.quit]Evil\u202etitle"
    ris = tmp_path / "evil.ris"
    ris.write_text(f"TY  - JOUR\nTI  - {evil}\nAU  - \x1b[31mRed, Author\nAB  - Text \x9b6n here.\nER  - \n", encoding="utf-8")
    csl = tmp_path / "evil.json"
    csl.write_text(json.dumps([{"type": "article", "title": evil, "author": [{"family": "\x1b[31mRed", "given": "A"}],
                                "abstract": "Text \x9b6n here.", "DOI": "10.1/x"}]), encoding="utf-8")
    for path in (ris, csl):
        (paper,) = read_path(path).papers
        assert paper.title == "[@click=app.quit]Eviltitle"
        assert paper.authors == ("Red, Author",) if path is ris else ("Red, A",)
        assert paper.text == "Text  here."


def test_a_ris_file_with_no_record_is_one_line_naming_it(tmp_path):
    path = tmp_path / "notes.ris"
    path.write_text("just some notes\nabout papers\n", encoding="utf-8")
    result = triage("list", str(path))
    assert result.returncode == 2
    assert one_line(result) == f"triage: {path}: no RIS records (a record starts with a line 'TY  - ')"


def test_ris_records_without_title_or_end_are_named_by_line(tmp_path):
    path = tmp_path / "broken.ris"
    path.write_text("TY  - JOUR\nPY  - 2020\nER  - \n\nTY  - JOUR\nTI  - Kept\nAB  - An abstract.\n", encoding="utf-8")
    result = triage("list", str(path), "--format", "jsonl")
    assert result.returncode == 0
    assert [row["title"] for row in rows(result)] == ["Kept"]
    assert result.stderr == (f"triage: 2 skipped: {path}:1: skipped a record that has no title or abstract; "
                             f"{path}:5: the file ends inside this record (no ER line; read as it is)\n")


def test_a_huge_wrapped_ris_value_reads_in_one_pass(tmp_path):
    """300,000 continuation lines of one abstract (joined once, not line by line: that would copy ~700 GB)."""
    path = tmp_path / "huge.ris"
    path.write_text("TY  - JOUR\nTI  - Long\nAB  - start\n" + "more words here\n" * 300_000 + "ER  - \n", encoding="utf-8")
    result = triage("list", str(path), "--format", "jsonl")
    (row,) = rows(result)
    assert row["text"].count("\n") == 300_000 and row["text"].endswith("more words here")


def test_a_csv_with_csl_like_columns_keeps_its_authors(tmp_path):
    path = tmp_path / "table.csv"
    path.write_text("title,author,type,URL,abstract\nA paper,\"A. One; B. Two\",article,https://x.org/1,Some text.\n",
                    encoding="utf-8")
    (paper,) = read_path(path).papers
    assert paper.authors == ("A. One", "B. Two") and paper.links[0] == "https://x.org/1"
