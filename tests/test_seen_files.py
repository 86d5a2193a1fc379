"""What is new, kept in two files beside the database (store.library.seen_files): a list opened again unchanged
touches only the small one; the identities are written before the small file counts on them, so a crash between the
two counts papers new again, never old; the single file of before is carried over; a damaged file or a link in
place of either is set aside and said, never followed. Real lists, a real database, the installed `triage`."""
from __future__ import annotations

import json
import os
from pathlib import Path

from store.library import seen, seen_files
from store.library.seen import identities, list_name
from store.marks.db import TriageStore
from store.readers import read_path
from store.readers.list_key import read_key
from tests.test_new import paper, titles, triage, write


def opened(db: Path, path: Path) -> seen.Opened:
    """Open the list `path` as the app and `triage list` do (its parse's key known)."""
    store = TriageStore(db)
    try:
        collection = read_path(path)
        return store.opened(collection.sources, collection.papers, read_key(collection))
    finally:
        store.close()


def files(db: Path) -> tuple[Path, Path]:
    return db.with_name(db.name + ".seen"), db.with_name(db.name + ".seen.first")


def test_a_list_opened_again_unchanged_leaves_the_identities_file_as_it_was(tmp_path):
    db, listing = tmp_path / "triage.json", tmp_path / "daily.jsonl"
    write(listing, [paper(n, arxiv=f"2412.0{n:04d}") for n in range(1, 301)])
    assert len(opened(db, listing).new) == 300
    small, first = files(db)
    before = first.stat()
    for _ in range(3):
        assert opened(db, listing) == seen.NOTHING
    after = first.stat()
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (before.st_ino, before.st_mtime_ns, before.st_size)
    assert small.stat().st_size < 1000 < before.st_size  # (what each open writes: a few hundred bytes)
    assert json.loads(small.read_text())["opens"] == 4

    write(listing, [paper(n, arxiv=f"2412.0{n:04d}") for n in range(1, 302)])  # the next day: one paper more
    found = opened(db, listing)
    assert found.new == found.arrived == {read_path(listing).papers[-1].id}
    assert first.stat().st_ino != before.st_ino
    assert titles(str(listing), "-q", "is:new") == []  # (opened since)


def test_an_export_of_a_list_read_as_at_its_last_open_reads_no_identities(tmp_path):
    """`triage export -q is:new` of a list unchanged since it was opened finds nothing new without reading the
    identities (at a million papers, seconds): a damaged identities file is then neither read nor set aside."""
    db, listing = tmp_path / "triage.json", tmp_path / "daily.jsonl"
    write(listing, [paper(n) for n in range(1, 4)])
    opened(db, listing)
    first = files(db)[1]
    first.write_text("not the identities")
    done = triage("export", str(listing), "-q", "is:new")
    assert done.returncode == 1 and "no paper matches 'is:new'" in done.stderr and "set aside" not in done.stderr
    assert first.read_text() == "not the identities"
    write(listing, [paper(n) for n in range(1, 5)])  # changed since: the identities are read (and the damage said)
    done = triage("export", str(listing), "-q", "is:new", "--format", "jsonl")
    assert done.returncode == 0 and "set aside" in done.stderr, done.stderr


def test_a_crash_between_the_two_writes_counts_the_papers_new_again(tmp_path):
    """The identities written, the small file not (the process killed between): the papers seen first at that open
    are new and arrive again, also after opens of an unchanged list that counted past that open."""
    db, listing, other = tmp_path / "triage.json", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write(listing, [paper(1), paper(2)])
    write(other, [paper(3)])
    opened(db, listing)
    opened(db, other)
    small, first = files(db)
    small_before = small.read_bytes()
    write(listing, [paper(1), paper(2), paper(4)])
    added = read_path(listing).papers[-1].id
    assert opened(db, listing).arrived == {added}
    small.write_bytes(small_before)  # as if it had died before writing the small file
    assert opened(db, other) == opened(db, other) == seen.NOTHING  # (opens that never read the identities)
    found = opened(db, listing)
    assert found.new == found.arrived == {added}
    assert opened(db, listing) == seen.NOTHING


