"""Marks keep their paper (issue 32, items 1 and 2): a marked paper's record is kept beside the marks, so the
library (`triage --library`, `list --library`, `export --library`) needs no list file, and sync, merge, backup
and restore carry the records. Real parts: the installed `triage` as a subprocess on real TinyDB files, the
ICLR and ICML lists of ../shared/corpora, a database written by the code before records were kept."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.hostile import one_line, rows, triage

OLD = Path(__file__).parent / "old_database" / "triage.json"
OLD_STARRED = {"490a73fe7e", "51fe554a55", "88695e123b"}


def star(db: Path, listing: Path, query: str, count: int) -> list[str]:
    """Star the first `count` papers of `listing` matching `query` with `triage set -`; their ids."""
    found = triage("list", str(listing), "-q", query, "--format", "jsonl", "--db", str(db))
    ids = [row["id"] for row in rows(found)[:count]]
    done = triage("set", "-", "--star", str(listing), "--db", str(db), input="\n".join(ids) + "\n")
    assert done.returncode == 0, done.stderr
    return ids


def library(db: Path, *args: str) -> list[dict]:
    done = triage("list", "--library", "--format", "jsonl", "--db", str(db), *args)
    assert "Traceback" not in done.stderr, done.stderr
    return rows(done)


def test_a_starred_paper_stays_in_the_library_when_its_list_is_gone(tmp_path, corpora):
    listing = tmp_path / "iclr.jsonl"
    shutil.copy(corpora / "iclr-2024-papers.jsonl", listing)
    db = tmp_path / "triage.json"
    ids = star(db, listing, "reinforcement learning", 3)
    listing.unlink()  # the list is gone: the database alone knows the papers
    shown = {row["id"]: row for row in library(db)}
    assert set(shown) == set(ids)
    paper = shown[ids[0]]
    assert paper["starred"] and paper["title"] and paper["authors"] and paper["venue"] == "ICLR 2024"
    assert paper["keywords"] and paper["area"] and paper["tldr"] and paper["text"]
    assert paper["track"] in {"poster", "spotlight", "oral"}
    assert any("openreview.net/forum?id=" in link for link in paper["links"])
    out = tmp_path / "reading.bib"
    done = triage("export", "--library", "-q", "is:starred", "-o", str(out), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert out.read_text().count("@inproceedings") == 3 and paper["title"].split(":")[0] in out.read_text()


def test_the_library_spans_lists_and_its_query_finds_across_them(tmp_path, corpora):
    db = tmp_path / "triage.json"
    iclr = star(db, corpora / "iclr-2024-papers.jsonl", "reinforcement learning", 2)
    icml = star(db, corpora / "icml-2024-papers.jsonl", "diffusion", 2)
    assert {row["id"] for row in library(db)} == {*iclr, *icml}
    assert {row["id"] for row in library(db, "-q", "diffusion")} >= set(icml)
    venues = {row["venue"] for row in library(db)}
    assert venues == {"ICLR 2024", "ICML 2024"}
    refused = triage("list", "--library", str(corpora / "icml-2024-papers.jsonl"), "--db", str(db))
    assert refused.returncode == 2 and "--library" in one_line(refused)


def test_an_old_database_fills_in_its_records_as_its_papers_are_seen_and_at_once_with_refresh(tmp_path, corpora):
    db = tmp_path / "triage.json"
    shutil.copy(OLD, db)
    assert library(db) == []  # made before records were kept: nothing to show yet, and no error
    seen = triage("list", str(corpora / "icml-2024-papers.jsonl"), "--format", "jsonl", "--db", str(db))
    assert seen.returncode == 0, seen.stderr
    assert [row["id"] for row in library(db)] == ["081a61504c"]  # seen in a list: its record is kept
    done = triage("library", "--refresh", str(corpora / "iclr-2024-papers.jsonl"), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert {row["id"] for row in library(db)} == {"081a61504c", *OLD_STARRED}
    assert all(row["starred"] for row in library(db, "-q", "is:starred")) and len(library(db, "-q", "is:starred")) == 3


def test_a_richer_record_of_a_marked_paper_replaces_the_one_kept(tmp_path, corpora):
    """Marked in a list of bare abstracts, then seen in the conference's jsonl: the title, authors and venue come."""
    iclr = [json.loads(line) for line in filter(None, (corpora / "iclr-2024-papers.jsonl").read_text().split("\n"))][:5]
    bare = tmp_path / "abstracts.txt"
    bare.write_text("\n\n".join(paper["abstract"] for paper in iclr) + "\n")
    db = tmp_path / "triage.json"
    pid = rows(triage("list", str(bare), "--format", "jsonl", "--db", str(db)))[0]["id"]
    assert triage("set", pid, "--star", str(bare), "--db", str(db)).returncode == 0
    assert library(db)[0]["authors"] == []
    full = tmp_path / "iclr.jsonl"
    full.write_text("".join(json.dumps(paper) + "\n" for paper in iclr))
    assert triage("set", pid, "--priority", "1", str(full), "--db", str(db)).returncode == 0
    kept = library(db)[0]
    assert kept["id"] == pid and kept["authors"] == iclr[0]["authors"] and kept["venue"] == "ICLR 2024"
    assert triage("set", pid, "--read", str(bare), "--db", str(db)).returncode == 0  # the poorer one again
    assert library(db)[0]["authors"] == iclr[0]["authors"]


