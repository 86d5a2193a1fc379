"""The features For you and more like this rank by, kept in the cache beside a long list's index: loaded again,
they give exactly the order and the similar papers freshly built ones give; a changed list, or a damaged entry,
means they are built again (never a crash, never a stale or wrong ranking)."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from store.interest import features_cache, ranking
from store.interest.features_cache import features
from store.interest.ranking import Features, InterestModel
from store.papers.model import Triage
from store.readers import cache, read_path
from tests.conftest import SEED
from tests.test_cli_rank import rows, triage
from tests.waits import until
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList


def entries() -> list[Path]:
    return sorted(Path(os.environ["TRIAGE_CACHE"]).glob("*" + cache.FEATURES_SUFFIX))


@pytest.fixture
def no_build(monkeypatch):
    """Makes building features fail: what is ranked then came from the cache."""
    def fail(*args, **kwargs):
        pytest.fail("the features were built again")
    return lambda: monkeypatch.setattr(ranking, "built", fail)


@pytest.fixture
def long_list(tmp_path, monkeypatch) -> Path:
    """A copy of the seed that counts as a long list."""
    monkeypatch.setattr(features_cache, "FEATURES_FROM", 1)
    path = tmp_path / "list.txt"
    path.write_text(SEED.read_text(encoding="utf-8"), encoding="utf-8")
    return path


def cached(path: Path) -> Features:
    """The features of the list at `path` as the commands get them (loaded, else built and kept)."""
    collection = read_path(path)
    made, _ = features(collection)
    cache.settle()  # (an entry is written by a thread)
    return made


def marks(ids: list[str]) -> list[dict[str, Triage]]:
    """Sets of marks a reader could have made: one star, two stars with a dismissed and a read paper, a priority."""
    return [{ids[3]: Triage(starred=True)},
            {ids[1]: Triage(starred=True), ids[8]: Triage(starred=True), ids[2]: Triage(read=True),
             ids[5]: Triage(read=True, priority=4)},
            {ids[0]: Triage(priority=1), ids[9]: Triage(starred=True), ids[4]: Triage(read=True)}]


def shown(made: Features) -> list:
    """What a reader sees of `made`: the For-you order, buckets and reasons of each set of marks, and the papers
    most like a few."""
    seen = []
    for states in marks(made.ids):
        ranked = InterestModel(made).rank(states)
        seen.append((ranked.order, [ranked.bucket(pid) for pid in ranked.order[:20]], ranked.why(ranked.order[0])))
    return seen + [made.similar(pid, 10) for pid in made.ids[:: max(1, len(made) // 7)]]


def test_the_iclr_list_ranks_the_same_from_cached_features(corpora, no_build):
    """On the real ICLR list (2,260 papers: kept, as any list of `FEATURES_FROM` papers or more)."""
    path = corpora / "iclr-2024-papers.jsonl"
    collection = read_path(path)
    fresh = Features(collection.papers)
    assert entries() == []
    first = cached(path)
    [entry] = entries()
    no_build()
    again = cached(path)
    assert shown(again) == shown(first) == shown(fresh)
    assert again.terms == fresh.terms and (again.x != fresh.x).nnz == 0 and np.array_equal(again.z, fresh.z)


def test_a_short_list_keeps_no_features(tmp_path):
    path = tmp_path / "short.txt"
    path.write_text(SEED.read_text(encoding="utf-8"), encoding="utf-8")
    assert len(cached(path)) == len(read_path(path).papers) < features_cache.FEATURES_FROM
    assert entries() == []


def test_a_changed_list_gets_features_of_its_own(long_list, no_build):
    before = cached(long_list)
    long_list.write_text(re.sub(r"\bgraph", "grape", long_list.read_text(encoding="utf-8"), flags=re.I), encoding="utf-8")
    after = cached(long_list)
    assert "grape" in after.terms and "grape" not in before.terms
    fresh = Features(read_path(long_list).papers)
    assert shown(after) == shown(fresh)
    no_build()  # (those of the changed list were kept)
    assert shown(cached(long_list)) == shown(fresh)


def header(entry: bytes) -> tuple[dict, int]:
    """The header of the features entry `entry` and where its arrays begin."""
    magic, length, _ = features_cache._HEAD.unpack_from(entry)
    return json.loads(entry[features_cache._HEAD.size : features_cache._HEAD.size + length]), \
        features_cache._aligned(features_cache._HEAD.size + length)


def reheaded(entry: bytes, change) -> bytes:
    """`entry` with the header `change` makes of its own (with the CRC it then has), its arrays as they were."""
    about, start = header(entry)
    change(about)
    text = json.dumps(about).encode()
    head = features_cache._HEAD.pack(features_cache.MAGIC, len(text), zlib.crc32(text)) + text
    return head + bytes(features_cache._aligned(len(head)) - len(head)) + entry[start:]


def damaged(entry: Path) -> list[bytes]:
    """Ways the good features `entry` can be broken: gone, foreign, cut short, a byte changed in an array or in the
    header, another key, arrays that do not fit together or hold what no features hold (written whole, with the CRCs
    they have), a pickle, or a header asking for more than is there."""
    good = entry.read_bytes()
    about, start = header(good)
    stored = {name: np.array(values) for name, (values, _) in features_cache._mapped(entry, about["key"]).items()}
    # (copies: the views of the file mapped must not outlive its rewriting in place below)
    n, terms = len(stored["z"]), stored["axes"].shape[1]
    changes = [{"key": about["key"][:-1]}, {"indices": stored["indices"] + terms - stored["indices"].max()},
               {"indices": stored["indices"].astype(np.int64)},
               {"indptr": stored["indptr"][:-1]}, {"indptr": stored["indptr"][::-1].copy()},
               {"data": np.full_like(stored["data"], np.nan)}, {"z": stored["z"][1:]}, {"length": -stored["length"]},
               {"axes": stored["axes"][:, 1:]}, {"idf": stored["idf"][1:]}, {"idf": np.zeros_like(stored["idf"])},
               {"terms": stored["terms"][: stored["terms"].tobytes().rindex(b"\n")]},
               {"terms": np.frombuffer(b"\xff\xfe" * 4, np.uint8)}, {"z": stored["z"].astype(np.float64)},
               {"axes": np.zeros((0, terms), np.float32)}]
    assert n > 1
    wrong = []
    for change in changes:
        with entry.open("wb") as out:
            features_cache.write(out, change.pop("key", about["key"]), {**stored, **change})
        wrong.append(entry.read_bytes())

    def flipped(at: int) -> bytes:
        return good[:at] + bytes([good[at] ^ 1]) + good[at + 1:]

    arrays = about["arrays"]
    last = start + arrays["z"]["at"] + stored["z"].nbytes - 1
    huge = reheaded(good, lambda about: about["arrays"]["z"].update(shape=[1 << 38, 64]))
    pickled = reheaded(good, lambda about: about["arrays"]["data"].update(type="|O"))
    moved = reheaded(good, lambda about: about["arrays"]["data"].update({"at": 8}))
    return [b"", b"not features at all", good[: len(good) // 2], good[:-1], good[:-9] + b"\xff" * 9,
            flipped(start + arrays["indices"]["at"] + 5), flipped(start + arrays["data"]["at"] + stored["data"].nbytes // 2),
            flipped(last), flipped(features_cache._HEAD.size + 3), huge, pickled, moved, *wrong]


def test_a_damaged_entry_is_never_believed_and_is_built_again(long_list, no_build):
    fresh = shown(cached(long_list))
    [entry] = entries()
    for k, damage in enumerate(damaged(entry)):
        entry.write_bytes(damage)
        assert shown(cached(long_list)) == fresh
        assert entry.read_bytes() != damage, k  # built again and kept again
    no_build()  # the last one built was kept
    assert shown(cached(long_list)) == fresh


def test_an_unwritable_cache_folder_only_costs_time(long_list, tmp_path, monkeypatch):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("TRIAGE_CACHE", str(blocked / "cache"))
    assert shown(cached(long_list)) == shown(cached(long_list)) == shown(Features(read_path(long_list).papers))


def test_papers_of_other_lists_learnt_from_are_projected_into_the_kept_features(long_list, tmp_path, no_build):
    """The library's papers of other lists are learnt from beside the list's, put in the list's own space: whichever
    they are, the list's features come from the one entry (a star in another list never builds them again), and a
    paper of another list is where it would be as one of the list's (the same tf-idf and latent rows)."""
    other = tmp_path / "other.txt"
    other.write_text("A reinforcement learning agent learns a policy from pixels.\n\n"
                     "Offline reinforcement learning with conservative value estimates.\n", encoding="utf-8")
    outside = read_path(other).papers
    collection = read_path(long_list)
    copy = dataclasses.replace(collection.papers[7], id="a-copy-in-another-list")
    learnt = (outside, outside[:1], [], [*outside, copy])
    fresh = [Features(collection.papers, outside=papers) for papers in learnt]
    made, _ = features(collection, outside)
    cache.settle()
    [entry] = entries()
    kept = entry.stat().st_ino
    assert made.ids == fresh[0].ids and made.own == fresh[0].own and shown(made) == shown(fresh[0])
    no_build()
    for papers, expected in zip(learnt, fresh):
        again, built_now = features(read_path(long_list), papers)
        cache.settle()
        assert not built_now and entries() == [entry] and entry.stat().st_ino == kept
        assert again.ids == expected.ids and shown(again) == shown(expected)
    last = len(again) - 1
    assert (again.x[last] != again.x[7]).nnz == 0 and np.array_equal(again.z[last], again.z[7])
    assert again.length[last] == again.length[7] and again.similar(copy.id, 1) == [collection.papers[7].id]


