"""A sync folder other people (and their sync tools) can write to, as an attacker or an unlucky user
fills it: a link planted as our own device file, FIFOs, devices, links to /dev/zero, huge files, a
note that is not Unicode, a peer file far larger than one person's marks. Each through the real
`triage sync` (and the app in tmux): one line naming the file, the other files merged, our own file
written, nothing written through a link, nothing hangs."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from store.readers import read_path
from store.sync.marksfile import decode, encode
from store.marks.merge import edit, values
from store.sync.folder import MOST_BYTES, MOST_PAPERS, SUFFIX
from tests.hostile import triage
from tests.tmux import Tmux, triage_command

BLANK = values({})


def peer(device: str, pid: str, **marks) -> bytes:
    """A good device file of `device` holding marks on one paper."""
    record = edit({}, BLANK, dict(BLANK, **marks), time.time() - 60, device)
    return encode("marks", device, {pid: (record, "")})


def held(db: Path) -> dict[str, dict]:
    """Every marked paper's marks in the database `db`, as a separate process reads them."""
    from store.marks.db import TriageStore

    store = TriageStore(db)
    try:
        return {pid: store.get(pid).marks() for pid in store.ids()}
    finally:
        store.close()


PLANTED = {"feedface", "c0ffee00", "fifo", "zero", "huge", "folder"}
"""The names of the device files the tests put in a sync folder (our own is none of them)."""


def mine(folder: Path) -> Path:
    """This database's own device file in `folder`."""
    [file] = [f for f in folder.glob("*" + SUFFIX) if f.name.split(".")[0] not in PLANTED]
    return file


def lines_naming(stderr: str, file: Path) -> list[str]:
    assert "Traceback" not in stderr, stderr
    return [line for line in stderr.splitlines() if str(file) in line]


@pytest.fixture
def papers(seed_path) -> list[str]:
    return [paper.id for paper in read_path(seed_path).papers]


def test_a_link_planted_as_our_device_file_is_replaced_and_its_target_never_written(tmp_path, papers):
    """The repro of issue 30, item 1: the link is replaced by our file; the victim stays byte for byte."""
    db, folder, victim = tmp_path / "a.json", tmp_path / "F", tmp_path / "victim"
    folder.mkdir()
    assert triage("set", papers[0], "--star", "--db", str(db)).returncode == 0
    assert triage("sync", str(folder), "--db", str(db)).returncode == 0
    device = mine(folder)
    victim.write_bytes(b"precious\n")
    device.unlink()
    device.symlink_to(victim)
    assert triage("set", papers[1], "--star", "--db", str(db)).returncode == 0
    result = triage("sync", str(folder), "--db", str(db))
    assert victim.read_bytes() == b"precious\n"
    assert not device.is_symlink() and sorted(decode(str(device), device.read_bytes())) == sorted(papers[:2])
    assert result.returncode == 2 and len(lines_naming(result.stderr, device)) == 1, result.stderr
    assert "symbolic link" in lines_naming(result.stderr, device)[0]
    again = triage("sync", str(folder), "--db", str(db))
    assert again.returncode == 0 and victim.read_bytes() == b"precious\n", again.stderr


def test_a_link_planted_as_another_device_file_is_not_followed(tmp_path, papers):
    db, folder, elsewhere = tmp_path / "a.json", tmp_path / "F", tmp_path / "elsewhere.jsonl"
    folder.mkdir()
    elsewhere.write_bytes(peer("feedface", papers[2], starred=True))
    link = folder / f"feedface{SUFFIX}"
    link.symlink_to(elsewhere)
    result = triage("sync", str(folder), "--db", str(db))
    [line] = lines_naming(result.stderr, link)
    assert result.returncode == 2 and "symbolic link" in line and line.endswith("skipped")
    assert held(db) == {} and link.is_symlink() and mine(folder).is_file()


