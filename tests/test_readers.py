"""Every list format and encoding a researcher has, read into papers; bad input named clearly."""
from __future__ import annotations

import json

import bibtexparser
import pytest
from bibtexparser.middlewares import NormalizeFieldKeys

from store.common.errors import ReadError
from store.papers.model import paper_id, Triage
from store.cite import export
from store.cite.keys import citation_keys
from store.readers import read_path, read_paths
from store.marks.db import TriageStore

ABSTRACT_1 = "We propose FairTune, a framework to optimise fairness. FairTune works."
ABSTRACT_2 = "Vision tasks are local. We introduce the Dynamic Signal Distribution (DSD) task."
SEED = f"ICLR 2024 论文列表\n\n{ABSTRACT_1}\n\n{ABSTRACT_2}\n"


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "encoding", ["utf-8", "utf-8-sig", "utf-16", "gb18030", "gbk"],
)
def test_seed_in_every_encoding_reads_without_mojibake(tmp_path, encoding):
    collection = read_path(write(tmp_path, "list.txt", SEED.encode(encoding)))
    assert collection.header == "ICLR 2024 论文列表"
    assert [p.text for p in collection.papers] == [ABSTRACT_1, ABSTRACT_2]


# Headers as short as a list's title gets, and abstracts in the list's own language.
EAST_ASIAN = {
    "shift_jis": (["論文", "論文一覧", "ICLR 2024 論文リスト", "ICML 2024 採択論文一覧"],
                  "本研究では、グラフニューラルネットワークのための新しい手法を提案する。実験の結果、提案手法は既存手法よりも高い精度を達成した。"),
    "cp932": (["人工知能学会 2024 要旨"], "大規模言語モデルは多くのタスクで優れた性能を示すが、推論の計算コストが高い。～①②"),
    "big5": (["論文", "論文列表", "ICLR 2024 論文清單", "國際會議論文集"],
             "本研究提出一種新的圖神經網路方法，實驗結果顯示該方法優於現有方法。"),
    "euc_kr": (["논문", "논문 목록", "ICLR 2024 논문 목록", "2024 학술대회 논문 초록"],
               "본 연구에서는 그래프 신경망을 위한 새로운 방법을 제안한다. 실험 결과 제안한 방법이 기존 방법보다 우수하다."),
    "gbk": (["论文", "报告", "中文摘要", "论文列表", "会议论文", "NeurIPS 2023 论文集", "ICLR 2024 论文列表"],
            "本研究提出了一种新的图神经网络方法，实验结果表明该方法优于现有方法。"),
}


@pytest.mark.parametrize("encoding", list(EAST_ASIAN))
@pytest.mark.parametrize("native", [False, True], ids=["english-abstracts", "native-abstracts"])
def test_east_asian_legacy_encodings_read_without_mojibake(tmp_path, encoding, native):
    headers, abstract = EAST_ASIAN[encoding]
    for number, header in enumerate(headers):
        abstracts = [abstract, ABSTRACT_2] if native else [ABSTRACT_1, ABSTRACT_2]
        path = write(tmp_path, f"{number}.txt", "\n\n".join([header, *abstracts]).encode(encoding) + b"\n")
        collection = read_path(path)
        assert collection.header == header
        assert [p.text for p in collection.papers] == abstracts


def test_a_chinese_header_of_hangul_like_bytes_is_still_gbk(tmp_path):
    # Every byte pair of these headers is also a Hangul syllable (or Big5 hanzi): common Chinese
    # characters keep them Chinese, as before.
    for number, header in enumerate(["报告", "论文集", "会议报告", "ICLR 2024 报告"]):
        path = write(tmp_path, f"{number}.txt", f"{header}\n\n{ABSTRACT_1}\n".encode("gbk"))
        assert read_path(path).header == header


