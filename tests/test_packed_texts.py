"""A long list parsed on worker processes within `records.packing` (the app's read behind its first rows) keeps
its papers' texts compressed (`store.papers.packed`): every text, display text, id and title reads out as a plain
parse gives it, and so do the parse cache's entry and the search engine built of them."""
from __future__ import annotations

import io
import json
import random

import pytest

from store.readers import cache, read_path, records
from store.readers.entry_writer import Writer
from store.papers.model import has_text, kept_plain, kept_text
from store.papers.packed import Packed
from store.search.engine import Engine


@pytest.fixture
def on_workers(monkeypatch):
    monkeypatch.setattr(records, "PARALLEL_FROM", 1000)  # the ICLR list's 2,260 abstracts on two workers
    monkeypatch.setattr(records, "CHUNK", 512)  # (5 chunks: more than are kept decompressed at once)


def fields(papers) -> list[tuple]:
    return [(p.id, p.text, p.plain, p.title, p.name, p.position) for p in papers]


@pytest.fixture
def iclr(corpora, tmp_path):
    """The ICLR list in a file of its own (the parse cache holds another for another file: each is parsed)."""
    def copy(name: str):
        path = tmp_path / name
        path.write_bytes((corpora / "iclr-2024-abstracts.txt").read_bytes())
        return path
    return copy


def packed_read(path):
    with records.packing():
        return read_path(path)


def test_texts_kept_packed_read_out_as_parsed(iclr, on_workers):
    plain = read_path(iclr("plain.txt")).papers
    papers = packed_read(iclr("packed.txt")).papers
    packed = [p for p in papers if type(kept_text(p)) is Packed]
    assert len(packed) > 0.95 * len(papers)
    held = sum(len(chunk.packed) for chunk in {id(kept_text(p).chunk): kept_text(p).chunk for p in packed}.values())
    assert held < sum(len(p.text.encode()) for p in packed) / 2.5  # (as strings, ~2.7 times as much)
    assert fields(papers) == fields(plain)
    shuffled = list(range(len(papers)))
    random.Random(7).shuffle(shuffled)  # (read in any order: each chunk decompressed again when it is not kept)
    assert [papers[i].text for i in shuffled] == [plain[i].text for i in shuffled]


def test_the_engine_of_texts_kept_packed_finds_what_it_finds_of_a_plain_parse(iclr, on_workers, tmp_path):
    plain = read_path(iclr("plain.txt")).papers
    papers = packed_read(iclr("packed.txt")).papers
    kept = [type(kept_text(p)) for p in papers]
    engine = Engine.opened(papers, tmp_path / "packed.engine", "test")[0]
    built = Engine.opened(plain, tmp_path / "plain.engine", "test")[0]
    assert [type(kept_text(p)) for p in papers] == kept  # (the texts stay packed: the engine only reads them out)
    assert fields(papers) == fields(plain)
    assert [kept_plain(p) == kept_plain(q) for p, q in zip(papers, plain)] == [True] * len(plain)
    for query in ('graph neural', '"language model"', "'Transformer", '"state-of-the-art'):
        found, expected = engine.search(query), built.search(query)
        assert len(found) and (found.positions.tolist(), [hit.score for hit in found]) == (expected.positions.tolist(), [hit.score for hit in expected])


def test_the_parse_entry_of_papers_kept_packed_is_a_plain_parses(iclr, on_workers):
    path = iclr("packed.txt")
    collection = packed_read(path)
    assert any(type(kept_text(p)) is Packed for p in collection.papers)
    key = cache.parse_key(path)
    out = io.BytesIO()
    with cache.entry_file([path], cache.TEXTS_SUFFIX).open("wb") as texts:
        Writer(key, out, texts).finish(collection, collection.papers)
    decoded = cache.decode(out.getvalue(), key, path, str(path))
    assert decoded is not None and fields(decoded.papers) == fields(read_path(iclr("plain.txt")).papers)


def test_started_workers_pack_the_texts_too(corpora, started_workers, tmp_path):
    """Started workers (another thread runs, as in the app), two abstracts a chunk."""
    text = "\n\n".join((corpora / "iclr-2024-abstracts.txt").read_text(encoding="utf-8").split("\n\n")[:41])
    (tmp_path / "plain.txt").write_text(text, encoding="utf-8")
    (tmp_path / "packed.txt").write_text(text, encoding="utf-8")
    plain = read_path(tmp_path / "plain.txt").papers
    with started_workers():
        papers = packed_read(tmp_path / "packed.txt").papers
    assert all(type(kept_text(p)) is Packed for p in papers) and fields(papers) == fields(plain)


def test_empty_texts_kept_packed_are_told_empty_without_reading_them_out(corpora, tmp_path, on_workers):
    """Title-only records keep an empty text in their chunk: `has_text` says so from where the texts end (a parse no
    longer reads out every text to find the records with nothing left); a record with neither, nothing but control
    characters, is no paper, packed or not."""
    records_ = [json.loads(line) for line in (corpora / "iclr-2024-papers.jsonl").read_text(encoding="utf-8").split("\n") if line.strip()]
    for record in records_[::7]:
        record["abstract"] = ""
    records_.insert(700, {"title": "\x1b]52;c;aGk=\x07", "abstract": "\x1b[31m\x07\u200b"})
    for name in ("plain.jsonl", "packed.jsonl"):
        (tmp_path / name).write_text("\n".join(map(json.dumps, records_)), encoding="utf-8")
    plain = read_path(tmp_path / "plain.jsonl").papers
    papers = packed_read(tmp_path / "packed.jsonl").papers
    assert len(papers) == len(records_) - 1
    assert fields(papers) == fields(plain)
    empty = [p for p in papers if type(kept_text(p)) is Packed and not p.text]
    assert len(empty) > 50 and not any(map(has_text, empty))
    assert all(has_text(p) for p in papers if p.text)
