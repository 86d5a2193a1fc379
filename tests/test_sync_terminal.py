"""`triage sync|merge|backup|restore` as real processes: two databases marked with `triage set` and in
the app (tmux), synced through a shared folder in both orders; bad device files; SIGKILL during a sync."""
from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from store.readers import read_path
from store.marks.db import TriageStore
from store.sync.marksfile import decode, encode
from store.marks.merge import edit, values
from store.sync.folder import SUFFIX
from tests.tmux import Tmux, triage_command

KEPT = re.compile(r"──── also kept: the note as .*? ────")


def triage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([triage_command(), *args], capture_output=True, text=True, input=stdin)


BLANK = {"read": False, "starred": False, "priority": 0, "dismissed": False, "note": "", "tags": []}


def marks(db: Path) -> dict[str, dict]:
    """The marks of each marked paper of the bundled list as `triage list --format jsonl` prints them."""
    result = triage("list", "--format", "jsonl", "--db", str(db))
    assert result.returncode == 0, result.stderr
    fields = ("read", "starred", "priority", "dismissed", "note", "tags")
    rows = {row["id"]: {name: row[name] for name in fields} for row in map(json.loads, result.stdout.splitlines())}
    return {pid: row for pid, row in rows.items() if row != BLANK}


def two_devices(tmp: Path, papers: list[str]) -> tuple[Path, Path, Path]:
    """A laptop and a desk database, marked with `triage set` (the laptop first) and one mark in the app (desk)."""
    tmp.mkdir()
    laptop, desk, shared = tmp / "laptop.json", tmp / "desk.json", tmp / "shared"
    shared.mkdir()
    p0, p1, p2 = papers[:3]
    for args in (
        (p0, "--star", "--priority", "2", "--note", "on the laptop", "--tag", "x", "--db", str(laptop)),
        (p2, "--tag", "gone", "--db", str(laptop)),
        (p0, "--priority", "4", "--note", "on the desk", "--db", str(desk)),
        (p1, "--dismiss", "--tag", "y", "--db", str(desk)),
    ):
        assert triage("set", *args).returncode == 0
    app = Tmux(f"{triage_command()} --db {desk}")
    try:
        app.wait_for(lambda s: "19 shown" in s)
        app.send("r")  # the first row, p0: read, in the app
        app.wait_for(lambda s: "saving…" not in s and "18 unread" in s)
        app.quit()
    finally:
        app.kill()
    assert triage("set", p2, "--untag", "gone", "--tag", "kept", "--db", str(laptop)).returncode == 0  # later than the desk's
    return laptop, desk, shared


def test_two_databases_synced_in_either_order_hold_the_same_marks_each_field_as_the_rule_says(tmp_path, seed_path):
    papers = [paper.id for paper in read_path(seed_path).papers]
    p0, p1, p2 = papers[:3]
    results = []
    for order in ("laptop first", "desk first"):
        laptop, desk, shared = two_devices(tmp_path / order.replace(" ", "-"), papers)
        first, second = (laptop, desk) if order == "laptop first" else (desk, laptop)
        for db in (first, second, first):
            result = triage("sync", str(shared), "--db", str(db))
            assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        assert marks(laptop) == marks(desk), order
        results.append(marks(laptop))
        again = [triage("sync", str(shared), "--db", str(db)) for db in (laptop, desk)]
        assert [r.stdout for r in again] == ["", ""]  # nothing new: no paper changes
    for held in results:
        assert held[p0]["starred"] and held[p0]["read"] and held[p0]["priority"] == 4  # the desk's later priority
        assert held[p0]["tags"] == ["x"]
        note = held[p0]["note"]  # both changed it apart: both kept, the desk's (later) first, marked
        assert note.startswith("on the desk\n\n──── also kept: the note as device ") and note.endswith("\non the laptop")
        assert held[p1]["dismissed"] and held[p1]["tags"] == ["y"]
        assert held[p2]["tags"] == ["kept"]
    normalised = [{pid: {**m, "note": KEPT.sub("KEPT", m["note"])} for pid, m in held.items()} for held in results]
    assert normalised[0] == normalised[1]