def test_a_long_east_asian_list_is_read_whole(tmp_path):
    # Longer than the sample the encodings are told apart on, a character across its end.
    headers, abstract = EAST_ASIAN["shift_jis"]
    abstracts = [f"{abstract}（{number}）" for number in range(700)]
    path = write(tmp_path, "long.txt", "\n\n".join([headers[1], *abstracts]).encode("shift_jis"))
    assert [p.text for p in read_path(path).papers] == abstracts


def test_accented_letters_side_by_side_stay_western(tmp_path):
    # An accent before a letter (or two side by side) also reads as an everyday hanzi in Big5 (or GBK).
    text = "Workshop 2023\n\nWe thank Åke from Ávila for the data.\n"
    for encoding in ("latin-1", "cp1252"):
        path = write(tmp_path, f"{encoding}.txt", text.encode(encoding))
        assert read_path(path).papers[0].text == text.split("\n\n")[1].strip()


def test_latin1_and_windows_1252_accents_read_right(tmp_path):
    text = "Workshop 2023\n\nWe thank Jürgen Müller from Tübingen for the café naïve résumé data.\n\nSecond – with élan.\n"
    for encoding in ("latin-1", "cp1252"):
        data = text.encode(encoding, errors="replace") if encoding == "latin-1" else text.encode(encoding)
        papers = read_path(write(tmp_path, f"{encoding}.txt", data)).papers
        assert papers[0].text == "We thank Jürgen Müller from Tübingen for the café naïve résumé data."
    assert read_path(tmp_path / "cp1252.txt").papers[1].text == "Second – with élan."


def test_crlf_cr_tabs_trailing_spaces_blank_runs_and_hard_wraps(tmp_path):
    raw = "ICLR 2024\r\n\r\nWe propose FairTune, a framework   \r\n\tto optimise fairness.  \r\n\r\n\r\n \t \r\n" \
          "Second abstract\rwrapped here.\r\r"
    collection = read_path(write(tmp_path, "messy.txt", raw.encode()))
    assert [p.text for p in collection.papers] == [
        "We propose FairTune, a framework to optimise fairness.", "Second abstract wrapped here."]
    assert [p.line for p in collection.papers] == [3, 8]
    assert collection.papers[0].title.startswith("FairTune")


def test_no_header_when_the_first_paragraph_is_an_abstract(tmp_path):
    collection = read_path(write(tmp_path, "plain.txt", f"{ABSTRACT_1}\n\n{ABSTRACT_2}\n"))
    assert collection.header == "" and len(collection.papers) == 2


def test_bibtex_fields_strings_months_comments_and_preamble(tmp_path):
    bib = r"""% a comment line
@preamble{"\newcommand{\noop}[1]{}"}
@string{nips = "Advances in Neural Information Processing Systems"}
@comment{jabref-meta: databaseType:bibtex;}
@inproceedings{muller2024,
  title = {{B}ayesian {M}{\"u}ller Nets: $\mathbb{D}^2$ Pruning},
  author = {M{\"u}ller, J{\"u}rgen and Garc{\'\i}a, Ana},
  booktitle = nips,
  year = 2024, month = jan,
  abstract = {We propose \textbf{MNet}, a net.
     It uses $\geq 50$\% sparsity.},
  doi = {10.1000/xyz123},
  pages = {1--10},
}

@article{noabstract, title = "Only a Title", journal = {J. Stuff}, year = {2020}}
"""
    papers = read_path(write(tmp_path, "refs.bib", bib)).papers
    first, second = papers
    assert first.title == "Bayesian Müller Nets: 𝔻^2 Pruning"
    assert first.authors == ("Müller, Jürgen", "García, Ana")
    assert (first.venue, first.year, first.key) == ("Advances in Neural Information Processing Systems", 2024, "muller2024")
    assert first.plain == "We propose MNet, a net. It uses ≥ 50% sparsity."
    assert first.links == ("https://doi.org/10.1000/xyz123",)
    assert ("month", "jan") in first.fields and ("pages", "1--10") in first.fields
    assert (second.title, second.text, second.venue, second.year) == ("Only a Title", "", "J. Stuff", 2020)


