"""A list's papers by id without a dict of them (`store.papers.rows.ById`): every paper found by its id, the first of
an id that repeats, nothing for an id the list lacks, ids whose hashes collide told apart."""
from __future__ import annotations

from store.papers import rows
from store.papers.model import Collection, Paper
from store.papers.rows import ById


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
    monkeypatch.setattr(rows, "hash", len, raising=False)  # (every id of one length shares its hash)
    ids = ["ab", "cd", "x", "ef", "cd"]
    listed = papers(ids)
    by_id = ById.of(Collection(listed, ids=ids))
    assert [by_id.row(pid) for pid in ("ab", "cd", "x", "ef", "gh", "")] == [0, 1, 2, 3, None, None]
    assert by_id["cd"] is listed[1]  # (the first of a repeated id, as the list keeps it)
    assert ById.of(Collection(listed)).ids == ids  # (a list without its ids column: its papers')