def test_the_single_file_of_before_is_carried_over(tmp_path):
    """A database from before keeps everything in `triage.json.seen` ("paper-triage seen 1"): its papers stay old,
    the paper added since is new, and the file is split once (its later versions kept)."""
    db, listing = tmp_path / "triage.json", tmp_path / "list.jsonl"
    old = [paper(n, arxiv=f"2401.0{n:04d}") for n in range(1, 6)]
    write(listing, old)
    names = [name for p in read_path(listing).papers for name in identities(p)]
    small, first = files(db)
    later = {"0123456789": [[2, 2]]}
    small.write_text(json.dumps({"format": "paper-triage seen 1", "opens": 7, "first": {"3": names[:4], "7": names[4:]},
                                 "when": {"3": "2026-01-01T00:00:00Z", "7": "2026-02-01T00:00:00Z"},
                                 "opened": {list_name([str(listing)]): 7}, "read": {}, "later": later}))
    write(listing, [*old, paper(9)])
    assert titles(str(listing), "-q", "is:new") == [paper(9)["title"]]
    kept = json.loads(small.read_text())
    assert kept["format"] == "paper-triage seen 2" and kept["opens"] == 8 and kept["later"] == later
    assert first.read_bytes().startswith(seen_files.MAGIC)  # (its identities hashed)
    assert titles(str(listing), "-q", "is:new") == []
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_a_damaged_identities_file_is_set_aside_and_said(tmp_path):
    db, listing = tmp_path / "triage.json", tmp_path / "list.jsonl"
    write(listing, [paper(1), paper(2)])
    titles(str(listing))
    small, first = files(db)
    whole = first.read_bytes()
    cut = len(seen_files.MAGIC) + 12
    for damage in (b'{"format": "paper-triage seen first 2", "written": "x"}', b"{not json", b"[1, 2]", whole[:-3],
                   whole[:-8] + bytes(8), whole[:cut] + whole[cut:].replace(b'"written"', b'"writtem"'), whole[:cut + 3]):
        first.write_bytes(damage)
        write(listing, [paper(1), paper(2), paper(3)])  # (read anew: the identities are looked at)
        result = triage("list", str(listing), "-q", "is:new")
        assert result.returncode == 0 and "Traceback" not in result.stderr
        assert len(result.stdout.splitlines()) == 3  # every paper counts as new
        assert "triage.json.seen.first" in result.stderr and "set aside" in result.stderr
        assert triage("list", str(listing), "-q", "is:new").returncode == 1  # remembered again since
        write(listing, [paper(1), paper(2)])
        assert triage("list", str(listing), "-q", "is:new").returncode == 1
    assert len(list(tmp_path.glob("triage.json.seen.first.corrupt-*"))) == 7
    assert first.read_bytes().startswith(seen_files.MAGIC)


def test_the_identities_file_of_before_is_read_and_written_anew_as_hashes(tmp_path):
    """An identities file of before (JSON, each identity as text) counts as it did: its papers stay old, the paper
    added since is new; it is written anew as 64-bit hashes, 8 bytes an identity (~30 as text, and ~100 as a string in
    memory when read: the whole arXiv's were 133 MB)."""
    db, listing = tmp_path / "triage.json", tmp_path / "list.jsonl"
    old = [paper(n, arxiv=f"2401.0{n:04d}", doi=f"10.1000/x{n}") for n in range(1, 201)]
    write(listing, old)
    titles(str(listing))
    small, first = files(db)
    names = [name for p in read_path(listing).papers for name in identities(p)]
    before = json.dumps({"format": "paper-triage seen first 2", "written": 1, "first": {"1": names}})
    first.write_text(before)
    write(listing, [*old, paper(999)])  # (read anew: the identities are looked at)
    assert titles(str(listing), "-q", "is:new") == [paper(999)["title"]]
    assert first.read_bytes().startswith(seen_files.MAGIC)
    assert len(names) == 800 and len(first.read_bytes()) < 8 * 802 + 200 < len(before) // 2  # (and paper 999's two)
    assert titles(str(listing), "-q", "is:new") == []  # (counted on again: nothing set aside, nothing new)
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_a_link_in_place_of_either_file_is_replaced_never_followed(tmp_path):
    db, listing = tmp_path / "triage.json", tmp_path / "list.jsonl"
    write(listing, [paper(1), paper(2)])
    titles(str(listing))
    victim = tmp_path / "victim.txt"
    for n, path in enumerate(files(db)):
        victim.write_text("someone else's file\n")
        path.unlink()
        path.symlink_to(victim)
        write(listing, [paper(1), paper(2), paper(3 + n)])
        result = triage("list", str(listing), "-q", "is:new")
        assert result.returncode == 0 and "Traceback" not in result.stderr
        assert "symbolic link" in result.stderr and "set aside" in result.stderr
        assert path.is_file() and not path.is_symlink() and victim.read_text() == "someone else's file\n"
        assert triage("list", str(listing), "-q", "is:new").returncode == 1
    assert all(os.path.islink(aside) for aside in tmp_path.glob("triage.json.seen*.corrupt-*"))