def test_an_and_inside_braces_is_one_author(tmp_path):
    bib = "@book{bn, title = {Books}, author = {{Barnes and Noble} and Doe, Jane\n   AND Roe, R.}, year = 2001}\n"
    (paper,) = read_path(write(tmp_path, "corp.bib", bib)).papers
    assert paper.authors == ("Barnes and Noble", "Doe, Jane", "Roe, R.")


def test_a_broken_bibtex_entry_is_skipped_with_its_line(tmp_path):
    bib = "@article{a, title={First}, abstract={One.}}\n\n@article{b, title={Broken, abstract = {x\n}\n\n" \
          "@article{c,\n title = {Third}}\n"
    collection = read_path(write(tmp_path, "broken.bib", bib))
    assert [p.title for p in collection.papers] == ["First", "Third"]
    assert len(collection.warnings) == 1 and "broken.bib:3:" in collection.warnings[0]


def test_real_bibtex_files_load(corpora):
    for path in sorted((corpora / "bib").rglob("*.bib")):
        if path.name in {"common_strings.bib", "multiline_comments.bib"}:  # macros and comments only
            with pytest.raises(ReadError):
                read_path(path)
            continue
        papers = read_path(path).papers
        assert papers and all(p.title for p in papers), path
    cpal = read_path(corpora / "bib" / "pmlr" / "cpal2026-v328-CPAL26.bib").papers
    assert len(cpal) == 54 and all(p.text and p.authors and p.year == 2026 for p in cpal)
    assert {p.venue for p in cpal} == {"Conference on Parsimony and Learning"}
    wrong = read_path(corpora / "bib" / "bibtexparser" / "wrong.bib").papers  # untitled, listed by key
    assert [(p.key, p.title, p.authors) for p in wrong] == [("foo", "foo", ("wrong",)), ("bar", "bar", ("correct",))]
    jabref = read_path(corpora / "bib" / "jabref" / "jabref-authors.bib").papers
    assert any("Håkan" in " ".join(p.authors) for p in jabref)


def test_json_jsonl_csv_with_aliases_and_case(tmp_path):
    records = [
        {"Title": "FairTune: Fair Tuning", "Summary": ABSTRACT_1, "Author": "Ana García; Bo Li", "Year": "2024",
         "Link": "https://openreview.net/forum?id=x", "keywords": ["fair"]},
        {"content": {"title": {"value": "DSD"}, "abstract": {"value": ABSTRACT_2}, "venue": {"value": "ICLR 2024"}}},
    ]
    from_json = read_path(write(tmp_path, "a.json", json.dumps(records))).papers
    from_jsonl = read_path(write(tmp_path, "a.jsonl", "\n".join(json.dumps(r) for r in records))).papers
    csv_text = "TITLE,Abstract Note,Authors,Publication Year,URL\n" \
               f"\"FairTune: Fair Tuning\",\"{ABSTRACT_1}\",\"Ana García; Bo Li\",2024,https://openreview.net/forum?id=x\n"
    from_csv = read_path(write(tmp_path, "a.csv", csv_text)).papers
    for papers in (from_json, from_jsonl, from_csv):
        first = papers[0]
        assert (first.title, first.name, first.text, first.year) == ("FairTune: Fair Tuning", "FairTune", ABSTRACT_1, 2024)
        assert first.authors == ("Ana García", "Bo Li")
        assert first.links == ("https://openreview.net/forum?id=x",)
    assert (from_json[1].title, from_json[1].venue) == ("DSD", "ICLR 2024")
    assert from_json[0].keywords == ("fair",) and from_json[0].fields == ()  # a field of its own now


LONG_1 = "We propose FairTune, a framework to optimise fairness of fine-tuned models, and show that it works."
LONG_2 = "Vision tasks are local, yet transformers see everything; we introduce the DSD task to measure it."