def test_sync_between_two_databases_carries_the_records(tmp_path, corpora):
    folder = tmp_path / "shared"
    folder.mkdir()
    laptop, desk = tmp_path / "laptop" / "triage.json", tmp_path / "desk" / "triage.json"
    laptop.parent.mkdir()
    desk.parent.mkdir()
    ids = star(laptop, corpora / "iclr-2024-papers.jsonl", "reinforcement learning", 4)
    for db in (laptop, desk):
        done = triage("sync", str(folder), "--db", str(db))
        assert done.returncode == 0, done.stderr
    shown = {row["id"]: row for row in library(desk)}
    assert set(shown) == set(ids) and all(row["title"] and row["authors"] and row["starred"] for row in shown.values())


def test_backup_restore_and_merge_carry_the_records(tmp_path, corpora):
    db = tmp_path / "triage.json"
    ids = star(db, corpora / "icml-2024-papers.jsonl", "diffusion", 3)
    backup = tmp_path / "marks.jsonl"
    assert triage("backup", str(backup), "--db", str(db)).returncode == 0
    other = tmp_path / "other" / "triage.json"
    other.parent.mkdir()
    done = triage("restore", str(backup), "--db", str(other))
    assert done.returncode == 0, done.stderr
    assert {row["id"] for row in library(other)} == set(ids)
    third = tmp_path / "third" / "triage.json"
    third.parent.mkdir()
    done = triage("merge", str(db), "--db", str(third))
    assert done.returncode == 0, done.stderr
    assert {row["title"] for row in library(third)} == {row["title"] for row in library(db)}


