"""Devices whose clocks disagree, and databases copied to another machine, syncing through one folder as
real processes (`triage set`, `triage sync`; a clock moved with `$TRIAGE_CLOCK_OFFSET`, copies made with
cp): a change made later wins, a clock far ahead is named and its marks kept, and every note typed
survives."""
from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from store.readers import read_path
from store.marks.db import TriageStore
from store.papers.model import Triage
from store.sync.folder import sync
from tests.hostile import rows, triage

NOW = time.time()


def ok(*args: str, env: dict[str, str] | None = None) -> str:
    """Run `triage ARGS` (exit 0 asserted, no traceback): its stderr."""
    result = triage(*args, env=env)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return result.stderr


def marks(db, pid: str) -> dict:
    return next(row for row in rows(triage("list", "--format", "jsonl", "--db", str(db))) if row["id"] == pid)


@pytest.fixture
def papers(seed_path) -> list[str]:
    return [paper.id for paper in read_path(seed_path).papers]


@pytest.mark.parametrize("hours", [5, 30])
def test_a_change_made_later_on_the_other_device_wins_over_a_clock_hours_ahead(papers, tmp_path, hours):
    """The laptop's clock is `hours` ahead. The desk syncs after the laptop marked, then changes the same
    mark: after syncs both ways both hold the desk's change; the desk was told of the laptop's clock once,
    and kept the laptop's other marks."""
    folder = tmp_path / "shared"
    folder.mkdir()
    laptop, desk = str(tmp_path / "laptop.json"), str(tmp_path / "desk.json")
    ahead = {"TRIAGE_CLOCK_OFFSET": str(hours * 3600)}
    p, q = papers[:2]
    ok("set", p, "--priority", "1", "--db", laptop, env=ahead)
    ok("set", q, "--star", "--note", "from the laptop", "--db", laptop, env=ahead)
    ok("sync", str(folder), "--db", laptop, env=ahead)
    told = [line for line in ok("sync", str(folder), "--db", desk).splitlines() if "clock" in line]
    assert len(told) == 1 and f"{hours} h ahead of this one" in told[0], told
    ok("set", p, "--priority", "2", "--db", desk)  # later, in real order
    ok("sync", str(folder), "--db", desk)
    ok("sync", str(folder), "--db", laptop, env=ahead)
    ok("sync", str(folder), "--db", desk)
    for db in (laptop, desk):
        assert marks(db, p)["priority"] == 2, db
        assert marks(db, q)["starred"] and marks(db, q)["note"] == "from the laptop"


def test_every_change_made_after_a_sync_comes_after_what_it_brought_in(tmp_path):
    """The laptop's clock is 30 h ahead; the desk's marks made after a sync, on the paper the laptop marked
    and on another one, are timed after the laptop's (the desk's clock moved on to them) and win."""
    folder = tmp_path / "shared"
    folder.mkdir()
    laptop, desk = TriageStore(tmp_path / "laptop.json"), TriageStore(tmp_path / "desk.json")
    now = time.time()  # (not the module's NOW: on a busy machine the test may start many minutes after the import)
    ahead = now + 30 * 3600 + 600
    laptop.put({"p": Triage(priority=1, updated=ahead), "q": Triage(read=True, updated=ahead)})
    sync(laptop, folder, now=ahead)
    assert [line.split(": ", 1)[1][:53] for line in sync(desk, folder).told] == [
        "written by a device whose clock is 30 h ahead of this"]
    desk.put({"p": Triage(priority=2, updated=now), "r": Triage(starred=True, updated=now)})
    assert desk.get("p").priority == 2 and desk.get("r").updated > ahead
    sync(desk, folder), sync(laptop, folder, now=ahead + 1)
    assert laptop.get("p").priority == 2 and laptop.get("q").read and laptop.get("r").starred
    laptop.close(), desk.close()


