"""Shared fixtures: the bundled seed and, when present, the real corpora in ../shared."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "seeds" / "iclr2024.txt"
SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"


@pytest.fixture
def seed_path() -> Path:
    return SEED


@pytest.fixture
def corpora() -> Path:
    """The real corpora beside the checkout; tests using them skip on a clone of the project alone."""
    if not CORPORA.is_dir():
        pytest.skip("../shared/corpora is not beside this checkout")
    return CORPORA


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path, monkeypatch):
    """Every test gets its own triage database and parse cache, and a keys file that is not there; none
    touches the user's. Nor its tmux: run from a tmux pane, copies would ask that tmux whether it takes OSC 52."""
    monkeypatch.setenv("TRIAGE_DB", str(tmp_path / "triage.json"))
    monkeypatch.setenv("TRIAGE_CONFIG", str(tmp_path / "keys.toml"))
    monkeypatch.setenv("TRIAGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TMUX", raising=False)
