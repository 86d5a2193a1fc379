"""Sync through a folder, merge of two databases, backup and restore (store.sync.folder, store.sync.backup) on real
database files in a temp dir: what each device holds afterwards, bad device files skipped with ours kept,
a database from before fields had times, and a second sync with nothing new changing nothing."""
from __future__ import annotations

import json
import time

import pytest

from store.sync.backup import backup, restore
from store.marks.db import TriageStore
from store.common.errors import ReadError
from store.papers.model import Triage
from store.sync.folder import SUFFIX, device_file, merge_preview, other_database, sync

NOW = time.time()


@pytest.fixture
def two(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    laptop, desk = TriageStore(tmp_path / "laptop.json"), TriageStore(tmp_path / "desk.json")
    yield laptop, desk, folder
    laptop.close()
    desk.close()


def marks(store: TriageStore) -> dict[str, dict]:
    return {pid: store.get(pid).marks() for pid in store.ids()}


def test_marks_made_on_two_devices_meet_field_by_field(two):
    laptop, desk, folder = two
    laptop.put({"p": Triage(starred=True, priority=2, tags=("x",), updated=NOW - 30)})
    desk.put({"p": Triage(priority=4, read=True, tags=("y",), updated=NOW - 20), "q": Triage(dismissed=True, updated=NOW - 10)})
    sync(laptop, folder), sync(desk, folder), sync(laptop, folder)
    assert marks(laptop) == marks(desk)
    p = laptop.get("p")
    assert (p.starred, p.priority, p.read, p.tags) == (True, 4, True, ("x", "y"))  # priority: the later, desk's
    assert laptop.get("q").dismissed
    assert sorted(f.name for f in folder.iterdir()) == sorted([f"{laptop.device}{SUFFIX}", f"{desk.device}{SUFFIX}"])


def test_a_mark_taken_off_later_stays_off_after_the_sync(two):
    laptop, desk, folder = two
    laptop.put({"p": Triage(starred=True, updated=NOW - 30)})
    sync(laptop, folder), sync(desk, folder)
    assert desk.get("p").starred
    desk.put({"p": Triage(updated=NOW - 10)})  # unstarred: no mark left
    sync(desk, folder), sync(laptop, folder)
    assert not laptop.get("p").starred and laptop.ids() == [] and desk.ids() == []


def test_a_second_sync_with_nothing_new_changes_nothing(two):
    laptop, desk, folder = two
    laptop.put({"p": Triage(starred=True, note="n", updated=NOW - 30)})
    desk.put({"q": Triage(read=True, updated=NOW - 20)})
    for store in (laptop, desk, laptop, desk):
        sync(store, folder)
    files = {f.name: (f.read_bytes(), f.stat().st_mtime_ns) for f in folder.iterdir()}
    before = {store.path: marks(store) for store in (laptop, desk)}
    again = [sync(store, folder) for store in (laptop, desk)]
    assert [(r.changed, r.wrote, r.read) for r in again] == [({}, False, []), ({}, False, [])]
    assert {f.name: (f.read_bytes(), f.stat().st_mtime_ns) for f in folder.iterdir()} == files
    assert {store.path: marks(store) for store in (laptop, desk)} == before


def test_two_notes_changed_apart_are_both_kept_on_both_devices(two):
    laptop, desk, folder = two
    laptop.put({"p": Triage(note="read §3 again", updated=NOW - 30)})
    desk.put({"p": Triage(note="cite in the intro", updated=NOW - 20)})
    sync(laptop, folder), sync(desk, folder), sync(laptop, folder)
    note = laptop.get("p").note
    assert note == desk.get("p").note
    assert note.startswith("cite in the intro\n\n──── also kept:") and note.endswith("\nread §3 again")


def test_a_database_from_before_fields_had_times_opens_and_merges_by_its_updated_time(tmp_path):
    """A snapshot as older versions wrote it: documents without `fields`."""
    old = tmp_path / "old.json"
    doc = {"read": True, "starred": True, "priority": 2, "note": "old note", "tags": ["a", "b"], "updated": NOW - 1000, "fp": ""}
    old.write_text(json.dumps({"schema": 1, "generation": 1, "tables": {"triage": {"p": doc, "r": {**doc, "note": ""}}}}))
    store, newer = TriageStore(old), TriageStore(tmp_path / "new.json")
    assert store.get("p") == Triage(read=True, starred=True, priority=2, note="old note", tags=("a", "b"), updated=NOW - 1000)
    newer.put({"p": Triage(priority=5, updated=NOW - 10)})
    folder = tmp_path / "shared"
    folder.mkdir()
    sync(newer, folder), sync(store, folder), sync(newer, folder)
    for held in (store, newer):
        p = held.get("p")
        assert (p.priority, p.starred, p.note, p.tags) == (5, True, "old note", ("a", "b"))
        assert held.get("r").read
    store.close(), newer.close()


def bad_files(good: bytes) -> dict[str, bytes]:
    lines = good.split(b"\n")
    future = good.replace(str(int(NOW - 30)).encode(), b"999999999999")  # past the year 9999
    assert future != good
    return {
        "cut mid-line": good[: len(good) - 30],
        "cut at a line": b"\n".join(lines[:2]) + b"\n",
        "garbage": b"\x00\xff garbage \x89PNG\r\n",
        "empty": b"",
        "newer version": good.replace(b'"version": 1', b'"version": 99', 1),
        "a time past the year 9999": future,
        "a record not well formed": good.replace(b'"starred":[true', b'"starred":["yes"', 1),
    }


@pytest.mark.parametrize("damage", list(bad_files(b'"version": 1 "starred":[true' + str(int(NOW - 30)).encode())))
def test_a_bad_device_file_is_skipped_with_a_message_and_ours_is_kept(two, damage):
    laptop, desk, folder = two
    laptop.put({"p": Triage(starred=True, priority=1, updated=NOW - 30)})
    sync(laptop, folder)
    good = device_file(folder, laptop.device).read_bytes()
    other = folder / f"feedface{SUFFIX}"
    other.write_bytes(bad_files(good)[damage].replace(laptop.device.encode(), b"feedface"))
    desk.put({"q": Triage(read=True, updated=NOW - 20)})
    report = sync(desk, folder)
    assert len(report.skipped) == 1 and str(other) in report.skipped[0] and report.skipped[0].endswith("skipped")
    assert marks(desk) == {"p": Triage(starred=True, priority=1).marks(), "q": Triage(read=True).marks()}  # the good file's
    assert other.read_bytes().replace(b"feedface", laptop.device.encode()) == bad_files(good)[damage]  # never written over
    assert device_file(folder, desk.device).is_file()
    assert sync(desk, folder).skipped == report.skipped  # told again each time, until the file is good


def test_merge_folds_another_database_in_and_a_dry_run_changes_nothing(two):
    laptop, desk, _ = two
    laptop.put({"p": Triage(starred=True, updated=NOW - 30)})
    desk.put({"p": Triage(priority=3, updated=NOW - 20), "q": Triage(note="n", updated=NOW - 20)})
    desk.close()
    preview = merge_preview(laptop.path, desk.path)
    assert sorted(preview) == ["p", "q"] and marks(laptop) == {"p": Triage(starred=True).marks()}
    assert preview["p"][1].priority == 3
    laptop.fold(other_database(laptop.path, desk.path))
    assert marks(laptop) == {"p": Triage(starred=True, priority=3).marks(), "q": Triage(note="n").marks()}
    assert laptop.fold(other_database(laptop.path, desk.path)) == {}  # again: nothing new
    with pytest.raises(ReadError, match="is this database itself"):
        other_database(laptop.path, laptop.path)
    with pytest.raises(ReadError, match="no such database file"):
        other_database(laptop.path, desk.path.with_name("missing.json"))


def test_backup_and_restore_on_another_machine(two, tmp_path):
    laptop, desk, _ = two
    laptop.put({"p": Triage(starred=True, note="n", tags=("t",), updated=NOW - 30)})
    file = tmp_path / "marks.jsonl"
    assert backup(laptop, file) == 1
    with pytest.raises(ReadError, match="already exists"):
        backup(laptop, file)
    line = json.loads(file.read_text().splitlines()[1])
    assert (line["id"], line["starred"], line["note"], line["tags"]) == ("p", True, "n", ["t"]) and "fp" in line and "fields" in line
    fresh = TriageStore(tmp_path / "elsewhere" / "t.json")
    restore(fresh, file)
    assert marks(fresh) == marks(laptop)
    desk.put({"q": Triage(read=True, updated=NOW - 10)})
    with pytest.raises(ReadError, match="holds marks on 1 papers: pass --merge"):
        restore(desk, file)
    assert marks(desk) == {"q": Triage(read=True).marks()}  # refused: nothing changed
    restore(desk, file, merge=True)
    assert marks(desk) == {"p": Triage(starred=True, note="n", tags=("t",)).marks(), "q": Triage(read=True).marks()}
    restore(desk, file, replace=True)
    assert marks(desk) == marks(laptop)
    fresh.close()


def test_the_device_id_is_stable_and_a_copy_elsewhere_gets_its_own(tmp_path):
    path = tmp_path / "a.json"
    store = TriageStore(path)
    store.put({"p": Triage(read=True, updated=NOW)})
    device = store.device
    store.close()
    assert TriageStore(path).device == device
    copy = tmp_path / "copy" / "a.json"
    copy.parent.mkdir()
    copy.write_bytes(path.read_bytes())  # closed: the journal is folded into the snapshot
    copied = TriageStore(copy)
    assert copied.get("p").read and copied.device != device


def test_a_sync_folder_that_is_not_there_is_refused(two, tmp_path):
    laptop, _, _ = two
    with pytest.raises(ReadError, match="no such folder"):
        sync(laptop, tmp_path / "unplugged")