def test_a_copy_put_back_at_the_same_path_takes_a_device_id_of_its_own(tmp_path):
    """A database file copied aside and put back at the same path on this host (a restored backup): it
    has the marks and a new device id; the original, put back in turn, keeps its id."""
    data = tmp_path / "data"
    data.mkdir()
    path = data / "triage.json"
    store = TriageStore(path)
    store.put({"p": Triage(read=True, updated=NOW)})
    device = store.device
    store.close()
    data.rename(tmp_path / "original")
    data.mkdir()
    shutil.copy(tmp_path / "original" / "triage.json", path)
    copy = TriageStore(path)
    assert copy.get("p").read and copy.device != device
    copy.close()
    shutil.rmtree(data)
    (tmp_path / "original").rename(data)
    assert TriageStore(path).device == device


def test_our_own_file_read_again_is_no_other_claim_on_our_device_id(tmp_path):
    """Syncing with one folder, then another, then the first again: our file there, read again (no longer
    remembered as seen) and older than what we hold, is ours: nothing is said and the device id stays."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    store = TriageStore(tmp_path / "db.json")
    store.put({"p": Triage(note="one", tags=("x",), updated=NOW - 30)})
    device = store.device
    sync(store, first)
    store.put({"p": Triage(note="two", updated=NOW - 20)})
    sync(store, second)
    report = sync(store, first)
    assert report.told == [] and report.read == [f"{device}.triage-marks.jsonl"] and store.device == device
    assert store.get("p").note == "two" and store.get("p").tags == ()
    store.close()


class Machines:
    """Two machines with the same host name that keep their database at the same path (`data/triage.json`):
    each machine's data folder is moved to that path while it runs (`mv`: its files keep their inodes)."""

    def __init__(self, tmp_path, folder) -> None:
        self.tmp, self.folder = tmp_path, folder
        self.data = tmp_path / "data"
        self.db = str(self.data / "triage.json")
        self.away = {2: tmp_path / "machine2"}
        self.here = 1

    def run(self, machine: int, *args: str) -> str:
        """`triage ARGS --db data/triage.json` on `machine`: its stderr."""
        if machine != self.here:
            self.data.rename(self.tmp / f"machine{self.here}")
            self.away.pop(machine).rename(self.data)
            self.away[self.here] = self.tmp / f"machine{self.here}"
            self.here = machine
        return ok(*args, "--db", self.db)

    def sync(self, machine: int) -> str:
        return self.run(machine, "sync", str(self.folder))


def copied(data, into, how: str) -> None:
    """A copy of the data folder `data`, as `how` makes it: the database file alone (a restored backup), the
    whole folder (`cp -a`: a new laptop), or the whole folder as a cloned disk has it (the files that are
    never replaced keep their inodes: the instance file beside the database)."""
    into.mkdir()
    subprocess.run(["cp", "-a", f"{data}/triage.json" if how == "the database file" else f"{data}/.", str(into)], check=True)
    instance = data / "triage.json.device"
    if how == "a cloned disk" and instance.exists():
        (into / instance.name).unlink()
        os.link(instance, into / instance.name)


@pytest.mark.parametrize("how", ["the database file", "the whole folder", "a cloned disk"])
def test_a_database_copied_to_a_machine_of_the_same_name_and_path_loses_no_note(papers, tmp_path, how):
    """A database synced once, then copied (cp) to a second machine with the same host name, kept at the
    same path. Each machine types a note on one paper and syncs: both notes are on both machines, and
    the two never write one device file unseen: the copy takes a device id of its own, or (a cloned disk,
    nothing on it tells it from the original) the sync that finds the other's marks in its file says so."""
    folder = tmp_path / "shared"
    folder.mkdir()
    machines = Machines(tmp_path, folder)
    p, q = papers[:2]
    machines.data.mkdir()
    machines.run(1, "set", q, "--read")
    machines.sync(1)
    copied(machines.data, machines.away[2], how)
    machines.run(1, "set", p, "--note", "typed on one")
    told = machines.sync(1)
    machines.run(2, "set", p, "--note", "typed on two")
    told += machines.sync(2)
    for machine in (1, 2, 1, 2):
        told += machines.sync(machine)
    for machine in (1, 2):
        machines.run(machine, "sync", str(folder))
        note = marks(machines.db, p)["note"]
        assert "typed on one" in note and "typed on two" in note, (machine, note)
        assert marks(machines.db, q)["read"]
    claimed = [line for line in told.splitlines() if "device id" in line]
    assert len(claimed) == (how == "a cloned disk"), told
    assert len(list(folder.iterdir())) == 2
