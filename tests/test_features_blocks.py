"""A long list's features are built a block of papers at a time (store.interest.vectors' `built`), what the blocks
make put aside on disk (store.interest.spool): the vectors are those made in one block, to the bit; a cache folder on
a full disk keeps them in memory and gives the same; a reopened list keeps none of its papers made for them."""
from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

from store.interest import counts
from store.interest.features_cache import features
from store.interest.vectors import Vectors, built
from store.readers import read_path
from tests.conftest import CORPORA, ROOT
from tests.test_engine_fallback import MOUNTS


def same(a: Vectors, b: Vectors) -> bool:
    """Whether `a` and `b` are the same vectors, every array to the bit."""
    arrays = lambda v: [v.x.data, v.x.indices, v.x.indptr, v.idf, v.axes, v.length, v.z]  # noqa: E731
    return a.terms == b.terms and a.x.shape == b.x.shape and all(
        x.dtype == y.dtype and x.shape == y.shape and np.asarray(x).tobytes() == np.asarray(y).tobytes()
        for x, y in zip(arrays(a), arrays(b)))


ICLR = CORPORA / "iclr-2024-papers.jsonl"
pytestmark = pytest.mark.skipif(not ICLR.exists(), reason="../shared/corpora is not beside this checkout")


@pytest.fixture(scope="module")
def iclr():
    """The ICLR 2024 list (2,260 papers, with titles and authors)."""
    return read_path(ICLR).papers


def test_vectors_built_in_blocks_are_those_built_in_one(iclr, monkeypatch):
    whole = built(iclr)
    monkeypatch.setattr(counts, "BLOCK", 1024)  # (three blocks, put aside on disk)
    blocks = built(iclr)
    assert whole.x.shape == (2260, len(whole.terms)) and whole.x.nnz > 100_000
    assert same(blocks, whole)


BUILT = """
import os, pickle, sys
from store.interest import counts
from store.interest.vectors import built
from store.readers import read_path
papers = read_path(sys.argv[1]).papers
counts.BLOCK = 1024
os.environ["TRIAGE_CACHE"] = sys.argv[2]
made = built(papers)
sys.stdout.buffer.write(pickle.dumps([made.terms, *(made.x.data, made.x.indices, made.x.indptr, made.idf, made.axes,
                                                   made.length, made.z)]))
"""


def test_a_cache_folder_on_a_full_disk_builds_them_in_memory_alike(iclr, tmp_path):
    """The blocks put aside fill a 64 KB disk at once: what is written is taken into memory, and the rest goes there."""
    cache = tmp_path / "cache"
    cache.mkdir()
    command = [sys.executable, "-c", BUILT, str(ICLR), str(cache)]
    mounted = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", MOUNTS["full"], "sh", str(cache)],
                             capture_output=True)
    if mounted.returncode:
        pytest.skip(f"no full disk here: {mounted.stderr.decode().strip()}")
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           f'{MOUNTS["full"]} && shift && exec "$@"', "sh", str(cache), *command],
                          capture_output=True, cwd=ROOT, timeout=300, env={"TRIAGE_CACHE": str(tmp_path / "parse"),
                                                                          "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr.decode()
    terms, *arrays = pickle.loads(done.stdout)
    whole = built(iclr)
    assert terms == whole.terms
    assert [np.asarray(a).tobytes() for a in arrays] == [np.asarray(a).tobytes() for a in (
        whole.x.data, whole.x.indices, whole.x.indptr, whole.idf, whole.axes, whole.length, whole.z)]


def test_a_reopened_lists_features_keep_none_of_its_papers_made(tmp_path, monkeypatch):
    """Its papers are read a chunk at a time for the counts, and let go (a 2,700,000-paper list's made are GBs)."""
    monkeypatch.setattr(counts, "BLOCK", 1024)
    listing = tmp_path / "list.jsonl"
    listing.write_text(ICLR.read_text(encoding="utf-8"), encoding="utf-8")
    parsed = read_path(listing)
    reopened = read_path(listing)
    made, fresh = features(reopened)
    assert fresh and not any(reopened.papers._made)
    assert same(made.vectors, features(parsed)[0].vectors)
    assert made.similar(reopened.papers.ids[7], 5) == features(parsed)[0].similar(parsed.papers[7].id, 5)
