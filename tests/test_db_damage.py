"""A damaged database on a real TinyDB file: never silently different marks, never an emptied store.

Damage while the store is open (another program writes over the snapshot), random changed
bytes in the journal and the snapshot (each line and the snapshot carry a checksum), files of
older versions, a database behind a symbolic link or made read-only, and the leftovers of
writers that died."""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from store.marks.db import TriageStore
from store.common.errors import ReadError
from store.papers.model import Triage

BIG = 1 << 30  # a compaction threshold never reached: the journal keeps its lines


def plain(store: TriageStore) -> dict[str, Triage]:
    """Every stored state, with the time of its change left out."""
    return {pid: replace(store.get(pid), updated=0.0) for pid in store.ids()}


def aside(folder: Path, name: str) -> list[Path]:
    return sorted(folder.glob(f"{name}.corrupt-*"))


# --- damage while the store is open (item 5) ----------------------------------------------------


def snapshot_with_marks(path: Path, n: int = 20) -> dict[str, Triage]:
    store = TriageStore(path)
    marks = {f"p{i}": Triage(read=True, priority=i % 5 + 1, note=f"note {i}") for i in range(n)}
    store.put(marks)
    store.close()
    return marks


@pytest.mark.parametrize("damage", [b"", b"\x00\x01garbage\xff", b"[1, 2]", None], ids=["emptied", "garbage", "not-ours", "deleted"])
def test_a_snapshot_damaged_while_open_keeps_every_mark(tmp_path, damage):
    path = tmp_path / "triage.json"
    marks = snapshot_with_marks(path)
    store = TriageStore(path)
    TriageStore(path).put({"other": Triage(starred=True)})  # another process, before the damage
    if damage is None:
        path.unlink()
    else:
        path.write_bytes(damage)
    changed = store.external_changes()
    assert changed.keys() == {"other"} and changed["other"].starred  # nothing came back blank
    assert plain(store) == {**marks, "other": Triage(starred=True)}
    (notice,) = store.take_notices()
    assert str(path) in notice and "written again" in notice
    if damage is not None:
        (copy,) = aside(tmp_path, "triage.json")
        assert copy.read_bytes() == damage and copy.name in notice
    store.put({"p0": Triage(starred=True)})
    store.close()
    again = TriageStore(path)
    assert again.notices == []
    assert plain(again) == {**marks, "other": Triage(starred=True), "p0": Triage(starred=True)}


