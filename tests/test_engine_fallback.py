"""A list searches whatever its cache folder allows (store.readers.engine_cache.engine_for): where the engine's
folder cannot be written (a full disk, a read-only disk, a file-size limit, a folder under a file, a folder the user
may not write) the engine is built in memory, the header's one line says so, every query answers as a folder's
engine does, and nothing of the build that failed is left; a damaged folder is built again and the line says that.

The full and read-only disks are real: a 64 KB tmpfs, a read-only bind mount, each in a mount namespace of its own
(`unshare`, as root; skipped where that is not allowed), the limit a real RLIMIT_FSIZE, each in a process of its own.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from store.readers import read_path
from store.readers.engine_cache import engine_for
from store.search.engine import Engine
from tests.conftest import ROOT, SEED, damaged

QUERIES = ["graph", "Graph", "difusion recovry", '"neural network"', "self-supervised", "title:learning", "-graph",
           "is:unread", "author:le"]

OPENED = """
import json, os, resource, sys
from pathlib import Path
from store.readers import read_path
from store.readers.engine_cache import engine_for
collection = read_path(Path(sys.argv[1]))
if sys.argv[3] == "limit":
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
os.environ["TRIAGE_CACHE"] = sys.argv[2]
opened = engine_for(collection)
print(json.dumps({"built": opened.built, "note": opened.note, "in memory": opened.engine.folder is None,
                  "answers": [opened.engine.search(query).ids for query in json.loads(sys.argv[4])],
                  "left": os.listdir(sys.argv[2])}))
"""
"""Opens the seed's engine with its cache in a folder (argv 2), under a file-size limit or not (argv 3); prints what
it gave, its answers to the queries (argv 4) and what the cache folder holds."""

MOUNTS = {
    "full": 'mount -t tmpfs -o size=64k tmpfs "$1"',
    "read-only": 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"',
}


@pytest.fixture(scope="module")
def seed():
    return read_path(SEED)


@pytest.fixture(scope="module")
def answers(seed, tmp_path_factory):
    """The answers of the seed's engine in a folder of a cache that can be written."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRIAGE_CACHE", str(tmp_path_factory.mktemp("cache")))
        opened = engine_for(seed)
    assert opened.built and opened.note is None and opened.engine.folder is not None
    return [opened.engine.search(query).ids for query in QUERIES]


def opened_elsewhere(cache, tmp_path, how: str) -> dict:
    """What OPENED prints with its cache in `cache`: on a disk mounted there `how` (MOUNTS), or under a limit."""
    command = [sys.executable, "-c", OPENED, str(SEED), str(cache), how, json.dumps(QUERIES)]
    if how in MOUNTS:
        mounted = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", MOUNTS[how], "sh", str(cache)],
                                 capture_output=True)
        if mounted.returncode:
            pytest.skip(f"no {how} disk here: {mounted.stderr.decode().strip()}")
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", f'{MOUNTS[how]} && shift && exec "$@"', "sh",
                   str(cache), *command]
    env = {**os.environ, "TRIAGE_CACHE": str(tmp_path / "parse")}  # (the list's parse is cached apart)
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("how, said", [("full", "disk full"), ("read-only", "read-only disk"), ("limit", "file too large")])
def test_a_cache_that_cannot_be_written_still_searches_in_memory(answers, tmp_path, how, said):
    cache = tmp_path / "cache"
    cache.mkdir()
    got = opened_elsewhere(cache, tmp_path, how)
    assert got["note"] == f"search index not kept: {said} ({cache})"
    assert got["built"] and got["in memory"]
    assert got["answers"] == answers
    assert got["left"] == []  # (nothing of the build that failed)


def test_a_cache_under_a_file_still_searches_in_memory(seed, answers, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("TRIAGE_CACHE", str(tmp_path / "file" / "cache"))
    engine, built, note = engine_for(seed)
    assert note == f"search index not kept: not a directory ({tmp_path / 'file' / 'cache'})"
    assert built and engine.folder is None
    assert [engine.search(query).ids for query in QUERIES] == answers


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in any folder")
def test_a_cache_folder_one_may_not_write_still_searches_in_memory(seed, answers, tmp_path, monkeypatch):
    monkeypatch.setenv("TRIAGE_CACHE", str(tmp_path))
    tmp_path.chmod(0o500)
    try:
        engine, built, note = engine_for(seed)
    finally:
        tmp_path.chmod(0o700)
    assert note == f"search index not kept: permission denied ({tmp_path})"
    assert [engine.search(query).ids for query in QUERIES] == answers


def test_a_damaged_folder_is_rebuilt_and_said(seed, answers, tmp_path, monkeypatch):
    monkeypatch.setenv("TRIAGE_CACHE", str(tmp_path))
    folder = engine_for(seed).engine.folder
    words = folder / "words.txt"
    damaged(words, words.read_bytes()[:100])
    engine, built, note = engine_for(seed)
    assert (built, note) == (True, "search index rebuilt (damaged)") and engine.papers is seed.papers
    assert [engine.search(query).ids for query in QUERIES] == answers
    assert engine_for(seed)[1:] == (False, None)


def test_an_engine_in_memory_is_of_the_list_it_was_built_for(seed, answers):
    engine = Engine.of(seed.papers)
    assert engine.papers is seed.papers and engine.folder is None
    assert [engine.search(query).ids for query in QUERIES] == answers
    hits = engine.search("learning")
    paper = hits[-1].paper
    assert hits.of(paper).paper is paper and hits.of(paper).title_spans == hits[-1].title_spans
    assert engine.search("graph").of(engine.search("-graph")[0].paper) is None