def test_a_single_column_of_abstracts_needs_no_header(tmp_path):
    csv_path = write(tmp_path, "abstracts.csv", f'"{LONG_1}"\r\n\r\n"{LONG_2}"\r\n')
    tsv_path = write(tmp_path, "abstracts.tsv", f"{LONG_1}\n{LONG_2}\n")
    for path, lines in ((csv_path, [1, 3]), (tsv_path, [1, 2])):
        papers = read_path(path).papers
        assert [p.text for p in papers] == [LONG_1, LONG_2]
        assert [p.line for p in papers] == lines and papers[0].name == "FairTune"


@pytest.mark.parametrize(
    "name, content",
    [
        ("rows.csv", f'"FairTune: Fair Tuning","{LONG_1}"\n"DSD","{LONG_2}"\n'),
        ("rows.tsv", f"FairTune: Fair Tuning\t{LONG_1}\nDSD\t{LONG_2}\n"),
        ("titles.csv", "FairTune: Fair Tuning\nDSD: Local Vision\n"),
        ("some-short.csv", f'"{LONG_1}"\n"Too short to be an abstract."\n'),
    ],
)
def test_a_table_without_a_header_row_is_one_clear_error(tmp_path, name, content):
    path = write(tmp_path, name, content)
    with pytest.raises(ReadError) as info:
        read_path(path)
    message = str(info.value)
    assert message.startswith(f"{path}:1: no title or abstract column in the header row ")
    assert "FairTune" in message and "expected names such as title, abstract" in message and "\n" not in message


def test_html_in_titles_and_abstracts_is_read_as_text_and_ids_stay_on_the_raw_text(tmp_path):
    abstract = "We propose <b>FairTune</b>, a framework to optimise <i>fairness</i> &amp; accuracy.<br>It works."
    record = {"title": "FairTune: Fair <i>Tuning</i> &amp; More", "abstract": abstract, "authors": ["J&uuml;rgen M&uuml;ller"]}
    (from_json,) = read_path(write(tmp_path, "a.json", json.dumps([record]))).papers
    assert (from_json.title, from_json.authors) == ("FairTune: Fair Tuning & More", ("Jürgen Müller",))
    (bare,) = read_path(write(tmp_path, "b.txt", f"X 2024\n\n{abstract}\n")).papers
    for paper in (from_json, bare):
        assert paper.text == abstract and paper.id == paper_id(abstract)
        assert paper.plain == "We propose FairTune, a framework to optimise fairness & accuracy. It works."
    assert bare.name == "FairTune" and "<" not in bare.title


def test_escape_sequences_in_record_titles_authors_and_venues_are_removed(tmp_path):
    evil = "Evil \x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\u202e"
    record = {"title": evil, "abstract": ABSTRACT_1, "authors": [evil], "venue": evil, "key": "k\x1b[2J"}
    csv_text = "title,abstract,authors,venue\n" + ",".join(f'"{v}"' for v in (evil, ABSTRACT_2 * 9, evil, evil)) + "\n"
    papers = [*read_path(write(tmp_path, "a.json", json.dumps([record]))).papers,
              *read_path(write(tmp_path, "a.csv", csv_text)).papers]
    for paper in papers:
        assert paper.title == paper.venue == "Evil red link" and paper.authors == ("Evil red link",)
    assert papers[0].key == "k"


def test_line_separator_characters_inside_values_do_not_split_records(tmp_path):
    text = "Abstract with\u2028a line separator,\x85 and\x1c more."
    jsonl = read_path(write(tmp_path, "u.jsonl", json.dumps({"abstract": text}, ensure_ascii=False) + "\n")).papers
    csv_papers = read_path(write(tmp_path, "u.csv", f"abstract\r\n\"{text}\"\r\n")).papers
    # One record each; the controls (NEL, FS) are gone from the text, the id is the text's as written.
    assert [p.text for p in jsonl] == [p.text for p in csv_papers] == ["Abstract with\u2028a line separator, and more."]
    assert [p.id for p in jsonl] == [p.id for p in csv_papers] == [paper_id(text)]


