"""A long list's cold parse is written to its cache entries as it is made and keeps none of its papers
(store.readers.cache's stream, store.readers.entry_writer): what it gives is what a parse in memory gives, field by
field, read from its entry; repeats across chunks are judged as in memory; a repeat that would add to a paper already
written, a full disk, a parse that fails midway: the list is read in memory (or not at all), and no entry is left
half-written."""
from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from store.common.errors import ReadError
from store.papers.model import paper_id
from store.papers.chunked import SIZE, Chunked
from store.readers import cache, entry_writer, read_path
from tests.conftest import ROOT
from tests.test_engine_fallback import MOUNTS
from tests.test_id_clash import FIRST, SECOND

WORDS = ("graph neural network language model diffusion policy reward agent vision transformer attention sparse "
         "kernel bound theorem sample robust federated privacy causal inference token memory retrieval").split()


def records(count: int, seed: int = 7) -> list[dict]:
    """`count` arXiv-like records, each abstract of its own."""
    pick = random.Random(seed)
    return [{"id": f"2401.{n:05d}", "title": " ".join(pick.choices(WORDS, k=6)).capitalize(),
             "authors": f"A. Author{pick.randrange(50)}, B. Writer{n}", "categories": pick.choice(["cs.LG", "cs.CL", "stat.ML"]),
             "abstract": f"We study {' '.join(pick.choices(WORDS, k=40))} in setting {n}. Results improve."}
            for n in range(count)]


def written(path: Path, found: list[dict]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in found), encoding="utf-8")
    return path


def fields(papers) -> list[tuple]:
    return [dataclasses.astuple(paper) for paper in papers]


def in_memory(path: Path, monkeypatch) -> list:
    """The papers a parse in memory gives (no stream), read beside any cache."""
    with monkeypatch.context() as patch:
        patch.setattr(cache, "STREAM_FROM", 10**9)
        patch.setenv("TRIAGE_CACHE", str(path.parent / "memory-cache"))
        papers = read_path(path).papers
        cache.settle()
        return list(papers)


@pytest.fixture
def streamed(monkeypatch):
    """Lists of two chunks and more are streamed."""
    monkeypatch.setattr(cache, "STREAM_FROM", SIZE)


@pytest.mark.parametrize("most", [entry_writer.DISTINCT_MOST, 2])
def test_a_long_parse_is_its_entry_and_what_a_parse_in_memory_gives(tmp_path, monkeypatch, streamed, most):
    """Its fields as kept: a DOI only from the second chunk on (one value for the first chunk's papers, then more),
    categories of three values (kept once each, or, past `most`, a value a paper), authors of a paper each."""
    found = records(2 * SIZE + 123)
    for n, record in enumerate(found[SIZE + 7 :]):
        record["doi"] = f"10.5555/{n}"
    path = written(tmp_path / "long.jsonl", found)
    expected = in_memory(path, monkeypatch)
    monkeypatch.setattr(entry_writer, "DISTINCT_MOST", most)
    collection = read_path(path)
    assert type(collection.papers) is Chunked and not any(collection.papers._made)  # (no paper kept of the parse)
    assert fields(collection.papers) == fields(expected) and len(expected) == 2 * SIZE + 123
    assert collection.origin is not None and collection.origin.of(collection.papers)
    again = read_path(path)
    assert fields(again.papers) == fields(expected)
    head = cache.head(str(path)).papers
    assert 0 < len(head) < SIZE and fields(head) == fields(expected[: len(head)])


def test_repeats_across_chunks_are_judged_as_in_memory(tmp_path, monkeypatch, streamed):
    """A repeat of a paper written chunks before is no paper; one with a key of its own is another record."""
    found = records(2 * SIZE + 10)
    found.append(dict(found[5]))  # the very record again
    found.append({**found[7], "id": "2402.99999", "doi": "10.1/x", "title": found[7]["title"]})
    path = written(tmp_path / "repeats.jsonl", found)
    expected = in_memory(path, monkeypatch)
    collection = read_path(path)
    assert type(collection.papers) is Chunked
    assert fields(collection.papers) == fields(expected)


def test_two_abstracts_of_one_id_across_chunks_are_two_papers_as_in_memory(tmp_path, monkeypatch, streamed):
    """The first written chunks before the second comes (its id is another text's: another id), then the second's
    very record again (a repeat: no paper)."""
    found = records(2 * SIZE + 10)
    found[3]["abstract"], found[SIZE + 9]["abstract"] = FIRST, SECOND
    found.append(dict(found[SIZE + 9]))
    path = written(tmp_path / "clash.jsonl", found)
    expected = in_memory(path, monkeypatch)
    collection = read_path(path)
    assert type(collection.papers) is Chunked and len(expected) == 2 * SIZE + 10
    assert fields(collection.papers) == fields(expected)
    assert collection.papers[3].text == FIRST and collection.papers[SIZE + 9].text == SECOND
    assert collection.papers[3].id == paper_id(SECOND) != collection.papers[SIZE + 9].id


