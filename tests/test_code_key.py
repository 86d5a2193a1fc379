"""A list's cache is kept under the code that made it, and only that code (`store.readers.cache.code_key`): an upgrade
that changes how marks, sync, citations or the search index work keeps every list's parse (a million papers parse
again in minutes), one that changes how lists are parsed parses them again, and an entry made by another wing (the search index,
citations, For you, the re-found marks) is made again when that wing's code changes.

The project's `store` and `tui` are copied into a temporary folder and run from there by a real `triage list`, so
that their code can be changed as an upgrade would change it."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from store.readers import cache
from tests.test_import_contract import MAY_IMPORT, import_graph, wing

ROOT = Path(__file__).resolve().parent.parent


def test_the_wings_that_parse_are_the_readers_and_every_wing_they_may_import_but_search():
    closure, todo = set(), ["readers"]
    while todo:
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            todo.extend(MAY_IMPORT[name])
    assert set(cache.PARSING) == closure - {"search"}
    # search's code can reach no parse: of the wings that parse, only the engine folder's keeper imports it, and
    # nothing of theirs imports that keeper
    graph = import_graph(ROOT)
    parsing = {module: targets for module, targets in graph.items() if wing(module) in cache.PARSING}
    assert {module for module, targets in parsing.items() if any(wing(t) == "search" for t in targets)} \
        == {"store.readers.engine_cache"}
    assert not any("store.readers.engine_cache" in targets for targets in parsing.values())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the code, run in place of the installed one."""
    copy = tmp_path / "project"
    for package in ("store", "tui"):
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def triage(project: Path, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(project))
    done = subprocess.run([sys.executable, "-c", "import sys; from tui.cli import command; sys.exit(command())", *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def keys(project: Path) -> dict[str, str]:
    """The keys the copy's code keeps its entries under."""
    script = ("import json; from store.readers import cache, engine_cache; "
              "print(json.dumps({'parse': cache.version_key(), 'interest': cache.code_key('interest'), "
              "'marks': cache.code_key('marks', 'library'), 'cite': cache.code_key('cite'), "
              "'engine': engine_cache.engine_key('')}))")
    done = subprocess.run([sys.executable, "-c", script], cwd=project, env=dict(os.environ, PYTHONPATH=str(project)),
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def upgraded(project: Path, module: str) -> None:
    """The code of `module` (a path under the project) changed, as an upgrade changes it."""
    with (project / module).open("a", encoding="utf-8") as source:
        source.write("\n# changed by an upgrade\n")


def parse_entry() -> Path:
    [entry] = Path(os.environ["TRIAGE_CACHE"]).glob("*.parse")
    return entry


def engine_files() -> dict[str, tuple[int, int]]:
    """The files of the list's engine folder, by name: each one's inode and time of change (a build writes anew)."""
    [folder] = Path(os.environ["TRIAGE_CACHE"]).glob("*.engine")
    return {path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in folder.iterdir() if path.is_file()}


def test_an_upgrade_of_the_marks_or_the_engine_keeps_the_parse_and_one_of_the_readers_parses_again(project):
    listing = str(ROOT / "seeds" / "iclr2024.txt")
    shown = triage(project, "list", listing, "-q", "diffusion")
    assert shown.strip()
    written = parse_entry().read_bytes()
    before = keys(project)

    upgraded(project, "store/marks/db.py")
    after = keys(project)
    assert after["parse"] == before["parse"] and after["interest"] == before["interest"] and after["cite"] == before["cite"]
    assert after["marks"] != before["marks"]  # (the re-found marks are looked for again)
    assert triage(project, "list", listing, "-q", "diffusion") == shown
    assert parse_entry().read_bytes() == written  # read, not parsed again

    upgraded(project, "store/cite/keys.py")
    assert keys(project)["cite"] != after["cite"] and keys(project)["parse"] == before["parse"]

    engine = engine_files()
    upgraded(project, "store/search/engine/engine.py")
    assert keys(project)["parse"] == before["parse"] and keys(project)["engine"] != before["engine"]
    assert triage(project, "list", listing, "-q", "diffusion") == shown
    assert parse_entry().read_bytes() == written  # read, not parsed again
    assert engine_files() != engine  # its index built again, under the new code's key

    upgraded(project, "store/readers/seed.py")
    assert keys(project)["parse"] != before["parse"]
    assert triage(project, "list", listing, "-q", "diffusion") == shown
    assert parse_entry().read_bytes() != written  # parsed again, under the new code's key