def set_star(path: Path, seed_path: Path, index: int) -> str:
    """Star paper `index` of the seed list with the real `triage set` (which compacts as it closes)."""
    from store.readers import read_path

    pid = read_path(seed_path).papers[index].id
    done = subprocess.run(
        [sys.executable, "-m", "tui", "set", pid, "--star", str(seed_path), "--db", str(path)],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    return pid


@pytest.mark.parametrize("picked_up", [True, False], ids=["after-the-poll", "before-the-poll"])
def test_marks_of_a_set_command_and_the_open_store_survive_a_damaged_snapshot(tmp_path, seed_path, picked_up):
    """The real `triage set` marks a paper and compacts; then the snapshot is damaged under the
    open store, before or after that store picked the mark up: the mark is only in the damaged
    snapshot then, and comes back from the previous snapshot and its journal."""
    path = tmp_path / "triage.json"
    marks = snapshot_with_marks(path)
    store = TriageStore(path)
    store.put({"mine": Triage(read=True)})
    pid = set_star(path, seed_path, 3)
    if picked_up:
        assert store.external_changes().keys() == {pid}
    path.write_bytes(b"{ half a file")
    assert all(not state.blank for state in store.external_changes().values())
    assert plain(store).keys() == {*marks, "mine", pid}
    assert "moved aside" in store.take_notices()[0]
    store.close()
    assert json.loads(path.read_text())["tables"]["triage"].keys() == {*marks, "mine", pid}
    assert plain(TriageStore(path)).keys() == {*marks, "mine", pid}


def test_a_snapshot_damaged_before_opening_is_rebuilt_from_the_previous_one(tmp_path, seed_path):
    path = tmp_path / "triage.json"
    marks = snapshot_with_marks(path)
    pid = set_star(path, seed_path, 5)
    path.write_bytes(b"\x00" * 100)
    store = TriageStore(path)
    assert "triage.json.previous" in store.notices[0]
    assert plain(store).keys() == {*marks, pid}


def test_a_previous_snapshot_that_is_the_snapshot_itself_is_not_emptied(tmp_path):
    """A writer killed after keeping the snapshot as the previous one, before writing the new."""
    path = tmp_path / "triage.json"
    marks = snapshot_with_marks(path)
    os.link(path, tmp_path / "triage.json.previous")
    store = TriageStore(path)
    store.put({"x": Triage(read=True)})
    store.close()
    assert plain(TriageStore(path)) == {**marks, "x": Triage(read=True)}


def test_a_journal_emptied_by_another_program_while_open_keeps_every_mark(tmp_path):
    path = tmp_path / "triage.json"
    marks = snapshot_with_marks(path, 3)
    store = TriageStore(path, compact_bytes=BIG)
    store.put({"late": Triage(starred=True)})  # only in the journal
    (tmp_path / "triage.json.journal").write_bytes(b"")
    assert store.external_changes() == {}
    assert "cut short" in store.take_notices()[0]
    store.close()
    assert plain(TriageStore(path)) == {**marks, "late": Triage(starred=True)}


def test_a_snapshot_a_newer_version_wrote_meanwhile_is_never_written_over(tmp_path):
    path = tmp_path / "triage.json"
    snapshot_with_marks(path)
    store = TriageStore(path)
    newer = b'{"schema": 99, "tables": {}}'
    path.write_bytes(newer)
    assert store.external_changes() == {}  # no mark comes back blank
    (notice,) = store.take_notices()
    assert "newer paper-triage" in notice and "not saved" in notice
    assert store.external_changes() == {} and store.take_notices() == []  # said once, not at every poll
    with pytest.raises(ReadError, match="newer paper-triage"):
        store.put({"p1": Triage()})
    store.close()
    assert path.read_bytes() == newer
    assert not aside(tmp_path, "triage.json")


# --- random changed bytes (item 6) -------------------------------------------------------------

SNAPSHOT = {f"s{i:02d}": Triage(read=i % 2 == 0, starred=i % 3 == 0, priority=i % 6, note=f"n{i}") for i in range(12)}
LINES = [{f"j{i}": Triage(read=True, priority=i % 5 + 1, tags=("t",))} for i in range(6)] + [
    {"s01": Triage(starred=True, note="changed")},
    {"s02": Triage()},  # removed
]


def written(skip: frozenset[int] = frozenset(), snapshot: bool = True) -> dict[str, Triage]:
    """The marks of the snapshot (if kept) and of every journal line not in `skip`."""
    state = dict(SNAPSHOT) if snapshot else {}
    for k, line in enumerate(LINES):
        if k not in skip:
            state.update(line)
    return {pid: t for pid, t in state.items() if not t.blank}


def build(folder: Path) -> Path:
    """A database in `folder` holding `SNAPSHOT` in its snapshot and `LINES` in its journal."""
    folder.mkdir()
    store = TriageStore(folder / "triage.json", compact_bytes=BIG)
    store.put(SNAPSHOT)
    store.close()
    store = TriageStore(folder / "triage.json", compact_bytes=BIG)
    for line in LINES:
        store.put(line)
    return folder


@pytest.fixture
def pristine(tmp_path) -> Path:
    return build(tmp_path / "pristine")


def line_of(journal: bytes, at: int) -> int:
    """The index of the journal line that byte `at` belongs to."""
    return journal.count(b"\n", 0, at)


def flipped(pristine: Path, tmp_path: Path, name: str, rng: random.Random, trial: int) -> tuple[Path, int]:
    """A copy of the database with one byte of file `name` changed to another value; the byte's offset."""
    folder = tmp_path / f"trial{trial}"
    shutil.copytree(pristine, folder)
    data = bytearray((folder / name).read_bytes())
    at = rng.randrange(len(data))
    data[at] = rng.choice([b for b in range(256) if b != data[at]])
    (folder / name).write_bytes(bytes(data))
    return folder / "triage.json", at


def test_a_changed_byte_in_the_journal_never_loads_silently_different_marks(pristine, tmp_path):
    rng = random.Random(16)
    good = (pristine / "triage.json.journal").read_bytes()
    for trial in range(60):
        path, at = flipped(pristine, tmp_path, "triage.json.journal", rng, trial)
        store = TriageStore(path)
        if plain(store) == written():
            continue
        line = line_of(good, at)
        assert store.notices and "damaged line" in store.notices[0], f"byte {at} changed marks silently"
        # The damaged line is skipped (with the next one when the change joined them), no other.
        assert plain(store) in (written(frozenset({line})), written(frozenset({line, line + 1}))), at
        assert aside(path.parent, "triage.json.journal"), "the damaged journal is kept"
        store.close()
        assert plain(TriageStore(path)) == plain(store)  # and it stays that way after a restart


def test_a_changed_byte_in_the_snapshot_never_changes_the_marks(pristine, tmp_path):
    """Every changed byte is noticed: the snapshot is set aside, and rebuilt exactly from the
    previous snapshot and the journals (the journal is never set aside with it)."""
    rng = random.Random(17)
    for trial in range(60):
        path, at = flipped(pristine, tmp_path, "triage.json", rng, trial)
        store = TriageStore(path)
        assert plain(store) == written(), f"byte {at} of the snapshot changed the marks"
        assert len(store.notices) == 1 and "moved aside" in store.notices[0]
        assert aside(path.parent, "triage.json") and not aside(path.parent, "triage.json.journal")


def test_a_database_without_checksums_from_an_older_version_loads_as_it_is(tmp_path):
    path = tmp_path / "triage.json"
    doc = {"read": True, "starred": False, "priority": 2, "note": "old", "tags": [], "updated": 1.5, "fp": ""}
    path.write_text(json.dumps({"generation": 3, "schema": 1, "tables": {"triage": {"a": doc}}}, indent=1))
    line = {"g": 3, "tables": {"triage": {"put": {"b": {**doc, "note": "older"}}, "del": ["a"]}}}
    (tmp_path / "triage.json.journal").write_text(json.dumps(line) + "\n")
    store = TriageStore(path)
    assert store.notices == []
    assert plain(store) == {"b": Triage(read=True, priority=2, note="older")}


def test_a_snapshot_edited_by_hand_loads_once_its_checksum_line_is_deleted(tmp_path):
    path = tmp_path / "triage.json"
    snapshot_with_marks(path, 2)
    edited = path.read_text().replace('"note 1"', '"edited by hand"')
    path.write_text(edited)
    assert "moved aside" in TriageStore(path).notices[0]  # a change the checksum does not cover
    path.write_text("".join(line for line in edited.splitlines(True) if '"checksum"' not in line))
    store = TriageStore(path)
    assert store.notices == [] and store.get("p1").note == "edited by hand"


def test_a_last_line_whose_line_end_was_damaged_is_kept_and_reported(tmp_path):
    path = tmp_path / "triage.json"
    store = TriageStore(path, compact_bytes=BIG)
    store.put({"a": Triage(read=True)})
    store.put({"b": Triage(starred=True)})
    journal = tmp_path / "triage.json.journal"
    journal.write_bytes(journal.read_bytes()[:-1] + b"#")
    again = TriageStore(path)
    assert plain(again) == {"a": Triage(read=True), "b": Triage(starred=True)}
    assert "1 damaged line" in again.notices[0]


# --- a linked or read-only database (item 7) ---------------------------------------------------


def test_a_database_behind_a_symbolic_link_stays_linked(tmp_path):
    (tmp_path / "synced").mkdir()
    target = tmp_path / "synced" / "triage.json"
    link = tmp_path / "triage.json"
    link.symlink_to(target)
    for i in range(3):  # each close compacts
        store = TriageStore(link)
        store.put({f"p{i}": Triage(read=True)})
        store.close()
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text())["tables"]["triage"].keys() == {"p0", "p1", "p2"}
    assert not [p for p in (tmp_path / "synced").iterdir() if p.name.endswith(".tmp")]


