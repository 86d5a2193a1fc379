"""Shared fixtures: the bundled seed and, when present, the real corpora in ../shared."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# No property test asserts on wall time: Hypothesis's 200 ms deadline per example and its "too slow"
# health check fail on a loaded machine (two busy loops on two cores), not on a slow parser.
settings.register_profile("untimed", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("untimed")

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "seeds" / "iclr2024.txt"
SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"


def damaged(path: Path, data: bytes) -> None:
    """Make the file at `path` hold `data` (a damage) by a rename, not in place: an engine still open reads its files
    memory-mapped, and a file written in place under a mapping kills the process that reads it (SIGBUS), as a
    database's would; the damage is for the next open to find."""
    temp = path.with_name(path.name + ".damaged")
    temp.write_bytes(data)
    temp.replace(path)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first: the slow trials and the modules driving the installed `triage` in tmux. On every
    core (pytest-xdist's worksteal, pyproject's addopts) the short tests then fill the gaps behind them, rather
    than a long test started last running on one core alone at the end."""
    items.sort(key=lambda item: not (item.get_closest_marker("slow") or hasattr(getattr(item, "module", None), "Tmux")))


@pytest.fixture
def seed_path() -> Path:
    return SEED


@pytest.fixture
def corpora() -> Path:
    """The real corpora beside the checkout; tests using them skip on a clone of the project alone."""
    if not CORPORA.is_dir():
        pytest.skip("../shared/corpora is not beside this checkout")
    return CORPORA


@pytest.fixture
def generated(tmp_path) -> Callable[[int], Path]:
    """Makes a list of that many synthetic abstracts (../shared/tools/make_corpus.py's); skips without it."""
    def make(count: int) -> Path:
        if not MAKE_CORPUS.exists():
            pytest.skip("../shared/tools/make_corpus.py is not beside this checkout")
        path = tmp_path / f"abstracts-{count}.txt"
        subprocess.run([sys.executable, str(MAKE_CORPUS), str(count), "-o", str(path)], check=True, capture_output=True)
        return path

    return make


@pytest.fixture
def started_workers(monkeypatch) -> Callable[[], AbstractContextManager[None]]:
    """Within the context it gives, a parse of more than 4 abstracts is split over two worker processes that
    are started, not forked (another thread runs, as in the app), 2 abstracts a chunk."""
    from store.readers import records

    @contextmanager
    def started() -> Iterator[None]:
        with monkeypatch.context() as patch:
            patch.setattr(records, "PARALLEL_FROM", 4)
            patch.setattr(records, "CHUNK", 2)
            patch.setattr(records, "START", "spawn")
            patch.setattr(records.os, "cpu_count", lambda: 2)
            stop = threading.Event()
            alive = threading.Thread(target=stop.wait)
            alive.start()
            try:
                yield
            finally:
                stop.set()
                alive.join()

    return started


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path, monkeypatch):
    """Every test gets its own triage database and parse cache, and a keys file that is not there; none
    touches the user's. Nor its tmux: run from a tmux pane, copies would ask that tmux whether it takes OSC 52."""
    monkeypatch.setenv("TRIAGE_DB", str(tmp_path / "triage.json"))
    monkeypatch.setenv("TRIAGE_CONFIG", str(tmp_path / "keys.toml"))
    monkeypatch.setenv("TRIAGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TMUX", raising=False)


@pytest.fixture(autouse=True)
def _notices_kept(monkeypatch):
    """Each app keeps every notice it gives (tests.waits.told), besides showing it as always."""
    from types import SimpleNamespace

    from textual.app import App

    notify = App.notify

    def kept(self, message, *, title="", severity="information", **options):
        self.__dict__.setdefault("told_notices", []).append(SimpleNamespace(message=message, title=title, severity=severity))
        notify(self, message, title=title, severity=severity, **options)

    monkeypatch.setattr(App, "notify", kept)


@pytest.fixture
def arxiv_server():
    """The arXiv API on loopback (tests.loopback) serving 12 sample papers of the last day and a half, 5 a page."""
    from tests.loopback import arxiv_api, sample_records, serving, stamped

    records = stamped(sample_records(12))
    with serving({"/api/query": arxiv_api(records, cap=5)}) as server:
        server.records = records
        yield server
