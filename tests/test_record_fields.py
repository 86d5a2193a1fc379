"""The record fields researchers triage by (authors, keywords, TL;DR, area, track, DOI, arXiv id, PDF),
read from JSON, JSONL and CSV, from arXiv's metadata snapshot (JSON Lines) and from a saved arXiv
API response (Atom); a broken or hostile XML file is one line naming it, exit 2."""
from __future__ import annotations

import json

import pytest

from store.readers import read_path
from store.common.errors import ReadError
from store.papers.inert import inert
from tests.test_cli import triage

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


# --- arXiv ------------------------------------------------------------------------------------

SNAPSHOT = [
    {"id": "0704.0001", "submitter": "Pavel Nadolsky", "authors": "C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan",
     "title": "Calculation of prompt diphoton production cross sections at Tevatron and\n  LHC energies",
     "comments": "37 pages, 15 figures; published version", "journal-ref": "Phys.Rev.D76:013009,2007",
     "doi": "10.1103/PhysRevD.76.013009", "report-no": "ANL-HEP-PR-07-12", "categories": "hep-ph", "license": None,
     "abstract": "  A fully differential calculation in perturbative quantum chromodynamics is\npresented for the "
                 "production of massive photon pairs at hadron colliders.\n",
     "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"},
                  {"version": "v2", "created": "Tue, 24 Jul 2007 20:10:27 GMT"}],
     "update_date": "2008-11-13",
     "authors_parsed": [["Balázs", "C.", ""], ["Berger", "E. L.", ""], ["Nadolsky", "P. M.", ""], ["Yuan", "C. -P.", ""]]},
    {"id": "2401.01234", "submitter": "Ana Garcia", "authors": "Ana Garc\\'ia, Bo Li and Chen Wei",
     "title": "Score Distillation", "comments": None, "journal-ref": None, "doi": None, "categories": "cs.LG stat.ML",
     "license": "http://creativecommons.org/licenses/by/4.0/", "abstract": f"  {ABSTRACT}\n",
     "versions": [{"version": "v1", "created": "Tue, 2 Jan 2024 18:59:59 GMT"}], "update_date": "2024-01-03"},
]


def test_the_arxiv_metadata_snapshot_reads_with_authors_categories_and_ids(tmp_path):
    path = write(tmp_path, "arxiv-metadata-oai-snapshot.json", "".join(json.dumps(r) + "\n" for r in SNAPSHOT))
    old, new = read_path(path).papers
    assert (old.title, old.authors, old.keywords, old.area, old.arxiv, old.doi, old.year, old.venue) == (
        "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies",
        ("C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C. -P. Yuan"), ("hep-ph",), "hep-ph", "0704.0001",
        "10.1103/PhysRevD.76.013009", 2007, "Phys.Rev.D76:013009,2007")
    assert old.links[:2] == ("https://arxiv.org/abs/0704.0001", "https://doi.org/10.1103/PhysRevD.76.013009")
    assert old.pdf == "https://arxiv.org/pdf/0704.0001" and old.text.startswith("A fully differential")
    assert ("comments", "37 pages, 15 figures; published version") in old.fields
    assert not {name for name, _ in old.fields} & {"versions", "authors_parsed", "categories", "id"}
    # without authors_parsed: the one string of names, its LaTeX read
    assert (new.authors, new.keywords, new.area, new.arxiv, new.year, new.venue) == (
        ("Ana García", "Bo Li", "Chen Wei"), ("cs.LG", "stat.ML"), "cs.LG", "2401.01234", 2024, "arXiv")


def test_an_arxiv_list_reopened_from_the_cache_reads_the_same(tmp_path):
    """Its links and PDF links (worked out from the arXiv ids when a reopened paper is asked) and the values its papers
    share (categories, authors, venue: each kept once in the cache) read back exactly as parsed."""
    from store.readers import cache

    more = [{**SNAPSHOT[1], "id": f"2401.0{n}", "abstract": f"{ABSTRACT} Part {n}." + " Code: github.com/a/b." * (n % 2)}
            for n in range(5000, 5006)]
    path = write(tmp_path, "arxiv.jsonl", "".join(json.dumps(r) + "\n" for r in [*SNAPSHOT, *more]))
    parsed = read_path(path).papers
    cache.settle()
    reopened = read_path(path).papers
    assert reopened == parsed and [p.record() for p in reopened] == [p.record() for p in parsed]
    assert reopened[3].links == ("https://arxiv.org/abs/2401.05001", "https://arxiv.org/pdf/2401.05001", "https://github.com/a/b")
    assert reopened[2].links == ("https://arxiv.org/abs/2401.05000", "https://arxiv.org/pdf/2401.05000")
    assert reopened[2].keywords is reopened[3].keywords and reopened[2].authors is reopened[3].authors


FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3Dall%3Adiffusion" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=all:diffusion&amp;id_list=&amp;start=0&amp;max_results=2</title>
  <id>http://arxiv.org/api/5UHxhtVnE2dFUtJgLgX6HOhpyuM</id>
  <updated>2024-01-03T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">2</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/2401.01234v1</id>
    <updated>2024-01-02T18:59:59Z</updated>
    <published>2024-01-02T18:59:59Z</published>
    <title>Score Distillation for Diffusion Models
  at Scale</title>
    <summary>  We study score distillation for diffusion models at scale and show that a
student matches its teacher in four steps.
</summary>
    <author><name>Ana García</name></author>
    <author><name>Bo Li</name></author>
    <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">10.1000/xyz.123</arxiv:doi>
    <link title="doi" href="http://dx.doi.org/10.1000/xyz.123" rel="related"/>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">12 pages, 3 figures</arxiv:comment>
    <link href="http://arxiv.org/abs/2401.01234v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.01234v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="stat.ML" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <category term="stat.ML" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/hep-th/9901001v2</id>
    <published>1999-01-01T10:00:00Z</published>
    <title>Strings &amp; Branes</title>
    <summary>A study of strings, branes and the dualities between them, in ten dimensions.</summary>
    <author><name>Chen Wei</name></author>
    <arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">Nucl.Phys. B550 (1999) 1</arxiv:journal_ref>
    <link href="http://arxiv.org/abs/hep-th/9901001v2" rel="alternate" type="text/html"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="hep-th"/>
    <category term="hep-th"/>
  </entry>