def test_a_read_only_database_keeps_its_mode(tmp_path):
    path = tmp_path / "triage.json"
    snapshot_with_marks(path, 2)
    path.chmod(0o444)
    store = TriageStore(path)
    store.put({"new": Triage(starred=True)})
    store.close()
    assert path.stat().st_mode & 0o777 == 0o444
    assert "new" in json.loads(path.read_text())["tables"]["triage"]


# --- leftovers and durability (item 8) ---------------------------------------------------------

DIES_IN_COMPACTION = textwrap.dedent(
    """
    import os, sys
    from store.marks.db import TriageStore
    from store.papers.model import Triage
    store = TriageStore(sys.argv[1])
    store.put({"x": Triage(read=True)})
    os.replace = lambda *args: os._exit(9)  # killed after writing the new snapshot, before renaming it
    store.close()
    """
)


def test_temporary_snapshots_of_dead_writers_are_removed_at_the_next_compaction(tmp_path):
    path = tmp_path / "triage.json"
    assert subprocess.run([sys.executable, "-c", DIES_IN_COMPACTION, str(path)]).returncode == 9
    (left,) = tmp_path.glob(".triage.json.*.tmp")
    unrelated = tmp_path / ".notes.1.tmp"
    unrelated.write_text("not the store's")
    store = TriageStore(path)
    assert store.get("x").read  # the journal had it
    store.put({"y": Triage(read=True)})
    store.close()
    assert not left.exists() and unrelated.exists()


