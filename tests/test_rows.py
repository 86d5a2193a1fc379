"""A list's papers by id without a dict of them (`store.papers.rows.ById`): every paper found by its id, the first of
an id that repeats, nothing for an id the list lacks, ids whose hashes collide told apart; a reopened long list's
through the look-ups its parse entry keeps."""
from __future__ import annotations

import json

from store.marks.db import TriageStore
from store.papers import rows
from store.papers.model import Collection, Paper, Triage
from store.papers.rows import ById
from store.readers import entry_writer, read_path


def papers(ids: list[str]) -> list[Paper]:
    return [Paper(id=pid, text=f"Abstract {pid}.", position=at) for at, pid in enumerate(ids)]


def test_each_paper_is_found_by_its_id_as_a_dict_of_them_finds_it():
    ids = [f"{n * 7919:010x}" for n in range(3000)]
    listed = papers(ids)
    by_id = ById(listed, ids)
    assert by_id == {paper.id: paper for paper in listed}
    assert all(by_id[paper.id] is paper and by_id.row(paper.id) == at for at, paper in enumerate(listed))
    assert "0000000001" not in by_id and by_id.get("0000000001") is None and by_id.row(12) is None
    assert list(by_id) == ids and len(by_id) == 3000


def test_a_single_id_is_found_by_a_scan_before_any_look_up_is_made():
    ids = ["b", "a", "c"]
    by_id = ById(papers(ids), ids)
    assert (by_id.found("c"), by_id.found("z"), by_id._index) == (2, None, None)
    assert (by_id.found("a"), by_id.row("a")) == (1, 1)


def test_ids_whose_hashes_collide_and_a_repeated_id(monkeypatch):
    monkeypatch.setattr(rows, "_HASH", len)  # (every id of one length shares its hash)
    ids = ["ab", "cd", "x", "ef", "cd"]
    listed = papers(ids)
    by_id = ById.of(Collection(listed, ids=ids))
    assert [by_id.row(pid) for pid in ("ab", "cd", "x", "ef", "gh", "")] == [0, 1, 2, 3, None, None]
    assert by_id["cd"] is listed[1]  # (the first of a repeated id, as the list keeps it)
    assert ById.of(Collection(listed)).ids == ids  # (a list without its ids column: its papers')


def test_a_reopened_long_lists_papers_are_found_by_id_and_arxiv_id_through_the_look_ups_its_entry_keeps(tmp_path, monkeypatch):
    """A long list's parse entry keeps the rows of its ids and arXiv ids (`store.papers.rows.Lookup`): reopened, each of
    its papers is found by id without a pass over its ids or a paper made, and a paper starred in another list under
    the same arXiv id shows its star there, as it does in the list parsed."""
    monkeypatch.setattr(entry_writer, "LOOKUPS_FROM", 100)  # (a long list's, at 5,000 papers)
    records = [{"title": f"Scheduling problem number {k} on parallel machines", "authors": [f"Ada Author{k % 50}"],
                "abstract": f"We study scheduling problem {k} with a new bound.", "arxiv": f"2403.{k:05d}" if k % 7 else ""}
               for k in range(5000)]
    listing = tmp_path / "arxiv.jsonl"
    listing.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    parsed, reopened = read_path(listing), read_path(listing)
    kept = reopened.papers.lookups
    assert set(kept) == {"id", "arxiv"}
    by_id = ById.of(reopened)
    assert by_id._index is kept["id"]  # (kept: none made)
    assert [by_id.row(paper.id) for paper in parsed.papers] == list(range(5000)) and by_id.row("0000000000") is None
    assert not any(reopened.papers._made)  # (no chunk of papers made to find them)
    alone = reopened.papers[2500]  # (made alone, of its row of each column: its authors one of the distinct kept once)
    assert not any(reopened.papers._made) and alone == parsed.papers[2500] and alone.authors == ("Ada Author0",)

    other = tmp_path / "monday.jsonl"
    other.write_text(json.dumps({**records[4321], "abstract": "Another wording of it, a day earlier."}) + "\n", encoding="utf-8")
    store = TriageStore(tmp_path / "triage.json")
    monday = read_path(other).papers[0]
    store.attach([monday])
    store.put({monday.id: Triage(starred=True)})
    shown = {list(TriageStore(tmp_path / "triage.json").attach(papers)) == [papers.ids[4321]]
             for papers in (ById.of(parsed), by_id)}
    assert shown == {True} and TriageStore(tmp_path / "triage.json").attach(by_id)[by_id.ids[4321]].starred
