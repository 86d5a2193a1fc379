"""`triage export --format ris|csl-json`, checked by independent parsers of each format (rispy for RIS,
citeproc-py's CSL-JSON source for CSL-JSON): every paper of the corpora's .bib files and of the ICLR and ICML
lists comes back field for field (title, authors in order, year, venue, DOI, URL, abstract, keywords, ids),
and the file read back by triage gives the same papers, id for id (so a mark made on one is a mark on the other)."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import rispy
from citeproc.source.json import CiteProcJSON

from store.common.errors import ReadError
from store.papers.model import Paper, paper_id
from store.readers import read_path

TRIAGE = str(Path(sys.executable).with_name("triage"))
DOI_LINK = "https://doi.org/"


def export(source: Path, fmt: str, out: Path) -> str:
    """The installed `triage export` of `source` in `fmt` to `out`, as a user runs it; the file written."""
    result = subprocess.run([TRIAGE, "export", str(source), "--format", fmt, "-o", str(out)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out.read_text(encoding="utf-8")


def words(name: str) -> Counter[str]:
    """A name's words, whatever order and commas it is written in ("Vaswani, Ashish" is "Ashish Vaswani")."""
    return Counter(name.replace(",", " ").split())


def spaced(text: str) -> str:
    return " ".join(text.split())


def expected(paper: Paper) -> dict[str, object]:
    """What each format must say of `paper`: its fields as the reader read them."""
    doi = paper.doi or next((link.removeprefix(DOI_LINK) for link in paper.links if link.startswith(DOI_LINK)), "")
    url = paper.links[0] if paper.links and not paper.links[0].startswith(DOI_LINK) else ""
    return {"title": spaced(paper.title), "authors": [words(a) for a in paper.authors], "year": paper.year,
            "venue": paper.venue, "doi": doi, "url": url, "abstract": paper.text, "keywords": list(paper.keywords),
            "arxiv": paper.arxiv}


def ris_differences(papers: list[Paper], text: str, where: str) -> list[str]:
    records = rispy.loads(text)
    assert len(records) == len(papers), where
    out = []
    keys = []
    for paper, record in zip(papers, records):
        want = expected(paper)
        got = {
            "title": record.get("title", ""), "authors": [words(a) for a in record.get("authors", [])],
            "year": int(record["year"]) if "year" in record else None, "venue": record.get("secondary_title", ""),
            "doi": record.get("doi", ""), "url": ";".join(record.get("urls", [])),
            "abstract": record.get("abstract", ""), "keywords": record.get("keywords", []),
            "arxiv": record.get("accession_number", "").removeprefix("arXiv:"),
        }
        want["abstract"] = spaced(paper.text)  # (a RIS value is one line)
        keys.append(record["id"])
        out += [f"{where}:{paper.line} {name}: {want[name]!r:.80} became {got[name]!r:.80}" for name in want if want[name] != got[name]]
    assert len(set(keys)) == len(keys), f"{where}: repeated keys"
    return out


def csl_differences(papers: list[Paper], text: str, where: str) -> list[str]:
    items = json.loads(text)
    source = CiteProcJSON(items)
    assert len(source) == len(papers) == len(items), where
    out = []
    for paper, item, (key, ref) in zip(papers, items, source.items()):
        assert key == item["id"].lower()
        want = expected(paper)
        issued = ref.get("issued")
        got = {
            "title": str(ref.get("title", "")),
            "authors": [words(" ".join(filter(None, (n.get("given"), n.get("family"), n.get("suffix")))))
                        for n in ref.get("author", [])],
            "year": issued.year if issued is not None else None, "venue": str(ref.get("container_title", "")),
            "doi": str(ref.get("DOI", "")), "url": str(ref.get("URL", "")), "abstract": str(ref.get("abstract", "")),
            "keywords": [k for k in str(ref.get("keyword", "")).split(", ") if k],
            "arxiv": str(ref.get("number", "")).removeprefix("arXiv:"),
        }
        out += [f"{where}:{paper.line} {name}: {want[name]!r:.80} became {got[name]!r:.80}" for name in want if want[name] != got[name]]
    return out