def test_a_temporary_snapshot_of_a_live_writer_is_left_alone(tmp_path):
    path = tmp_path / "triage.json"
    writer = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        live = tmp_path / f".triage.json.{writer.pid}.tmp"
        live.write_text("being written")
        store = TriageStore(path)
        store.put({"y": Triage(read=True)})
        store.close()
        assert live.exists()
        an_hour_ago = time.time() - 3600
        os.utime(live, (an_hour_ago, an_hour_ago))  # untouched for long: its writer is stuck or not ours
        store = TriageStore(path)
        store.put({"z": Triage(read=True)})
        store.close()
        assert not live.exists()
    finally:
        writer.communicate(b"")


def test_a_new_journal_is_durable_with_its_folder(tmp_path, monkeypatch):
    """The journal's first line is acknowledged only after the folder that names it is fsynced."""
    path = tmp_path / "triage.json"
    journal = tmp_path / "triage.json.journal"
    store = TriageStore(path)
    synced: list[bool] = []
    fsync = os.fsync

    def spy(fd: int) -> None:
        if os.path.samefile(f"/proc/self/fd/{fd}", tmp_path):
            synced.append(journal.exists())
        fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    store.put({"a": Triage(read=True)})
    assert journal.exists() and True in synced


def test_journal_copies_of_damage_within_one_second_are_all_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(time, "strftime", lambda *args: "20260101-120000")
    path = tmp_path / "triage.json"
    journal = tmp_path / "triage.json.journal"
    for damage in (b"first damage\n", b"second damage\n"):
        store = TriageStore(path)
        store.put({"a": Triage(read=True)})
        with open(journal, "ab") as f:
            f.write(damage)
        store.external_changes()
    copies = aside(tmp_path, "triage.json.journal")
    assert len(copies) == 2
    assert {b"first damage" in c.read_bytes() for c in copies} == {True, False}