def test_the_commands_rank_the_iclr_list_the_same_with_its_features_cached(corpora, tmp_path):
    """`triage list --sort interest`, `triage similar` and `--sort suggested`, run in turn as a user runs them, with a
    paper of another list starred (For you learns from it, as the app's): the first run builds the features and
    keeps them, every later one loads that very entry (never rewritten), and each prints the same again; and so after
    another star in the other list, which For you learns from (its order changes) and more like this has no say in.
    Loaded so, For you imports no scikit-learn."""
    path = str(corpora / "iclr-2024-papers.jsonl")
    db = tmp_path / "triage.json"
    other = tmp_path / "other.txt"
    other.write_text("A reinforcement learning agent learns a policy from pixels.\n\n"
                     "Graph neural networks pass messages between the atoms of a molecule to predict its properties.\n",
                     encoding="utf-8")
    starred, later = read_path(other).papers
    assert triage("set", starred.id, "--star", str(other), db=db).returncode == 0
    ids = [row["id"] for row in rows(triage("list", path, "--format", "jsonl", db=db))]
    for pid in (ids[10], ids[500]):
        assert triage("set", pid, "--star", path, db=db).returncode == 0
    assert triage("set", ids[20], "--read", path, db=db).returncode == 0
    commands = [("list", path, "--sort", "interest", "--format", "jsonl"), ("similar", ids[10], path, "--format", "jsonl"),
                ("list", path, "--sort", "suggested", "--format", "jsonl")]
    first = [rows(triage(*command, db=db)) for command in commands[:1]]
    [entry] = entries()
    kept = entry.stat().st_ino
    for command in [*commands[1:], *commands[:2]]:
        first.append(rows(triage(*command, db=db)))
        assert entries() == [entry] and entry.stat().st_ino == kept, f"triage {command[0]} built the features again"
    assert first[3:] == first[:2]
    assert [row["id"] for row in first[1]][:1] != [ids[10]] and len(first[0]) == len(ids)
    assert triage("set", later.id, "--star", str(other), db=db).returncode == 0
    after = [rows(triage(*command, db=db)) for command in commands[:2]]
    assert entries() == [entry] and entry.stat().st_ino == kept, "a star in another list built the features again"
    order = [[row["id"] for row in listed] for listed in (first[0], after[0])]
    assert order[1] != order[0] and sorted(order[1]) == sorted(ids) and after[1] == first[1]
    # For you with stars, a read paper and a star elsewhere trains its SVM without importing scikit-learn (~0.55 s)
    code = ("import sys; from tui.cli import main\n"
            f"assert main(['list', {path!r}, '--sort', 'interest', '--db', {str(db)!r}]) == 0\n"
            "print(sorted(m for m in ('sklearn', 'store.interest.svm') if m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "['store.interest.svm']"


async def test_the_app_ranks_the_same_with_its_features_cached(long_list, tmp_path, no_build):
    """For you in the app after three marks: the first open builds the features and keeps them, the next loads them."""
    orders = []
    for run in range(2):
        if run:
            cache.settle()
            no_build()
        app = TriageApp(read_path(long_list), str(tmp_path / f"db-{run}.json"))
        async with app.run_test(size=(120, 40)) as pilot:
            ids = [paper.id for paper in app.collection.papers]
            app.change({ids[1]: Triage(starred=True), ids[8]: Triage(starred=True), ids[2]: Triage(read=True)})
            app.sort = "interest"
            await until(pilot, lambda: app._ranking is not None)
            orders.append([paper.id for paper in app.query_one(PaperList).papers])
    assert len(entries()) == 1 and orders[0] == orders[1]