def test_records_from_a_sync_folder_are_inert_text_and_too_large_ones_are_said(tmp_path):
    """A device file another machine wrote: a title with an escape sequence and markup, and a record of 100 KB."""
    folder = tmp_path / "shared"
    folder.mkdir()
    db = tmp_path / "triage.json"
    fields = '{"starred":[true,1700000000.0,"feedbeef"]}'
    hostile = {"title": "Evil \x1b]52;c;ZXZpbA==\x07[@click=app.quit]title[/]", "abstract": "An abstract \x1b[2J here.",
               "authors": ["Mallory \x1b[31mRed"], "venue": "ICLR 2024"}
    huge = {"title": "Huge", "abstract": "word " * 30_000}
    lines = [json.dumps({"paper-triage": "marks", "version": 1, "device": "feedbeef", "papers": 2}),
             json.dumps({"id": "aaaaaaaaaa", "fp": "", "fields": json.loads(fields), "paper": hostile}),
             json.dumps({"id": "bbbbbbbbbb", "fp": "", "fields": json.loads(fields), "paper": huge}),
             json.dumps({"end": 2})]
    (folder / "feedbeef.triage-marks.jsonl").write_text("\n".join(lines) + "\n")
    done = triage("sync", str(folder), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "bbbbbbbbbb: its record" in done.stderr and "its marks are kept" in done.stderr
    assert "bbbbbbbbbb  starred: no → yes" in done.stdout  # the paper without a record has its marks
    table = triage("list", "--library", "--db", str(db))
    assert "\x1b" not in table.stdout and "\x07" not in table.stdout
    shown = library(db)
    assert [row["id"] for row in shown] == ["aaaaaaaaaa"]
    assert shown[0]["title"] == "Evil [@click=app.quit]title[/]" and "\x1b" not in json.dumps(shown)
    assert triage("list", "-q", "is:starred", "--format", "jsonl", "--library", "--db", str(db)).returncode == 0


def test_a_damaged_records_file_is_said_set_aside_and_the_rest_kept(tmp_path, corpora):
    db = tmp_path / "triage.json"
    first = star(db, corpora / "iclr-2024-papers.jsonl", "reinforcement learning", 2)
    star(db, corpora / "iclr-2024-papers.jsonl", "diffusion", 2)
    papers = tmp_path / "triage.json.papers"
    data = bytearray(papers.read_bytes())
    data[-10] ^= 0xFF  # in the last frame
    papers.write_bytes(bytes(data))
    done = triage("list", "--library", "--format", "jsonl", "--db", str(db))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "damaged" in done.stderr and "corrupt-" in done.stderr
    assert {row["id"] for row in rows(done)} == set(first)
    assert list(tmp_path.glob("triage.json.papers.corrupt-*"))


@pytest.mark.parametrize("planted", ["symlink", "fifo"])
def test_a_records_file_that_is_no_regular_file_is_never_followed_and_the_marks_still_work(tmp_path, corpora, planted):
    import os

    db = tmp_path / "triage.json"
    papers = tmp_path / "triage.json.papers"
    secret = tmp_path / "secret"
    secret.write_text("do not touch\n")
    if planted == "symlink":
        papers.symlink_to(secret)
    else:
        os.mkfifo(papers)
    listing = corpora / "iclr-2024-papers.jsonl"
    pid = rows(triage("list", str(listing), "--format", "jsonl", "--db", str(db)))[0]["id"]
    done = triage("set", pid, "--star", str(listing), "--db", str(db), "--format", "jsonl")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "triage.json.papers" in done.stderr and rows(done)[0]["starred"]
    assert secret.read_text() == "do not touch\n"
    assert library(db) == []


def test_triage_library_opens_the_app_over_every_marked_paper_and_its_marks_are_the_database_s(tmp_path, corpora):
    """The installed `triage --library` in a real terminal: two lists' starred papers, no list file named; a
    search, and a mark made there, which `triage list --library` then shows."""
    from tests.tmux import Tmux, triage_command

    db = tmp_path / "triage.json"
    iclr = star(db, corpora / "iclr-2024-papers.jsonl", "reinforcement learning", 3)
    icml = star(db, corpora / "icml-2024-papers.jsonl", "diffusion", 3)
    titles = {row["id"]: row["title"] for row in library(db)}
    app = Tmux(f"{triage_command()} --library --db {db}", width=140, height=40)
    try:
        app.wait_for(lambda s: "your library · 6 of 6 shown" in s and all(titles[pid][:25] in s for pid in iclr + icml))
        app.send("/")
        app.send("-l", "diffusion")
        app.send("Enter")
        app.wait_for(lambda s: "sorted by match score" in s and " of 6 shown" in s and "6 of 6" not in s
                     and any(titles[pid][:25] in s for pid in icml))
        app.send("r")  # the first paper found: read, in the library
        app.wait_for(lambda s: "saving…" not in s and " 1 read " in s)
    finally:
        app.kill()
    assert sum(row["read"] for row in library(db)) == 1
