"""The triage store on a real TinyDB file: durable, shared between processes, recoverable."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from tinydb import TinyDB, where
from tinydb.operations import increment

from store.papers.model import fingerprint, flat, FP_HALF, normalise, Paper, paper_id, Triage
from store.marks.db import db_path, TriageStore
from store.papers.rows import ById
from store.common.errors import ReadError
from store.marks.journal import JournalStorage

ABSTRACT = (
    "We introduce Glimmer, a method for sparse attention that learns which tokens to keep. "
    "On long-document benchmarks Glimmer matches dense attention at a tenth of the memory, "
    "and it transfers to vision transformers without retraining. Code is released."
)


def paper(text: str) -> Paper:
    return Paper(id=paper_id(text), text=text)


def test_marks_survive_a_restart(tmp_path):
    path = tmp_path / "triage.json"
    store = TriageStore(path)
    store.put({"a": Triage(read=True, priority=2, note="see §3", tags=("nlp", "to-cite"))})
    store.put({"b": Triage(starred=True)})
    store.close()
    again = TriageStore(path)
    assert again.get("a") == Triage(read=True, priority=2, note="see §3", tags=("nlp", "to-cite"))
    assert again.get("b").starred
    assert again.get("never-marked") == Triage()


def test_dismissed_survives_a_restart_and_undismissing_clears_it(tmp_path):
    path = tmp_path / "triage.json"
    store = TriageStore(path)
    store.put({"a": Triage(dismissed=True), "b": Triage(read=True, dismissed=True, priority=3)})
    store.close()
    assert json.loads(path.read_text(encoding="utf-8"))["tables"]["triage"]["a"]["dismissed"] is True
    again = TriageStore(path)
    assert again.get("a") == Triage(dismissed=True) and not Triage(dismissed=True).blank
    assert again.get("b") == Triage(read=True, dismissed=True, priority=3)
    again.put({"a": Triage()})  # undismissed and no other mark: nothing left to store
    del again  # no close: the journal alone carries it
    assert TriageStore(path).ids() == ["b"]


def test_a_database_from_before_the_dismissed_mark_loads(tmp_path):
    """A snapshot and journal as the version without `dismissed` wrote them: the same schema number."""
    path = tmp_path / "triage.json"
    doc = {"read": True, "starred": False, "priority": 2, "note": "", "tags": [], "updated": 5.0, "fp": "x"}
    path.write_text(json.dumps({"schema": 1, "generation": 1, "tables": {"triage": {"a": doc}}}), encoding="utf-8")
    journal = {"g": 1, "tables": {"triage": {"put": {"b": {**doc, "starred": True}}, "del": []}}}
    path.with_name("triage.json.journal").write_text(json.dumps(journal) + "\n", encoding="utf-8")
    store = TriageStore(path)
    assert store.notices == []
    assert store.get("a") == Triage(read=True, priority=2, updated=5.0)
    assert store.get("b") == Triage(read=True, starred=True, priority=2, updated=5.0)
    store.put({"a": Triage(read=True, priority=2, dismissed=True)})
    store.close()
    snapshot = json.loads(path.read_text(encoding="utf-8"))
    assert snapshot["schema"] == 1  # still readable by the version before the mark (it ignores the field)
    assert TriageStore(path).get("a").dismissed and not TriageStore(path).get("b").dismissed


def test_unclosed_store_keeps_every_acknowledged_write(tmp_path):
    """No close (as after a crash): the journal alone carries the writes."""
    path = tmp_path / "triage.json"
    store = TriageStore(path)
    for i in range(50):
        store.put({f"p{i}": Triage(read=True, priority=i % 6)})
    del store
    again = TriageStore(path)
    assert all(again.get(f"p{i}") == Triage(read=True, priority=i % 6) for i in range(50))


def test_clearing_every_mark_removes_the_state(tmp_path):
    store = TriageStore(tmp_path / "t.json")
    store.put({"a": Triage(read=True), "b": Triage(starred=True)})
    store.put({"a": Triage()})
    assert store.ids() == ["b"]


def test_snapshot_is_readable_sorted_json_with_a_schema(tmp_path):
    path = tmp_path / "t.json"
    store = TriageStore(path)
    store.put({"a": Triage(starred=True, note="ünïcode")})
    store.close()
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["schema"] == 1
    assert data["tables"]["triage"]["a"]["note"] == "ünïcode"
    assert list(data) == sorted(data) and text.splitlines()[1].startswith(' "checksum": ')
    # A document a line, as written (not escaped): grep and diff show one paper's marks at a time.
    line = next(line for line in text.splitlines() if "ünïcode" in line)
    assert json.loads(line.split(": ", 1)[1].rstrip(",")) == data["tables"]["triage"]["a"]
    assert (tmp_path / "t.json.journal").stat().st_size == 0


def test_the_storage_serves_plain_tinydb_operations(tmp_path):
    """Inserts, in-place updates, upserts and removals all reach the journal."""
    path = tmp_path / "plain.json"
    db = TinyDB(path, storage=JournalStorage)
    db.insert_multiple([{"n": 1}, {"n": 2}, {"n": 3}])
    db.update({"seen": True}, where("n") == 2)
    db.update(increment("n"), where("n") == 3)
    db.upsert({"n": 9}, where("n") == 1)
    db.remove(where("n") == 2)
    db.table("other").insert({"x": "y"})
    expected = (sorted(map(dict, db.all()), key=str), db.table("other").all())
    del db  # not closed: the journal alone must carry it
    again = TinyDB(path, storage=JournalStorage)
    assert (sorted(map(dict, again.all()), key=str), again.table("other").all()) == expected
    assert sorted(d["n"] for d in again.all()) == [4, 9]


def test_a_torn_last_journal_line_is_ignored_and_cut_off(tmp_path):
    path = tmp_path / "t.json"
    store = TriageStore(path)
    store.put({"a": Triage(read=True)})
    with open(tmp_path / "t.json.journal", "ab") as f:
        f.write(b'{"g": 0, "tables": {"triage": {"put": {"b": {"rea')
    again = TriageStore(path)
    assert again.ids() == ["a"]
    assert again.notices == []
    again.put({"c": Triage(starred=True)})
    third = TriageStore(path)
    assert sorted(third.ids()) == ["a", "c"]


def test_small_threshold_compacts_often_and_loses_nothing(tmp_path):
    path = tmp_path / "t.json"
    store = TriageStore(path, compact_bytes=512)
    for i in range(200):
        store.put({f"p{i % 40}": Triage(priority=i % 5 + 1, note=str(i))})
    assert json.loads(path.read_text())["generation"] > 1
    again = TriageStore(path)
    assert {pid: again.get(pid).note for pid in again.ids()} == {f"p{i}": str(160 + i) for i in range(40)}


def test_journal_left_over_from_a_finished_compaction_replays_nothing(tmp_path):
    """A crash after the snapshot replace but before the journal is emptied."""
    path = tmp_path / "t.json"
    journal = tmp_path / "t.json.journal"
    store = TriageStore(path)
    store.put({"a": Triage(read=True)})
    store.put({"a": Triage()})
    stale = journal.read_bytes()
    store.close()
    journal.write_bytes(stale)
    again = TriageStore(path)
    assert again.ids() == []


def test_a_second_store_sees_the_first_ones_writes(tmp_path):
    path = tmp_path / "t.json"
    one, two = TriageStore(path, compact_bytes=256), TriageStore(path, compact_bytes=256)
    one.put({"a": Triage(read=True)})
    assert two.get("a").read
    assert two.external_changes() == {"a": Triage(read=True)}
    assert two.external_changes() == {}
    for i in range(30):  # enough for `one` to compact: `two` reloads the new snapshot
        one.put({f"p{i}": Triage(starred=True)})
    one.put({"a": Triage()})
    changed = two.external_changes()
    assert changed["a"] == Triage()
    assert set(changed) == {"a"} | {f"p{i}" for i in range(30)}
    assert one.external_changes() == {}


def test_update_is_a_locked_read_modify_write(tmp_path):
    store = TriageStore(tmp_path / "t.json")
    store.update("a", lambda t: replace(t, tags=(*t.tags, "x")))
    assert store.update("a", lambda t: replace(t, tags=(*t.tags, "y"))).tags == ("x", "y")


# --- an edited abstract keeps its marks ------------------------------------------------------


def test_update_many_is_one_journal_line_for_all_its_papers(tmp_path):
    path = tmp_path / "t.json"
    store = TriageStore(path)
    store.put({"a": Triage(read=True)})
    states = store.update_many(["a", "b", "c"], lambda state: replace(state, starred=True))
    assert states == {"a": Triage(read=True, starred=True), "b": Triage(starred=True), "c": Triage(starred=True)}
    lines = path.with_name("t.json.journal").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and sorted(json.loads(lines[1])["tables"]["triage"]["put"]) == ["a", "b", "c"]
    del store
    assert TriageStore(path).get("c") == Triage(starred=True)


KEPT_FINGERPRINTS = {"worked out": {}, "kept": {"fingerprints": lambda papers: [fingerprint(p.text) for p in papers]}}
"""How attach is told the papers' fingerprints: not (worked out from their texts), or kept (a long list's ids entry)."""


@pytest.mark.parametrize("told", KEPT_FINGERPRINTS.values(), ids=KEPT_FINGERPRINTS)
def test_an_edited_abstract_finds_its_state_again(tmp_path, told):
    path = tmp_path / "t.json"
    old = paper(ABSTRACT)
    store = TriageStore(path)
    store.attach([old])
    store.put({old.id: Triage(starred=True, note="promising")})
    edited = paper(ABSTRACT.replace("retraining", "re-training"))
    other = paper("A completely different abstract about protein folding with diffusion models.")
    again = TriageStore(path)
    states = again.attach([edited, other], **told)
    assert states == {edited.id: Triage(starred=True, note="promising")}
    assert TriageStore(path).ids() == [edited.id]


@pytest.mark.parametrize("told", KEPT_FINGERPRINTS.values(), ids=KEPT_FINGERPRINTS)
def test_refinding_works_among_many_orphans(tmp_path, told):
    """Thousands of unrelated stored states: the anchored search still finds the edited one."""
    path = tmp_path / "t.json"
    store = TriageStore(path)
    others = [paper(f"Unrelated abstract number {i} about topic {i * 7} and results {i * 13}.") for i in range(600)]
    target = paper(ABSTRACT)
    store.attach([*others, target])
    store.put({p.id: Triage(read=True) for p in others} | {target.id: Triage(priority=1)})
    edited = paper("We introduce Glimmer, " + ABSTRACT[len("We introduce Glimmer, ") :].replace("tenth", "10th"))
    fresh = [paper(f"New abstract {i} on a topic nobody stored before, {i * 3}.") for i in range(600)]
    states = TriageStore(path).attach([*fresh, edited], **told)
    assert states == {edited.id: Triage(priority=1)}


@pytest.mark.parametrize("told", KEPT_FINGERPRINTS.values(), ids=KEPT_FINGERPRINTS)
def test_a_different_abstract_does_not_steal_a_state(tmp_path, told):
    store = TriageStore(tmp_path / "t.json")
    old = paper(ABSTRACT)
    store.attach([old])
    store.put({old.id: Triage(starred=True)})
    assert store.attach([paper(ABSTRACT[:80] + " And then something else entirely, about graphs.")], **told) == {}


@pytest.mark.parametrize("told", KEPT_FINGERPRINTS.values(), ids=KEPT_FINGERPRINTS)
def test_of_two_edited_abstracts_like_one_stored_the_first_takes_its_state(tmp_path, told):
    """Kept fingerprints, compared all at once, move a state as texts compared one at a time do: to the first of
    the papers like it, never to two."""
    store = TriageStore(tmp_path / "t.json")
    old = paper(ABSTRACT)
    store.attach([old])
    store.put({old.id: Triage(starred=True)})
    edits = [paper(ABSTRACT.replace("retraining", "re-training")), paper(ABSTRACT.replace("tenth", "10th"))]
    assert TriageStore(tmp_path / "t.json").attach(edits, **told) == {edits[0].id: Triage(starred=True)}


# --- an unreadable database ------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"\x00\x01garbage\xff", b'{"schema": 1, "generation": 0, "tables": {"triage": {"a": {"read": tr', b"", b"[1, 2]"],
    ids=["garbage", "truncated", "empty", "not-ours"],
)
def test_an_unreadable_database_is_moved_aside_and_work_goes_on(tmp_path, content):
    path = tmp_path / "triage.json"
    (tmp_path / "triage.json.journal").write_bytes(b"")  # a database this store made: its journal is beside it
    path.write_bytes(content)
    store = TriageStore(path)
    aside = list(tmp_path.glob("triage.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == content
    assert len(store.notices) == 1 and aside[0].name in store.notices[0]
    assert store.ids() == []
    store.put({"a": Triage(read=True)})
    assert TriageStore(path).get("a").read


@pytest.mark.parametrize(
    "content",
    [b"\x00\x01garbage\xff", b'{"schema": 1, "generation": 0, "tables": {"triage": {"a": {"read": tr', b"", b"[1, 2]"],
    ids=["garbage", "truncated", "empty", "not-ours"],
)
def test_a_file_this_store_never_made_is_refused_untouched(tmp_path, content):
    """Nothing of a database beside it, and it does not begin as one: a paper list or any other file
    given as the database is not moved aside and rebuilt."""
    path = tmp_path / "triage.json"
    path.write_bytes(content)
    with pytest.raises(ReadError, match="is not a paper-triage database; left as it is"):
        TriageStore(path)
    assert [p.name for p in tmp_path.iterdir()] == ["triage.json"] and path.read_bytes() == content


def test_a_folder_in_place_of_the_database_is_refused_untouched(tmp_path):
    path = tmp_path / "triage.json"
    path.mkdir()
    (path / "keep.txt").write_text("mine")
    with pytest.raises(ReadError, match="is not a paper-triage database but a folder"):
        TriageStore(path)
    assert [p.name for p in tmp_path.iterdir()] == ["triage.json"] and (path / "keep.txt").read_text() == "mine"


def test_a_database_from_a_newer_schema_is_refused_untouched(tmp_path):
    path = tmp_path / "triage.json"
    content = b'{"schema": 99, "tables": {}}'
    path.write_bytes(content)
    with pytest.raises(ReadError, match="newer"):
        TriageStore(path)
    assert path.read_bytes() == content
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_a_damaged_journal_line_is_skipped_and_kept(tmp_path):
    path = tmp_path / "t.json"
    store = TriageStore(path)
    store.put({"a": Triage(read=True)})
    del store
    good = {"g": 0, "tables": {"triage": {"put": {"b": {"read": True}}, "del": []}}}
    with open(tmp_path / "t.json.journal", "ab") as f:
        f.write(b"this line is damaged\n" + json.dumps(good).encode() + b"\n")
    again = TriageStore(path)
    assert sorted(again.ids()) == ["a", "b"]
    assert "1 damaged line" in again.notices[0]
    (copy,) = tmp_path.glob("t.json.journal.corrupt-*")
    assert b"this line is damaged" in copy.read_bytes()


# --- the database path ------------------------------------------------------------------------


def test_db_path_prefers_the_option_then_the_environment(tmp_path, monkeypatch):
    assert db_path(tmp_path / "x.json") == tmp_path / "x.json"
    assert db_path() == Path(os.environ["TRIAGE_DB"])
    monkeypatch.delenv("TRIAGE_DB")
    assert db_path().name == "triage.json" and "paper-triage" in str(db_path())


# --- crashes and concurrency ------------------------------------------------------------------


def _writer(path: Path, start: int, ack: int) -> None:
    """Child of the fault-injection test: writes forever, acknowledging each write on a pipe."""
    store = TriageStore(path, compact_bytes=2048)
    i = start
    while True:
        store.put({f"k{i}": Triage(read=True, priority=i % 5 + 1, note=f"note {i}")})
        os.write(ack, f"{i}\n".encode())
        i += 1
        if i % 7 == 0:  # closing compacts; reopening loads: both happen under fire too
            store.close()
            store = TriageStore(path, compact_bytes=2048)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_at_random_moments_never_loses_an_acknowledged_write(tmp_path):
    import random
    import select
    import signal
    import time

    path = tmp_path / "triage.json"
    rng = random.Random(20240505)
    acked: set[int] = set()
    start = 0
    for _trial in range(200):
        r, w = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child is killed
            os.close(r)
            try:
                _writer(path, start, w)
            finally:
                os._exit(1)
        os.close(w)
        buf = b""
        want = rng.randint(0, 6)
        while buf.count(b"\n") < want and select.select([r], [], [], 30)[0]:
            chunk = os.read(r, 4096)
            if not chunk:
                break
            buf += chunk
        time.sleep(rng.uniform(0, 0.004))  # the random moment of the kill
        os.kill(child, signal.SIGKILL)
        _, status = os.waitpid(child, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, "the writer died by itself"
        while chunk := os.read(r, 4096):
            buf += chunk
        os.close(r)
        done = [int(x) for x in buf.split(b"\n")[:-1]]
        acked.update(done)
        start = max(acked, default=-1) + 1 if done else start + 1000
        store = TriageStore(path)
        assert store.notices == []
        for i in done:
            assert store.get(f"k{i}") == Triage(read=True, priority=i % 5 + 1, note=f"note {i}")
    assert len(acked) > 300  # the writers did write: most trials acknowledged several writes
    final = TriageStore(path)
    assert {f"k{i}" for i in acked} <= set(final.ids())
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_two_processes_share_one_database(tmp_path):
    path = tmp_path / "triage.json"
    script = textwrap.dedent(
        """
        import sys
        from dataclasses import replace
        from store.marks.db import TriageStore
        from store.papers.model import Triage
        name, path = sys.argv[1], sys.argv[2]
        store = TriageStore(path, compact_bytes=4096)
        for i in range(300):
            store.put({f"{name}{i}": Triage(read=True, priority=i % 5 + 1)})
            store.update("shared", lambda t: replace(t, tags=(*t.tags, f"{name}{i}")))
        """
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, n, str(path)]) for n in ("a", "b")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    store = TriageStore(path)
    expected = {f"{n}{i}" for n in "ab" for i in range(300)}
    assert expected <= set(store.ids())
    assert all(store.get(pid) == Triage(read=True, priority=int(pid[1:]) % 5 + 1) for pid in expected)
    assert set(store.get("shared").tags) == expected


_SPACED = st.lists(st.sampled_from(["graph", "Neural", " ", "  ", "\n", "\t ", "\u00a0", "\u2003", "ß", "İ", "Σς", "K", "𝒪", "é."]),
                   min_size=100, max_size=1200).map("".join)


# Lines wrapped at a width as arXiv's abstracts are, now and then another spacing: flat's quick way and its slow one.
_WRAPPED = st.lists(st.lists(st.sampled_from(["graph", "Neural", "é.", "a", "𝒪", " ", "  ", "\u2003", "\t", "\x1c"]),
                             min_size=1, max_size=12).map("".join), max_size=30).map("\n".join)


@given(st.one_of(_SPACED, _WRAPPED))
@settings(max_examples=500, deadline=None)
def test_a_texts_words_are_made_one_space_apart_as_splitting_makes_them(text):
    """A text's id, fingerprint and searched words are of its words one space apart: `flat` makes a wrapped text
    so by a replace of its newlines, and that must be what splitting it into words and joining them gives."""
    assert flat(text) == " ".join(text.split())
    assert normalise(text) == " ".join(text.split()).casefold()


@given(_SPACED)
@settings(max_examples=300, deadline=None)
def test_a_long_texts_fingerprint_is_its_normalised_whole_s_ends(text):
    """What the store keeps to find a mark again after an edit: of a long text, only its ends are normalised
    (no copy of the whole), and the fingerprint is the very one of its whole normalised."""
    flat = normalise(text)
    expected = flat if len(flat) <= 2 * FP_HALF else flat[:FP_HALF] + "…" + flat[-FP_HALF:]
    assert fingerprint(text) == expected


def test_a_mark_keeps_the_record_of_the_paper_in_the_list_attached_last(tmp_path):
    """One paper in two lists attached one after another (as the app attaches a list it opens): a mark keeps the
    record of the later list's paper; a list attached again under its files answers for its papers again."""
    bare, full = paper(ABSTRACT), replace(paper(ABSTRACT), title="Glimmer", authors=("Ada Lovelace",), venue="ICLR 2024")
    other = paper(ABSTRACT.replace("Glimmer", "Shimmer"))
    store = TriageStore(tmp_path / "triage.json")
    store.attach([other, full], source=("iclr.jsonl",))
    store.attach([bare], source=("abstracts.txt",))
    store.attach(ById([full, other], [full.id, other.id]).indexed(), source=("iclr.jsonl",))  # (opened again, as the app)
    store.put({bare.id: Triage(starred=True)})
    assert store.records()[bare.id].get("authors") == ["Ada Lovelace"]
    poorer = TriageStore(tmp_path / "poorer.json")
    poorer.attach([full, other], source=("iclr.jsonl",))
    poorer.attach([bare], source=("abstracts.txt",))
    poorer.put({bare.id: Triage(starred=True)})
    assert "authors" not in poorer.records()[bare.id]