def test_bad_records_are_skipped_with_warnings(tmp_path):
    lines = [json.dumps({"abstract": ABSTRACT_1}), "{not json", json.dumps({"year": 2020}), json.dumps([1])]
    collection = read_path(write(tmp_path, "some-bad.jsonl", "\n".join(lines) + "\n"))
    assert [p.text for p in collection.papers] == [ABSTRACT_1]
    assert [w.split(": ", 1)[0] for w in collection.warnings] == [f"{tmp_path}/some-bad.jsonl:{n}" for n in (2, 3, 4)]


def test_format_is_found_by_content_when_the_extension_does_not_say(tmp_path):
    assert read_path(write(tmp_path, "x.txt", "@article{k, title={By Content}}\n")).papers[0].title == "By Content"
    assert read_path(write(tmp_path, "y.txt", json.dumps([{"title": "T", "abstract": "A."}]))).papers[0].title == "T"


def test_directories_recursively_and_the_same_abstract_twice_is_one_paper(tmp_path):
    write(tmp_path, "a.txt", SEED)
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "b.jsonl", json.dumps({"title": "Dup", "abstract": "  " + ABSTRACT_1.upper()}) + "\n")
    write(tmp_path / "sub", "notes.pdf", b"%PDF-1.4 \x00\x01")
    write(tmp_path / "sub", "empty.bib", "")
    collection = read_paths([tmp_path])
    assert [p.text for p in collection.papers] == [ABSTRACT_1, ABSTRACT_2]
    assert [p.position for p in collection.papers] == [0, 1]
    assert collection.warnings == [f"skipped {tmp_path}/sub/empty.bib: empty file"]
    both = read_paths([tmp_path / "a.txt", tmp_path / "sub" / "b.jsonl"])
    assert len(both.papers) == 2 and both.sources == [str(tmp_path / "a.txt"), str(tmp_path / "sub" / "b.jsonl")]


def test_a_bare_abstract_also_in_a_bibtex_file_gets_its_title_and_authors(tmp_path):
    write(tmp_path, "a.txt", SEED)
    write(tmp_path, "b.bib", "@article{garcia24, title={Fair Tuning}, author={Garc{\\'\\i}a, Ana}, year=2024,\n"
                              f"  abstract={{{ABSTRACT_1}}}}}\n")
    first, second = read_paths([tmp_path / "a.txt", tmp_path / "b.bib"]).papers
    assert (first.text, first.title, first.authors, first.key, first.venue) == (
        ABSTRACT_1, "Fair Tuning", ("García, Ana",), "garcia24", "ICLR")
    assert (first.source, first.position) == (str(tmp_path / "a.txt"), 0) and second.position == 1


TWO_VERSIONS = (
    "@misc{lee2023arxiv, title={Fair Tuning}, author={Lee, Ann}, year=2023, eprint={2301.00001},\n"
    f"  abstract={{{ABSTRACT_1}}}}}\n\n"
    "@inproceedings{lee2024fair, title={Fair Tuning}, author={Lee, Ann}, year=2024, booktitle={ICML},\n"
    f"  abstract={{{ABSTRACT_1}}}}}\n\n"
    "@book{untitled1, title={A Title}}\n@book{untitled2, title={A Title}}\n"
)


def test_bibtex_entries_with_their_own_keys_stay_separate_papers_and_all_export(tmp_path):
    path = write(tmp_path, "refs.bib", TWO_VERSIONS)
    papers = read_path(path).papers
    assert [p.key for p in papers] == ["lee2023arxiv", "lee2024fair", "untitled1", "untitled2"]
    assert len({p.id for p in papers}) == 4
    assert papers[0].id == paper_id(ABSTRACT_1)  # the first keeps the abstract's id (and its marks)
    library = bibtexparser.parse_string(export.render(papers, "bibtex", keys=citation_keys(papers)))
    assert [(e.key, e["year"] if "year" in e.fields_dict else None) for e in library.entries] == [
        ("lee2023arxiv", "2023"), ("lee2024fair", "2024"), ("untitled1", None), ("untitled2", None)]
    # The same file twice is still one paper per entry; a bare abstract joins the first entry.
    write(tmp_path, "a.txt", SEED)
    both = read_paths([tmp_path / "a.txt", path, path]).papers
    assert [p.key for p in both] == ["lee2023arxiv", "", "lee2024fair", "untitled1", "untitled2"]
    assert both[0].text == ABSTRACT_1 and both[0].id == paper_id(ABSTRACT_1)


