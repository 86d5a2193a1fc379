"""One paper across sources (issue 32, item 4): a paper seen under the same arXiv id, DOI or OpenReview id, or
the same title with an author in common, is the paper marked elsewhere whatever its abstract's wording: its marks
show in every list, marking it in either shows in both, the library has it once and export writes it once; a
later version of a marked paper (a higher arXiv version, the proceedings after the preprint) is `is:updated`.
Real parts: the installed `triage` on real TinyDB files, lists made from the ICLR records of ../shared/corpora."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.hostile import rows, triage

OLD = Path(__file__).parent / "old_database" / "triage.json"


def iclr(corpora: Path, count: int = 40) -> list[dict]:
    return [json.loads(line) for line in (corpora / "iclr-2024-papers.jsonl").read_text(encoding="utf-8").split("\n") if line][:count]


def write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def reworded(record: dict, **fields: object) -> dict:
    """The same paper as another source words it: a sentence more at the start of its abstract, no OpenReview links."""
    out = {"title": record["title"], "abstract": "We revisit an old question. " + record["abstract"],
           "authors": record["authors"], "venue": "arXiv", "year": 2024}
    return {**out, **fields}


def listed(db: Path, listing: Path, *args: str) -> dict[str, dict]:
    done = triage("list", str(listing), "--format", "jsonl", "--db", str(db), *args)
    assert "Traceback" not in done.stderr, done.stderr
    return {row["title"]: row for row in rows(done)}


def mark(db: Path, listing: Path, title: str, *marks: str) -> None:
    pid = listed(db, listing)[title]["id"]
    done = triage("set", pid, *marks, str(listing), "--db", str(db))
    assert done.returncode == 0, done.stderr


def test_a_starred_paper_shows_its_marks_in_a_list_that_words_it_otherwise(tmp_path, corpora):
    papers = iclr(corpora)
    conference = write(tmp_path / "iclr.jsonl", papers)
    paper, other = papers[3], papers[4]
    arxiv = write(tmp_path / "arxiv.jsonl", [reworded(paper), reworded(other), {"title": "Unrelated", "abstract": "Something else entirely here."}])
    db = tmp_path / "triage.json"
    mark(db, conference, paper["title"], "--star")
    shown = listed(db, arxiv)
    assert shown[paper["title"]]["starred"] and not shown[other["title"]]["starred"]
    assert shown[paper["title"]]["id"] != listed(db, conference)[paper["title"]]["id"]  # another text, another id
    mark(db, arxiv, paper["title"], "--priority", "2")  # marked in the second list: shows in the first
    first = listed(db, conference)[paper["title"]]
    assert first["starred"] and first["priority"] == 2
    assert listed(db, arxiv)[paper["title"]]["priority"] == 2
    # one row in the library, one entry exported
    library = rows(triage("list", "--library", "--format", "jsonl", "--db", str(db)))
    assert [row["title"] for row in library] == [paper["title"]]
    out = tmp_path / "reading.bib"
    done = triage("export", "--library", "-o", str(out), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert out.read_text().count("@") == 1


def test_the_state_is_shared_not_moved(tmp_path, corpora):
    """The second list's wording is ≥ 90 % like the first's: before, its state moved to it (and back again)."""
    papers = iclr(corpora)
    conference = write(tmp_path / "iclr.jsonl", papers)
    arxiv = write(tmp_path / "arxiv.jsonl", [reworded(papers[0])])
    db = tmp_path / "triage.json"
    mark(db, conference, papers[0]["title"], "--star")
    before = listed(db, conference)[papers[0]["title"]]["id"]
    assert listed(db, arxiv)[papers[0]["title"]]["starred"]
    both = rows(triage("list", str(conference), str(arxiv), "-q", "is:starred", "--format", "jsonl", "--db", str(db)))
    assert len(both) == 2  # one paper in two sources of one list: both rows show the star
    again = listed(db, conference)[papers[0]["title"]]
    assert again["id"] == before and again["starred"]
    assert [row["id"] for row in rows(triage("list", "--library", "--format", "jsonl", "--db", str(db)))] == [before]


def test_each_identifier_alone_names_the_paper(tmp_path, corpora):
    """The same DOI (another case), the same OpenReview id, the same arXiv id (another version): each with
    another title and abstract, and no author in common."""
    papers = iclr(corpora)
    db = tmp_path / "triage.json"
    first = write(tmp_path / "first.jsonl", [
        {**papers[0], "doi": "10.5555/ABC.123"},
        papers[1],  # its OpenReview link
        {**papers[2], "url": "https://arxiv.org/abs/2401.01234v1", "arxiv": "2401.01234", "venue": "arXiv"},
    ])
    for record in papers[:3]:
        mark(db, first, record["title"], "--star")
    stranger = {"authors": ["Nobody Else"], "venue": "Elsewhere 2024"}
    second = write(tmp_path / "second.jsonl", [
        {"title": "A first other title", "abstract": "Another wording of the first.", "doi": "https://doi.org/10.5555/abc.123", **stranger},
        {"title": "A second other title", "abstract": "Another wording of the second.", "url": papers[1]["url"], **stranger},
        {"title": "A third other title", "abstract": "Another wording of the third.", "arxiv": "arXiv:2401.01234v3", **stranger},
        {"title": "Not the same", "abstract": "Not one of them.", **stranger},
    ])
    shown = listed(db, second)
    assert [title for title, row in shown.items() if row["starred"]] == ["A first other title", "A second other title", "A third other title"]


def test_the_same_title_without_a_common_author_is_another_paper(tmp_path, corpora):
    papers = iclr(corpora)
    conference = write(tmp_path / "iclr.jsonl", papers)
    db = tmp_path / "triage.json"
    mark(db, conference, papers[5]["title"], "--star")
    namesake = write(tmp_path / "namesake.jsonl", [
        {"title": papers[5]["title"].upper() + ".", "abstract": "A different paper of the same title.", "authors": ["Ada Lovelace", "Alan Turing"]},
        {"title": papers[5]["title"].upper() + ".", "abstract": "The same paper, a title in capitals.", "authors": [papers[5]["authors"][-1]]},
    ])
    shown = rows(triage("list", str(namesake), "--format", "jsonl", "--db", str(db)))
    assert [row["starred"] for row in shown] == [False, True]
    done = triage("set", shown[0]["id"], "--read", str(namesake), "--db", str(db))  # the namesake's first mark
    assert done.returncode == 0, done.stderr
    assert [row["starred"] for row in rows(triage("list", str(namesake), "--format", "jsonl", "--db", str(db)))] == [False, True]
    library = rows(triage("list", "--library", "--format", "jsonl", "--db", str(db)))
    assert len(library) == 2


def test_a_later_version_of_a_starred_paper_is_updated(tmp_path, corpora):
    papers = iclr(corpora)
    db = tmp_path / "triage.json"
    v1 = write(tmp_path / "v1.jsonl", [reworded(papers[7], arxiv="2402.00007", url="https://arxiv.org/abs/2402.00007v1"),
                                       reworded(papers[8], arxiv="2402.00008", url="https://arxiv.org/abs/2402.00008v1")])
    mark(db, v1, papers[7]["title"], "--star")
    mark(db, v1, papers[8]["title"], "--star")
    v2 = write(tmp_path / "v2.jsonl", [{**reworded(papers[7], arxiv="2402.00007", url="https://arxiv.org/abs/2402.00007v2"),
                                        "abstract": "A second version, rewritten. " + papers[7]["abstract"]},
                                       reworded(papers[8], arxiv="2402.00008", url="https://arxiv.org/abs/2402.00008v1")])
    updated = rows(triage("list", str(v2), "-q", "is:updated", "--format", "jsonl", "--db", str(db)))
    assert [row["title"] for row in updated] == [papers[7]["title"]] and updated[0]["updated"] and updated[0]["starred"]
    table = triage("list", str(v2), "--db", str(db)).stdout
    assert "(updated)" in table and table.count("(updated)") == 1
    assert triage("list", str(v1), "-q", "is:updated", "--db", str(db)).returncode == 1  # the version starred is not
    # the proceedings after the preprint: the conference's list (no arXiv version said) is the later version
    conference = write(tmp_path / "iclr.jsonl", papers)
    assert {row["title"] for row in rows(triage("list", str(conference), "-q", "is:updated", "--format", "jsonl", "--db", str(db)))} \
        == {papers[7]["title"], papers[8]["title"]}
    # marked there, the later version is the one kept: no longer updated, and the library exports it
    mark(db, conference, papers[8]["title"], "--read")
    assert [row["title"] for row in rows(triage("list", str(conference), "-q", "is:updated", "--format", "jsonl", "--db", str(db)))] \
        == [papers[7]["title"]]
    library = {row["title"]: row for row in rows(triage("list", "--library", "--format", "jsonl", "--db", str(db)))}
    assert library[papers[8]["title"]]["venue"] == "ICLR 2024" and library[papers[7]["title"]]["venue"] == "arXiv"
    # the earlier version marked again does not take the kept record back
    mark(db, v1, papers[8]["title"], "--priority", "1")
    assert rows(triage("list", "--library", "-q", papers[8]["title"].split(":")[0], "--format", "jsonl", "--db", str(db)))[0]["venue"] == "ICLR 2024"


def test_an_old_database_opens_and_shares_once_its_records_are_kept(tmp_path, corpora):
    db = tmp_path / "triage.json"
    shutil.copy(OLD, db)
    before = db.read_bytes()
    done = triage("list", str(corpora / "iclr-2024-papers.jsonl"), "-q", "is:starred", "--format", "jsonl", "--db", str(db))
    assert done.returncode == 0, done.stderr
    starred = rows(done)
    assert len(starred) == 3 and db.read_bytes() != b"" and before
    again = write(tmp_path / "again.jsonl", [reworded(next(p for p in iclr(corpora, 10_000) if p["title"] == row["title"])) for row in starred])
    assert all(row["starred"] for row in listed(db, again).values())


async def test_the_app_shows_the_shared_marks_and_the_later_version_and_a_mark_there_shows_in_the_first_list(tmp_path, corpora):
    from store.readers import read_path
    from tests.waits import until
    from tui.app import TriageApp
    from tui.widgets.filter_bar import FilterBar
    from tui.widgets.paper_list import PaperList

    papers = iclr(corpora)
    db = tmp_path / "triage.json"
    v1 = write(tmp_path / "v1.jsonl", [reworded(papers[9], arxiv="2402.00009", url="https://arxiv.org/abs/2402.00009v1")])
    mark(db, v1, papers[9]["title"], "--star")
    v2 = write(tmp_path / "v2.jsonl", [papers[10], {**reworded(papers[9], arxiv="2402.00009", url="https://arxiv.org/abs/2402.00009v2"),
                                                    "abstract": "Rewritten for the second version. " + papers[9]["abstract"]}, papers[11]])
    app = TriageApp(read_path(v2), str(db))
    async with app.run_test(size=(140, 40)) as pilot:
        paper_list = app.query_one(PaperList)
        later = paper_list.papers[1]
        assert app.states[later.id].starred and later.id in paper_list.updated
        row = paper_list.render_line(1).text
        assert "↻" in row and "★" in row and "↻" not in paper_list.render_line(0).text
        await pilot.press("slash", *"is:updated", "enter")
        await until(pilot, lambda: [p.id for p in app.query_one(PaperList).papers] == [later.id])
        assert app.query_one(FilterBar).input.value == "is:updated"
        await pilot.press("r")  # read, in the second list
        await until(pilot, lambda: not app.saving and app.states[later.id].read)
    first = listed(db, v1)[papers[9]["title"]]
    assert first["read"] and first["starred"]


def test_a_synced_database_knows_the_paper_in_another_wording_too(tmp_path, corpora):
    """Nothing but the records is needed: what sync carries already (no table of its own to carry)."""
    papers = iclr(corpora)
    folder = tmp_path / "shared"
    folder.mkdir()
    laptop, desk = tmp_path / "laptop" / "triage.json", tmp_path / "desk" / "triage.json"
    laptop.parent.mkdir()
    desk.parent.mkdir()
    mark(laptop, write(tmp_path / "iclr.jsonl", papers), papers[12]["title"], "--star")
    for db in (laptop, desk):
        assert triage("sync", str(folder), "--db", str(db)).returncode == 0
    arxiv = write(tmp_path / "arxiv.jsonl", [reworded(papers[12]), reworded(papers[13])])
    assert [row["starred"] for row in listed(desk, arxiv).values()] == [True, False]


def test_two_arxiv_ids_are_two_papers_whatever_their_titles(tmp_path, corpora):
    papers = iclr(corpora)
    db = tmp_path / "triage.json"
    first = write(tmp_path / "monday.jsonl", [reworded(papers[14], arxiv="2403.00014")])
    mark(db, first, papers[14]["title"], "--star")
    again = write(tmp_path / "tuesday.jsonl", [{**reworded(papers[14], arxiv="2403.09999"), "abstract": "A companion paper."},
                                              {**reworded(papers[14], arxiv="2403.00014v2"), "abstract": "Its second version."}])
    assert [row["starred"] for row in rows(triage("list", str(again), "--format", "jsonl", "--db", str(db)))] == [False, True]


def test_one_paper_at_a_time_is_found_as_among_all_and_the_keys_cache_stands_for_the_records(tmp_path, corpora):
    """What `triage set` asks of the paper it marks first (the identities of the marked papers that have a key of
    its alone, from the keys cache, not the records) finds for each paper what the identities of every record find;
    the cache, damaged, stale or behind the records file, is never believed over the file."""
    from functools import partial

    from store.library.identity import Identities, record_keys, sharing
    from store.library.keys_cache import entry, keys_of
    from store.library.record import record_of
    from store.library.shelf import COMPACT_FRAMES, Shelf
    from store.readers import read_path

    papers = iclr(corpora, 400)
    marked = read_path(write(tmp_path / "iclr.jsonl", papers[:300])).papers
    shelf = Shelf(tmp_path / "triage.json.papers")
    for start in range(0, 300, 50):  # six frames
        assert shelf.keep({p.id: record_of(p) for p in marked[start : start + 50]}) == []
    order = [p.id for p in marked]
    stranger = {"authors": ["Nobody Else"], "venue": "Elsewhere 2024"}
    others = [reworded(record) for record in papers[:30]] + papers[300:400] + [
        {"title": f"Another title {k}", "abstract": f"Another wording, number {k}.", "url": papers[k]["url"], **stranger}
        for k in range(40, 50)]
    seen = read_path(write(tmp_path / "other.jsonl", others)).papers

    def cached_keys() -> dict[str, list[str]]:
        keys, told = shelf.read(partial(keys_of, cache=entry(shelf.path)), {})
        assert told == []
        return keys

    def read_keys() -> dict[str, list[str]]:
        return {pid: record_keys(record) for pid, record in shelf.records()[0].items()}

    assert cached_keys() == read_keys() and entry(shelf.path).exists()
    full = Identities(read_keys(), order)
    expected = {p.id: found for p in seen if (found := full.same(p)) is not None and found != p.id}
    assert len(expected) == 40 and full.shared(seen) == expected
    keys = cached_keys()  # (from the cache now)
    assert {p.id: found for p in seen for found in sharing(keys, order, [p]).shared([p]).values()} == expected
    entry(shelf.path).write_bytes(b"PTk1 and the rest damaged")
    assert cached_keys() == read_keys()
    assert shelf.keep({seen[-1].id: {"title": "Kept later", "authors": ["Ada Lovelace"], "doi": "10.1/X"}}) == []
    assert cached_keys() == read_keys() and cached_keys()[seen[-1].id][0] == "d:10.1/x"
    for k in range(COMPACT_FRAMES):  # the file written again whole, as one frame: the cache is of other frames
        shelf.keep({f"p{k}": {"title": f"Paper number {k} of many", "authors": ["Ada Lovelace"]}})
    assert cached_keys() == read_keys() and "p0" in cached_keys()


def test_a_first_mark_among_many_marked_papers_is_kept_on_the_paper_it_is(tmp_path, corpora):
    """`triage set` on a list whose ids come from its cache: the paper's first mark, with 60 papers marked, goes
    to the marked paper it is in another wording (found from its keys alone), and its record is kept once."""
    papers = iclr(corpora, 60)
    conference = write(tmp_path / "iclr.jsonl", papers)
    db = tmp_path / "triage.json"
    ids = [row["id"] for row in rows(triage("list", str(conference), "--format", "jsonl", "--db", str(db)))]
    done = triage("set", "-", "--star", str(conference), "--db", str(db), input="\n".join(ids) + "\n")
    assert done.returncode == 0, done.stderr
    arxiv = write(tmp_path / "arxiv.jsonl", [reworded(papers[20]), {"title": "Unrelated", "abstract": "Something else entirely here."}])
    listed(db, arxiv)  # (cached, with its ids entry)
    for title in (papers[20]["title"], "Unrelated"):
        mark(db, arxiv, title, "--priority", "2")
    shown = listed(db, conference)[papers[20]["title"]]
    assert shown["starred"] and shown["priority"] == 2 and shown["id"] == ids[20]
    assert listed(db, arxiv)["Unrelated"]["priority"] == 2
    library = rows(triage("list", "--library", "--format", "jsonl", "--db", str(db)))
    assert len(library) == 61 and sum(row["title"] == papers[20]["title"] for row in library) == 1