def test_fifos_devices_links_to_dev_zero_and_huge_files_are_skipped_with_a_line_each(tmp_path, papers):
    """None of them hangs the sync or fills its memory: the good peer is merged, our file written."""
    db, folder = tmp_path / "a.json", tmp_path / "F"
    folder.mkdir()
    os.mkfifo(folder / f"fifo{SUFFIX}")
    (folder / f"zero{SUFFIX}").symlink_to("/dev/zero")
    with open(folder / f"huge{SUFFIX}", "wb") as huge:
        huge.truncate(MOST_BYTES + 1)  # sparse: no disk used
    (folder / f"folder{SUFFIX}").mkdir()
    bad = [folder / f"{name}{SUFFIX}" for name in ("fifo", "zero", "huge", "folder")]
    (folder / f"feedface{SUFFIX}").write_bytes(peer("feedface", papers[3], read=True, priority=2))
    assert triage("set", papers[0], "--star", "--db", str(db)).returncode == 0
    result = triage("sync", str(folder), "--db", str(db))
    assert result.returncode == 2
    for file in bad:
        [line] = lines_naming(result.stderr, file)
        assert line.endswith("skipped"), line
    marks = held(db)
    assert marks[papers[3]]["read"] and marks[papers[3]]["priority"] == 2 and marks[papers[0]]["starred"]
    assert sorted(decode(str(mine(folder)), mine(folder).read_bytes())) == sorted([papers[0], papers[3]])


def test_a_lone_surrogate_in_a_peer_note_skips_that_file_and_merges_the_others(tmp_path, papers):
    db, folder = tmp_path / "a.json", tmp_path / "F"
    folder.mkdir()
    broken = folder / f"feedface{SUFFIX}"
    broken.write_bytes(peer("feedface", papers[2], note="aQQc").replace(b"aQQc", b"a\\ud800c"))
    (folder / f"c0ffee00{SUFFIX}").write_bytes(peer("c0ffee00", papers[3], starred=True))
    assert triage("set", papers[0], "--star", "--db", str(db)).returncode == 0
    for _ in range(2):  # told each time, never stuck
        result = triage("sync", str(folder), "--db", str(db))
        [line] = lines_naming(result.stderr, broken)
        assert result.returncode == 2 and line.endswith("skipped") and "surrogate" in line, result.stderr
        assert sorted(held(db)) == sorted([papers[0], papers[3]])
        device = mine(folder)
        assert sorted(decode(str(device), device.read_bytes())) == sorted([papers[0], papers[3]])


def test_a_peer_file_over_the_cap_adds_nothing_and_says_so(tmp_path, papers):
    """One more paper than one device file may bring: the file is skipped whole, the database stays small."""
    db, folder = tmp_path / "a.json", tmp_path / "F"
    folder.mkdir()
    assert triage("set", papers[0], "--star", "--db", str(db)).returncode == 0
    count, stamp = MOST_PAPERS + 1, time.time() - 60
    big = folder / f"feedface{SUFFIX}"
    with open(big, "w") as out:
        out.write(f'{{"paper-triage": "marks", "version": 1, "device": "feedface", "papers": {count}}}\n')
        out.writelines(f'{{"id": "orphan{i:09d}", "fields": {{"read": [true, {stamp}, "feedface"]}}}}\n' for i in range(count))
        out.write(f'{{"end": {count}}}\n')
    result = triage("sync", str(folder), "--db", str(db))
    [line] = lines_naming(result.stderr, big)
    assert result.returncode == 2 and line.endswith("skipped") and f"{MOST_PAPERS:,}" in line, result.stderr
    assert list(held(db)) == [papers[0]] and db.stat().st_size < 100_000


def test_the_app_in_a_terminal_with_a_fifo_in_its_sync_folder_saves_every_mark_and_quits(tmp_path, papers):
    """The sync of the app never stands in front of the marks: each mark reaches the database file while
    the app runs, the FIFO (and a peer file that is not Unicode) are told, and `q` quits."""
    db, folder = tmp_path / "a.json", tmp_path / "F"
    folder.mkdir()
    os.mkfifo(folder / f"fifo{SUFFIX}")
    (folder / f"feedface{SUFFIX}").write_bytes(peer("feedface", papers[5], note="aQQc").replace(b"aQQc", b"a\\ud800c"))
    app = Tmux(f"{triage_command()} --db {db} --sync {folder}", height=50)
    try:
        app.wait_for(lambda s: "19 shown" in s)
        app.send("s", "j", "s", "j", "r")
        app.wait_for(lambda s: "2 ★" in s and "saving…" not in s)
        deadline = time.monotonic() + 120  # (a bound, not a time asserted: the machine may be loaded)
        while not (held(db).get(papers[1], {}).get("starred") and held(db).get(papers[2], {}).get("read")):
            assert time.monotonic() < deadline, held(db)
            time.sleep(0.1)
        assert held(db)[papers[0]]["starred"]
        app.send("q")
        screen = app.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
        assert "fifo" + SUFFIX in screen.replace("\n", "")  # told on the way out: the sync at close skipped it too
    finally:
        app.kill()