def test_the_preprint_shares_the_marks_of_its_proceedings_entry_and_untitled_entries_keep_their_own(tmp_path):
    """The arXiv entry and the ICML entry of one paper (one title, one author: `store.library.identity`) are one
    paper's two versions: a star on either shows on both. Two untitled entries without authors are two papers."""
    papers = read_path(write(tmp_path, "refs.bib", TWO_VERSIONS)).papers
    store = TriageStore(tmp_path / "triage.json")
    store.attach(papers)
    store.put({papers[1].id: Triage(starred=True), papers[3].id: Triage(read=True)})
    store.close()
    store = TriageStore(tmp_path / "triage.json")
    states = store.attach(papers)
    assert set(states) == {papers[0].id, papers[1].id, papers[3].id}
    assert states[papers[0].id].starred and states[papers[1].id].starred and not states[papers[3].id].starred
    store.close()
    # An untitled entry dropped from the file leaves its mark behind: no other abstract-less
    # entry takes it because their (empty) texts look alike.
    store = TriageStore(tmp_path / "triage.json")
    assert set(store.attach([papers[0], papers[1], papers[2]])) == {papers[0].id, papers[1].id}
    store.close()


def test_every_entry_of_a_real_bibtex_file_is_listed_and_exported(corpora):
    path = corpora / "bib" / "bibtexparser" / "biber-examples.bib"
    library = bibtexparser.parse_file(str(path), append_middleware=[NormalizeFieldKeys()])
    keys = [e.key for e in library.entries]  # its 118 entries less the second tmn4 (a repeated key)
    collection = read_path(path)
    papers = {p.key: p for p in collection.papers}
    assert len(keys) == 117 and [p.key for p in collection.papers] == keys  # was 86: 11 lost to same titles, 20 untitled
    assert collection.warnings == [f"{path}:1543: skipped an entry that repeats the key tmn4 and has no title or abstract"]
    assert (papers["pages1"].title, papers["pages1"].text) == ("pages1", "")  # no title: listed under its key
    exported = bibtexparser.parse_string(export.render(collection.papers, "bibtex", keys=citation_keys(collection.papers)))
    assert [e.key for e in exported.entries] == keys
    stub = exported.entries[keys.index("pages1")]
    assert (stub.entry_type, {f.key: f.value for f in stub.fields}) == ("misc", {"pages": "23--24"})  # no title made up


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("missing.txt", None, "no such file"),
        ("empty.txt", b"", "empty file"),
        ("blank.bib", b"  \n\n", "empty file"),
        ("binary.txt", bytes(range(256)) * 4, "binary file"),
        ("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
        ("bad.json", b'[{"title": "x",\n oops]', "not valid JSON"),
        ("nothing.csv", b"a,b\n1,2\n", "no title or abstract column"),
        ("nothing.bib", b"@comment{just a comment}\n", "no BibTeX entries"),
    ],
)
def test_bad_files_raise_one_clear_error_naming_the_file(tmp_path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ReadError) as info:
        read_path(path)
    assert str(info.value).startswith(str(path)) and message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_directory_with_nothing_readable_is_an_error(tmp_path):
    write(tmp_path, "readme.pdf", b"%PDF")
    with pytest.raises(ReadError) as info:
        read_paths([tmp_path])
    assert str(tmp_path) in str(info.value) and "no readable lists" in str(info.value)