def test_a_repeat_adding_to_a_paper_written_reads_the_list_in_memory(tmp_path, monkeypatch, streamed):
    """A bare abstract first, then the same abstract with its title and authors chunks later: the first gains them,
    as in memory, the list read in memory for it; its entry is written whole after, and read as it was given."""
    found = records(2 * SIZE + 10)
    found[3] = {"abstract": found[3]["abstract"]}
    found.append({"abstract": found[3]["abstract"], "title": "The richer record", "authors": "C. Third", "key": "third24"})
    path = written(tmp_path / "richer.jsonl", found)
    expected = in_memory(path, monkeypatch)
    assert expected[3].title == "The richer record"
    collection = read_path(path)
    assert type(collection.papers) is list and fields(collection.papers) == fields(expected)
    cache.settle()
    assert not [name for name in (tmp_path / "cache").iterdir() if name.suffix == ".tmp"]
    assert fields(read_path(path).papers) == fields(expected)


def test_a_parse_that_fails_midway_leaves_no_entry(tmp_path, monkeypatch, streamed):
    """A file that is not a list after its first chunks (binary from there): the error names it; nothing is kept."""
    path = written(tmp_path / "broken.jsonl", records(2 * SIZE))
    with path.open("ab") as out:
        out.write(b"\xff\xfe\x00garbage" * 10)
    with pytest.raises(ReadError):
        read_path(path)
    assert not list((tmp_path / "cache").glob("*")) or not [p for p in (tmp_path / "cache").iterdir()
                                                            if p.suffix in (".parse", ".texts", ".tmp") or ".tmp" in p.name]


STREAMED = """
import dataclasses, json, os, sys
import store.readers
from store.readers import cache, read_path
cache.STREAM_FROM = 4096
parse, parses = store.readers._parse, []
store.readers._parse = lambda *args: (parses.append(1), parse(*args))[1]
papers = read_path(sys.argv[1]).papers
cache.settle()
print(json.dumps([type(papers).__name__, len(parses), [list(map(str, dataclasses.astuple(p))) for p in papers],
                  os.listdir(sys.argv[2])]))
"""


@pytest.mark.parametrize("disk, parses", [("full", 2), ("read-only", 1)])
def test_a_cache_that_cannot_be_written_reads_the_list_in_memory(tmp_path, monkeypatch, disk, parses):
    """The cache folder a 64 KB disk: the stream fills it in its first chunk, and the list is read again in memory; a
    read-only one: the list is read in memory at once (nothing was taken). The same papers, no temporary file left."""
    path = written(tmp_path / "full.jsonl", records(2 * SIZE + 5))
    expected = [list(map(str, paper)) for paper in fields(in_memory(path, monkeypatch))]
    folder = tmp_path / "cache"
    folder.mkdir()
    mounted = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", MOUNTS[disk], "sh", str(folder)],
                             capture_output=True)
    if mounted.returncode:
        pytest.skip(f"no {disk} disk here: {mounted.stderr.decode().strip()}")
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           f'{MOUNTS[disk]} && shift && exec "$@"', "sh", str(folder),
                           sys.executable, "-c", STREAMED, str(path), str(folder)],
                          capture_output=True, cwd=ROOT, timeout=300, env={"TRIAGE_CACHE": str(folder), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr.decode()
    kind, parsed, papers, left = json.loads(done.stdout)
    assert (kind, parsed) == ("list", parses) and papers == expected
    assert not [name for name in left if name.endswith(".tmp")]


def test_repeats_judged_a_few_papers_at_a_time_as_all_at_once():
    """`Uniques` taking papers as it goes (a chunk written) keeps the same papers as `unique` of all of them; a repeat
    that would add to a paper taken says so (`Unstreamable`), one adding to a paper not taken yet does it. Two texts of
    one id among them (`FIRST`, `SECOND`)."""
    from store.readers.records import make_paper
    from store.readers.uniques import Uniques, Unstreamable, unique

    pick = random.Random(3)
    texts = [f"Paper {n} studies {' '.join(pick.choices(WORDS, k=12))}." for n in range(300)] + [FIRST, SECOND]
    made = []
    for line in range(1200):
        text = pick.choice(texts)
        kind = pick.random()
        key = "" if kind < 0.5 else f"key{pick.randrange(3)}"
        made.append(make_paper(text, source="l.jsonl", line=line, key=key, authors=["A. B."] if kind > 0.8 else []))
    plain = [paper for paper in made if not paper.key and not paper.authors]
    with_authors = [paper for paper in made if paper.key or paper.authors]
    for papers in (with_authors, plain + with_authors):
        expected = unique(papers)
        uniques, kept = Uniques(), []
        try:
            for start in range(0, len(papers), 50):
                uniques.add(papers[start : start + 50])
                kept += uniques.take(pick.randrange(len(uniques.papers) + 1))
        except Unstreamable:
            assert papers is not with_authors  # (a bare abstract first, a record of it with authors after)
            continue
        assert fields(kept + uniques.papers) == fields(expected)
    uniques = Uniques()
    uniques.add(plain[:1])
    uniques.add([with_authors[0]])  # (another text: kept)
    repeat = make_paper(plain[0].text, source="l.jsonl", line=9999, key="k", authors=["C. D."])
    uniques.add([repeat])  # (not taken: the first gains its details)
    assert uniques.papers[0].authors == ("C. D.",)
    uniques.take(2)
    uniques.add([make_paper(with_authors[0].text, source="l.jsonl", line=10000)])  # (a bare repeat: nothing to add)
    assert len(uniques) == 2
    other = next(paper for paper in plain if paper.text != plain[0].text)
    uniques.add([other])
    uniques.take(1)
    with pytest.raises(Unstreamable):
        uniques.add([make_paper(other.text, source="l.jsonl", line=10001, key="k2", authors=["E. F."])])