</feed>
"""


def test_a_saved_arxiv_api_response_reads_with_authors_categories_and_ids(tmp_path):
    for name in ("query.atom", "query.xml", "query.txt"):  # by extension, or by content
        first, second = read_path(write(tmp_path, name, FEED)).papers
        assert (first.title, first.authors, first.keywords, first.area, first.arxiv, first.doi, first.year) == (
            "Score Distillation for Diffusion Models at Scale", ("Ana García", "Bo Li"), ("cs.LG", "stat.ML"),
            "stat.ML", "2401.01234", "10.1000/xyz.123", 2024)
        assert first.text.startswith("We study score distillation") and first.line == 8
        assert first.pdf == "http://arxiv.org/pdf/2401.01234v1" and first.links[0] == "http://arxiv.org/abs/2401.01234v1"
        assert ("comment", "12 pages, 3 figures") in first.fields
        assert (second.title, second.arxiv, second.venue, second.year, second.area) == (
            "Strings & Branes", "hep-th/9901001", "Nucl.Phys. B550 (1999) 1", 1999, "hep-th")
        assert second.pdf == "https://arxiv.org/pdf/hep-th/9901001"


@pytest.mark.parametrize("text, says", [
    (FEED.replace("</summary>\n    <author>", "\n    <author>", 1), ":27: not valid XML: mismatched tag"),  # at </entry>
    (FEED[:900], ": not valid XML: "),
    ('<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n'
     '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&lol2;</title></entry></feed>', ":2: an XML document type"),
    ('<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
     '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&secret;</title></entry></feed>', ":2: an XML document type"),
    ('<?xml version="1.0"?>\n<rss><channel/></rss>\n', ":2: not an Atom feed (the document is a <rss>)"),
    ('<feed xmlns="http://www.w3.org/2005/Atom">\n<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id>'
     "<title>Error</title><summary>incorrect id format for 1234</summary></entry></feed>",
     ":2: the arXiv API answered with an error: incorrect id format for 1234"),
], ids=["unclosed", "cut short", "entity bomb", "external entity", "not atom", "api error"])
def test_bad_xml_is_one_line_naming_the_file_and_line_exit_2(tmp_path, text, says):
    path = write(tmp_path, "bad.xml", text)
    with pytest.raises(ReadError) as error:
        read_path(path)
    assert str(error.value).startswith(str(path)) and says in str(error.value)
    result = triage("list", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"triage: {error.value}"]
    assert "Traceback" not in result.stderr and "root:" not in result.stderr


def test_escapes_in_every_record_field_are_removed_as_it_is_read(tmp_path):
    hostile = "\x1b]52;c;aGk=\x07\x1b[2J\u202e"
    record = {"title": "T", "abstract": ABSTRACT, "authors": [f"Ana{hostile}"], "keywords": [f"kw{hostile}"],
              "primary_area": f"area{hostile}", "track": f"oral{hostile}", "tldr": f"short{hostile}",
              "doi": f"10.1000/x{hostile}", "arxiv_id": f"2401.01234{hostile}"}
    paper = read_path(write(tmp_path, "h.jsonl", json.dumps(record) + "\n")).papers[0]
    values = [paper.authors[0], paper.keywords[0], paper.area, paper.track, paper.tldr, paper.doi, paper.arxiv]
    assert values == ["Ana", "kw", "area", "oral", "short", "10.1000/x", "2401.01234"]


RECORD_FIELDS = ("title", "authors", "venue", "year", "track", "keywords", "area", "tldr", "doi", "arxiv", "pdf", "text")


def record_fields(paper) -> tuple:
    return tuple(getattr(paper, name) for name in RECORD_FIELDS)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_jsonl_or_csv_export_opens_with_every_record_field_it_came_with(tmp_path, suffix):
    source = write(tmp_path, "a.jsonl", json.dumps({**OPENREVIEW, "arxiv_id": "2401.01234"}) + "\n")
    out = tmp_path / f"out{suffix}"
    result = triage("export", str(source), "-o", str(out))
    assert result.returncode == 0, result.stderr
    first, again = read_path(source).papers[0], read_path(out).papers[0]
    assert (again.id, record_fields(again)) == (first.id, record_fields(first))
    assert first.keywords and first.tldr and first.arxiv and first.track == "spotlight"


def test_triage_list_jsonl_carries_the_record_fields(tmp_path):
    source = write(tmp_path, "a.jsonl", json.dumps(OPENREVIEW) + "\n")
    result = triage("list", str(source), "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    row = json.loads(result.stdout)
    assert (row["authors"], row["keywords"], row["area"], row["track"], row["doi"], row["pdf"]) == (
        ["Ana García", "Yoshua Bengio"], ["Diffusion Models", "distillation"], "generative models", "spotlight",
        "10.1000/xyz.1", "https://openreview.net/pdf/abc.pdf")
    assert row["tldr"] == "A student matches its teacher in four steps."


def test_the_iclr_list_exported_as_jsonl_opens_as_itself(tmp_path, corpora):
    source = corpora / "iclr-2024-papers.jsonl"
    out = tmp_path / "iclr.jsonl"
    result = triage("export", str(source), "-o", str(out))
    assert result.returncode == 0, result.stderr
    first, again = read_path(source).papers, read_path(out).papers
    assert len(again) == len(first) == 2260
    assert [record_fields(p) for p in again] == [record_fields(p) for p in first]
    # An id is the hash of the abstract as its file has it: the few abstracts with invisible characters
    # (written without them) get other ids in the export, as an edited abstract does; every other keeps its id.
    raw = [json.loads(line)["abstract"].strip() for line in source.read_text(encoding="utf-8").split("\n") if line]
    changed = {i for i, (p, q) in enumerate(zip(first, again)) if p.id != q.id}
    assert changed == {i for i, text in enumerate(raw) if inert(text) != text} and len(changed) < 10


def test_a_title_naming_its_paper_gives_the_name_and_other_papers_take_theirs_from_the_abstract(tmp_path, started_workers):
    """A true title "NAME: ..." names its paper (escapes before it removed first); a title without one leaves the
    name to the abstract ("We propose BazNet, ..."); an abstract without a title gets a title from its text too.
    Alike when the list is analysed in one process and by worker processes."""
    rows = []
    for n in range(3):
        rows += [{"title": f"\x1b[1mFooNet{n}: Fast Things", "abstract": f"We propose BarNet{n}, a network for {n} things."},
                 {"title": f"Fast things number {n}", "abstract": f"We propose BazNet{n}, a network for things of {n} sizes."},
                 {"abstract": f"We propose QuxNet{n}, a model for graphs of {n} kinds. It is fast."}]
    text = "\n".join(json.dumps(row) for row in rows)

    def shown(name):
        return [(paper.title, paper.name) for paper in read_path(write(tmp_path, name, text)).papers]

    serial = shown("serial.jsonl")
    assert serial[:3] == [("FooNet0: Fast Things", "FooNet0"), ("Fast things number 0", "BazNet0"),
                          ("QuxNet0 — a model for graphs of 0 kinds", "QuxNet0")]
    with started_workers():
        assert shown("parallel.jsonl") == serial