def test_the_app_syncs_on_open_and_close_and_shows_when(tmp_path, seed_path):
    papers = [paper.id for paper in read_path(seed_path).papers]
    laptop, desk, shared = tmp_path / "laptop.json", tmp_path / "desk.json", tmp_path / "shared"
    shared.mkdir()
    assert triage("set", papers[0], "--star", "--db", str(laptop)).returncode == 0
    assert triage("sync", str(shared), "--db", str(laptop)).returncode == 0
    app = Tmux(f"{triage_command()} --db {desk}", env={"TRIAGE_SYNC": str(shared)})
    try:
        app.wait_for(lambda s: "synced " in s and "1 ★" in s)  # the laptop's star came in on open
        app.send("j", "s")  # the second paper starred here
        app.wait_for(lambda s: "2 ★" in s and "saving…" not in s)
        app.quit()
    finally:
        app.kill()
    assert triage("sync", str(shared), "--db", str(laptop)).returncode == 0  # the desk's file was written on close
    assert [pid for pid, m in marks(laptop).items() if m["starred"]] == papers[:2]


@pytest.mark.parametrize("how", ["$TRIAGE_SYNC", "--sync"])
def test_the_app_opens_when_the_sync_folder_is_not_there_and_says_so(tmp_path, how):
    """A USB stick not plugged in: the list opens, the header says "not synced", named by --sync or by
    $TRIAGE_SYNC alike (--sync used to refuse to start)."""
    unplugged = str(tmp_path / "unplugged")
    command = f"{triage_command()} --db {tmp_path / 'db.json'}" + (f" --sync {unplugged}" if how == "--sync" else "")
    app = Tmux(command, env={"TRIAGE_SYNC": unplugged} if how == "$TRIAGE_SYNC" else {})
    try:
        app.wait_for(lambda s: "not synced" in s and "19 unread" in s)
    finally:
        app.kill()


def test_each_bad_device_file_is_one_line_naming_it_exit_2_and_nothing_of_ours_changes(tmp_path, seed_path):
    papers = [paper.id for paper in read_path(seed_path).papers]
    db, shared = tmp_path / "db.json", tmp_path / "shared"
    shared.mkdir()
    assert triage("set", papers[0], "--star", "--note", "mine", "--db", str(db)).returncode == 0
    blank = values({})
    record = edit({}, blank, dict(blank, starred=False, priority=3), time.time(), "feedface")
    good = encode("marks", "feedface", {papers[0]: (record, "")})
    far = edit({}, blank, dict(blank, priority=1), 1e12, "feedface")  # past the year 9999
    bad = {
        "cut short": good[:-20],
        "garbage": b"\x89PNG\r\n\x1a\n\x00\x00 not marks",
        "from a newer version": good.replace(b'"version": 1', b'"version": 7'),
        "dated past the year 9999": encode("marks", "feedface", {papers[0]: (far, "")}),
    }
    before = marks(db)
    for what, data in bad.items():
        file = shared / f"feedface{SUFFIX}"
        file.write_bytes(data)
        result = triage("sync", str(shared), "--db", str(db))
        lines = result.stderr.splitlines()
        assert result.returncode == 2 and "Traceback" not in result.stderr, what
        assert [line for line in lines if str(file) in line] == [lines[0]] and lines[0].endswith("skipped"), what
        assert marks(db) == before and file.read_bytes() == data, what
    for args, message in (
        (("sync", str(tmp_path / "nope")), "no such folder"),
        (("merge", str(tmp_path / "nope.json")), "no such database file"),
        (("restore", str(tmp_path / "nope.jsonl")), "No such file"),
    ):
        result = triage(*args, "--db", str(db))
        assert result.returncode == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr


def test_merge_dry_run_prints_each_paper_and_changes_nothing_then_merge_does(tmp_path, seed_path):
    papers = [paper.id for paper in read_path(seed_path).papers]
    mine, other = tmp_path / "mine.json", tmp_path / "other.json"
    assert triage("set", papers[0], "--read", "--db", str(mine)).returncode == 0
    assert triage("set", papers[1], "--star", "--priority", "1", "--db", str(other)).returncode == 0
    dry = triage("merge", str(other), "--dry-run", "--db", str(mine))
    assert dry.returncode == 0 and dry.stdout == f"{papers[1]}  starred: no → yes; priority: 0 → 1\n"
    assert "1 paper's marks would change" in dry.stderr and list(marks(mine)) == [papers[0]]
    assert triage("merge", str(other), "--db", str(mine)).stdout == dry.stdout
    assert marks(mine)[papers[1]]["starred"]


def test_backup_then_restore_into_another_database(tmp_path, seed_path):
    papers = [paper.id for paper in read_path(seed_path).papers]
    db, fresh, file = tmp_path / "db.json", tmp_path / "fresh.json", tmp_path / "marks.jsonl"
    assert triage("set", papers[0], "--star", "--tag", "t", "--note", "n", "--db", str(db)).returncode == 0
    assert triage("backup", str(file), "--db", str(db)).returncode == 0
    assert triage("backup", str(file), "--db", str(db)).returncode == 2  # exists: not overwritten
    assert triage("restore", str(file), "--db", str(fresh)).returncode == 0
    assert marks(fresh) == marks(db)
    assert triage("set", papers[1], "--read", "--db", str(fresh)).returncode == 0
    refused = triage("restore", str(file), "--db", str(fresh))
    assert refused.returncode == 2 and "--merge" in refused.stderr and papers[1] in marks(fresh)
    assert triage("restore", str(file), "--merge", "--db", str(fresh)).returncode == 0 and papers[1] in marks(fresh)


@pytest.mark.slow
def test_sigkill_during_a_sync_leaves_both_databases_loadable_with_every_acknowledged_mark(tmp_path, seed_path):
    """A sync of 5,000 incoming papers killed at a random moment, 12 times; each time both databases open
    and hold every mark `triage set` acknowledged, and our device file is whole or absent."""
    papers = [paper.id for paper in read_path(seed_path).papers]
    mine, theirs, shared = tmp_path / "mine.json", tmp_path / "theirs.json", tmp_path / "shared"
    shared.mkdir()
    store = TriageStore(theirs)
    blank = values({})
    store.fold({f"{i:010x}": (edit({}, blank, dict(blank, read=True, priority=i % 6), time.time() - i, "bulk"), "")
                for i in range(5000)})
    store.close()
    assert triage("sync", str(shared), "--db", str(theirs)).returncode == 0
    theirs_before = marks_of(theirs)
    acknowledged: dict[str, bool] = {}
    rng = random.Random(14)
    for trial in range(12):
        pid = papers[trial % len(papers)]
        acknowledged[pid] = not acknowledged.get(pid, False)
        assert triage("set", pid, "--star" if acknowledged[pid] else "--unstar", "--db", str(mine)).returncode == 0
        process = subprocess.Popen([triage_command(), "sync", str(shared), "--db", str(mine)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 1.5))  # the stimulus: where in the sync the kill lands
        process.send_signal(signal.SIGKILL)
        process.wait()
        held = marks_of(mine)
        assert {pid: held.get(pid, {}).get("starred", False) for pid in acknowledged} == acknowledged, trial
        assert marks_of(theirs) == theirs_before
        for file in shared.glob("*" + SUFFIX):
            decode(str(file), file.read_bytes())  # whole: never half written
    assert triage("sync", str(shared), "--db", str(mine)).returncode == 0
    held = marks_of(mine)
    assert len(held) >= 5000 and {pid: held[pid]["starred"] for pid in acknowledged} == acknowledged


def marks_of(db: Path) -> dict[str, dict]:
    """Every paper's marks in a database (papers not in any list included): it opens, or this fails."""
    store = TriageStore(db)
    try:
        assert not store.notices, store.notices
        return {pid: store.get(pid).marks() for pid in store.ids()}
    finally:
        store.close()