def round_trip(source: Path, tmp_path: Path) -> tuple[int, list[str]]:
    """`source` exported in both formats and parsed by the independent parsers, and read back by triage:
    (its papers, the differences)."""
    papers = read_path(source).papers
    differences = []
    for fmt, suffix, compare in (("ris", ".ris", ris_differences), ("csl-json", ".json", csl_differences)):
        out = tmp_path / f"{source.parent.name}-{source.stem}{suffix}"
        differences += compare(papers, export(source, fmt, out), f"{source.name} as {fmt}")
        again = read_path(out).papers
        assert len(again) == len(papers)
        # A paper's id is its abstract's hash as the source has it; what leaves triage is inert (no control or
        # invisible characters: 4 ICLR abstracts hold a \x02 or a U+200B, 1 ICML one a \x08), so those read back
        # under the id of their inert text.
        differences += [f"{source.name} as {fmt}:{p.line}: read back as {q.id}, not {p.id}" for p, q in zip(papers, again)
                        if q.id != p.id and paper_id(p.text) == p.id]
    return len(papers), differences


def test_every_paper_of_the_real_bib_files_comes_back_from_ris_and_csl_json(corpora, tmp_path):
    report, total = [], 0
    for path in sorted(p for p in (corpora / "bib").rglob("*.bib") if p.is_file()):
        try:
            read_path(path)
        except ReadError as exc:  # only @string / @comment blocks in it: nothing to export
            report.append(f"{path.name}: not a list ({exc.message})")
            continue
        count, differences = round_trip(path, tmp_path)
        assert differences == [], path
        total += count
        report.append(f"{path.name}: {count} papers, 0 differences")
    print("\n" + "\n".join(report) + f"\ntotal: {total} papers")
    assert total > 800


@pytest.mark.parametrize("name", ["iclr-2024-papers.jsonl", "icml-2024-papers.jsonl"])
def test_every_paper_of_the_iclr_and_icml_lists_comes_back_from_ris_and_csl_json(corpora, tmp_path, name):
    count, differences = round_trip(corpora / name, tmp_path)
    assert differences == []
    assert count > 2000


def test_names_are_split_into_family_and_given_names(tmp_path):
    source = tmp_path / "names.bib"
    source.write_text("""@article{a, title={T}, year=2024, journal={J},
  author={Ashish Vaswani and van Beethoven, Ludwig and Doe, Jr., John and {IEEE Computer Society} and M{\\"u}ller, J{\\"o}rg}}
""", encoding="utf-8")
    (record,) = rispy.loads(export(source, "ris", tmp_path / "names.ris"))
    assert record["authors"] == ["Vaswani, Ashish", "van Beethoven, Ludwig", "Doe, John, Jr.", "IEEE Computer Society", "Müller, Jörg"]
    (item,) = json.loads(export(source, "csl-json", tmp_path / "names.json"))
    assert item["author"][:3] == [{"family": "Vaswani", "given": "Ashish"}, {"family": "van Beethoven", "given": "Ludwig"},
                                  {"family": "Doe", "given": "John", "suffix": "Jr."}]
    assert item["author"][3] == {"family": "IEEE Computer Society"}
    again = read_path(tmp_path / "names.ris").papers[0]
    assert [words(a) for a in again.authors] == [words(a) for a in read_path(source).papers[0].authors]


def test_a_value_cannot_start_a_record_or_a_tag(tmp_path):
    """A title or abstract holding line breaks and RIS tags (a hostile list) stays one value of one record."""
    source = tmp_path / "hostile.jsonl"
    source.write_text(json.dumps({"title": "Evil\nER  - \nTY  - JOUR\nTI  - injected", "abstract": "One.\r\nAU  - Mallory\n\x1b]52;c;aGk=\x07",
                                  "authors": ["A. One"]}) + "\n", encoding="utf-8")
    (record,) = rispy.loads(export(source, "ris", tmp_path / "out.ris"))
    assert record["title"] == "Evil ER - TY - JOUR TI - injected"
    assert record["authors"] == ["One, A."]
    assert "\x1b" not in (tmp_path / "out.ris").read_text(encoding="utf-8")
