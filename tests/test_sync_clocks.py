"""Devices whose clocks disagree, and databases copied to another machine, syncing through one folder as
real processes (`triage set`, `triage sync`; a clock moved with `$TRIAGE_CLOCK_OFFSET`, copies made with
cp): a change made later wins, a clock far ahead is named and its marks kept, and every note typed
survives."""
from __future__ import annotations

import pytest

from store import read_path
from tests.hostile import rows, triage


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