def test_long_lists_parsed_in_worker_processes_give_the_same_papers(tmp_path, monkeypatch, seed_path):
    from store.readers import records

    serial = read_path(seed_path).papers
    monkeypatch.setattr(records, "PARALLEL_FROM", 4)
    monkeypatch.setattr(records, "CHUNK", 2)
    monkeypatch.setattr(records.os, "cpu_count", lambda: 2)
    assert read_path(seed_path).papers == serial


def test_a_list_too_long_to_fork_for_is_sent_to_started_workers_with_the_same_papers(tmp_path, monkeypatch):
    """Forked workers read their texts from what they inherit, so all are read first (1,000,000 arXiv records and
    their records were GBs): a list of more than `FORK_MOST` texts is sent to started workers a few chunks ahead."""
    from store.readers import records

    path = write(tmp_path, "list.txt", "\n\n".join(f"Abstract {n} on graphs, of {n} nodes. It works." for n in range(9)))
    serial = read_path(path).papers
    nowhere = write(tmp_path, "not-a-folder", "")  # no parse cache: each read parses
    monkeypatch.setenv("TRIAGE_CACHE", str(nowhere))
    monkeypatch.setattr(records, "PARALLEL_FROM", 4)
    monkeypatch.setattr(records, "CHUNK", 2)
    monkeypatch.setattr(records.os, "cpu_count", lambda: 2)
    started = []
    pool = records.worker_pool
    monkeypatch.setattr(records, "worker_pool", lambda workers, start: started.append(start) or pool(workers, start))
    for most, way in ((9, "fork"), (8, records.START)):
        monkeypatch.setattr(records, "FORK_MOST", most)
        assert read_path(path).papers == serial
        assert started == [way]
        started.clear()


@pytest.mark.parametrize("late_byte", [b"", "café".encode("latin-1")], ids=["utf-8", "latin-1 at the end"])
def test_a_list_split_while_started_workers_analyse_its_first_abstracts_reads_as_in_one_process(tmp_path, monkeypatch, seed_path,
                                                                                                   late_byte, started_workers):
    """Workers started (not forked: another thread runs, as in the app) are sent each chunk as the file is
    split. A byte UTF-8 does not read, found after chunks were sent, ends that read at once: the file is
    then read whole, as in one process (this one, UTF-8 but for that byte, is an error naming the file)."""
    from store.readers import encoding

    def outcome(path):
        try:
            return [(p.id, p.text, p.title, p.line) for p in read_path(path).papers]
        except ReadError as error:
            return str(error).replace(str(path), "LIST")

    text = seed_path.read_bytes().rstrip() + b"\n\nA last abstract about " + late_byte + b" coffee.\n"
    write(tmp_path, "serial.txt", text)
    serial = outcome(tmp_path / "serial.txt")
    write(tmp_path, "parallel.txt", text)
    monkeypatch.setattr(encoding, "_PIECE", 512)  # many pieces: the last is split long after the first chunks are sent
    with started_workers():
        assert outcome(tmp_path / "parallel.txt") == serial
    assert "coffee" in serial[-1][1] if not late_byte else "cannot tell the text encoding" in serial


def test_texts_sent_to_started_workers_are_kept_as_small_as_read(tmp_path, started_workers):
    """A text beyond ASCII pickled for a worker process would keep a UTF-8 copy of itself for good (CPython caches
    it in the string: ~20 MB at 100,000 abstracts): the texts are sent as UTF-8 bytes made as they are sent."""
    import sys

    abstracts = [f"Abstract {n}: naïve Bayes — a café of {n} graphs, with 𝒪(n) cost." for n in range(9)]
    path = write(tmp_path, "list.txt", "\n\n".join(abstracts))
    with started_workers():
        papers = read_path(path).papers
    assert [p.text for p in papers] == [p.text for p in read_path(path).papers]
    assert all(sys.getsizeof(p.text) == sys.getsizeof(p.text[:-1] + p.text[-1]) for p in papers)  # (a copy: as read)
