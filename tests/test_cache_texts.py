"""The parse cache keeps no abstract that its list file holds as it is, only where it is there,
and no display text but as a patch over its abstract: a list opened from the cache has every
field of every paper exactly as a fresh parse gives it (real corpora, a long generated list,
files in odd encodings and formats where texts are not parts of the file), its entry is a small
part of the list's size, and a file changed under the cache, even while its texts are being
read back, is parsed again."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from array import array
from dataclasses import fields
from pathlib import Path

import pytest

import store.readers
from store.readers import cache, read_path, read_paths, sourced
from store.papers.model import Paper, kept_plain
from store.papers.text import display

FIELDS = [f.name for f in fields(Paper)]
MARKUP = [
    "We propose **HDGNN**, a hybrid directional graph neural network for $\\geq 50$\\% fewer edges, $\\alpha$-stable.",
    "This paper introduces *KoLA*, a knowledge-oriented benchmark. Code: github.com/THU-KEG/KoLA and https://x.org/a.",
    "Transformers are widely used. We study how they fail on long inputs ≤ 2^{16} tokens: <b>badly</b> &amp; often.",
    "Plain words only, nothing marked up at all in this one, and no symbol either, just text.",
    "A tab\there and a de\u0301composed accent, {\\em emphasis} and `code`, naïve café, 中文摘要。",
    "An escape \x1b[31mred\x1b[0m and a zero\u200bwidth space: made inert before it is kept.",
]


def entry() -> Path:
    [found] = Path(os.environ["TRIAGE_CACHE"]).glob("*" + cache.SUFFIX)
    return found


def from_cache(path: Path, monkeypatch) -> store.readers.Collection:
    """`read_path(path)` where parsing is not allowed: it must come from the cache."""
    with monkeypatch.context() as patch:
        patch.setattr(store.readers, "_parse", lambda name, p: pytest.fail(f"{name} was parsed again"))
        return read_path(path)


def assert_same(cached, cold) -> None:
    assert (cached.header, cached.venue, cached.year, cached.sources, cached.warnings) == \
           (cold.header, cold.venue, cold.year, cold.sources, cold.warnings)
    assert len(cached.papers) == len(cold.papers)
    for new, old in zip(cached.papers, cold.papers):
        for name in FIELDS:
            assert getattr(new, name) == getattr(old, name), f"{name} of paper {old.position} ({old.id})"
    assert cached.papers == cold.papers


def cold_then_cached(path: Path, monkeypatch):
    cold = read_path(path)
    cache.settle()
    return cold, from_cache(path, monkeypatch)


def test_the_corpora_read_from_the_cache_as_parsed(corpora, monkeypatch):
    for name in ("iclr-2024-abstracts.txt", "iclr-2024-papers.jsonl", "icml-2024-papers.jsonl"):
        cold, cached = cold_then_cached(corpora / name, monkeypatch)
        assert len(cached.papers) > 2000
        assert_same(cached, cold)
        assert [p.plain for p in cached.papers] == [display(p.text).plain for p in cold.papers]
    for bib in sorted((corpora / "bib").rglob("*.bib"))[:6]:
        try:
            cold = read_path(bib)
        except store.ReadError:
            continue
        assert_same(from_cache(bib, monkeypatch), cold)


@pytest.fixture
def generated(corpora, tmp_path) -> Path:
    path = tmp_path / "generated.txt"
    make = corpora.parent / "tools" / "make_corpus.py"
    subprocess.run([sys.executable, str(make), "3000", "-o", str(path)], check=True)
    return path


def test_a_long_generated_list_reads_from_the_cache_as_parsed(generated, monkeypatch):
    cold, cached = cold_then_cached(generated, monkeypatch)
    assert len(cached.papers) == 3000
    assert_same(cached, cold)


def test_the_entry_holds_no_abstract_the_file_holds_as_it_is(generated, monkeypatch):
    """The texts stay in the list file: the entry is a small part of it (before: all the texts, and
    every display text that differs from its text, half as much again)."""
    cold, _ = cold_then_cached(generated, monkeypatch)
    texts = sum(len(p.text.encode()) for p in cold.papers)
    assert entry().stat().st_size * 5 < texts


def test_a_cached_read_holds_little_more_than_the_texts(generated, monkeypatch):
    """Reading back from the cache needs the texts and little else at once: not the entry's bytes
    beside all it makes, nor a copy of every display text that differs from its text."""
    cold, _ = cold_then_cached(generated, monkeypatch)
    texts = sum(sys.getsizeof(p.text) for p in cold.papers)
    del cold
    tracemalloc.start()
    try:
        cached = from_cache(generated, monkeypatch)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(cached.papers) == 3000
    assert peak < 2 * texts


def test_a_list_keeps_its_display_texts_in_a_small_part_of_its_texts_memory(generated, monkeypatch):
    """Half the abstracts of a list show otherwise than they are written (markup, LaTeX): parsed or
    read from the cache, a paper keeps its display text as its very text or as a patch over it,
    never as a second copy of it (which one 'α' doubles in size)."""
    for papers in cold_then_cached(generated, monkeypatch):
        texts = sum(sys.getsizeof(p.text) for p in papers.papers)
        kept = [kept_plain(p) for p in papers.papers]
        assert sum(form is not p.text for form, p in zip(kept, papers.papers)) > len(kept) / 3
        assert sum(sys.getsizeof(form) for form, p in zip(kept, papers.papers) if form is not p.text) < texts / 10


ODD_FILES = {
    # name: (bytes of the file, how many papers)
    "utf16le.txt": (("ICLR 2024 论文列表\n\n" + "\n\n".join(MARKUP) + "\n").encode("utf-16"), 6),
    "utf16be.txt": (b"\xfe\xff" + ("SYNTH 2024\n\n" + "\n\n".join(MARKUP[:4]) + "\n").encode("utf-16-be"), 4),
    "utf8bom.txt": (("SYNTH 2024\n\n" + "\n\n".join(MARKUP) + "\n").encode("utf-8-sig"), 6),
    "gb18030.txt": (("中文论文 2024\n\n" + "\n\n".join(
        [f"本文提出一种新的图神经网络方法{i}，实验结果表明该方法优于现有方法。我们还发布了代码和数据。" for i in range(5)]
        + ["We also show $\\alpha$ results 中文 in **bold** for 方法."]) + "\n").encode("gb18030"), 6),
    "cp1252.txt": (("SYNTH 2024\n\n" + "\n\n".join(
        [f"Caf\u00e9 r\u00e9sum\u00e9 \u201cquoted\u201d na\u00efve paper {i} \u2013 with **bold** words." for i in range(4)])
        + "\n").encode("cp1252"), 4),
    "crlf.txt": (("SYNTH 2024\r\n\r\n" + "\r\n\r\n".join(MARKUP)
                  + "\r\n\r\nA hard-wrapped\r\nparagraph over\r\n  three lines with $x$.\r\n").encode("utf-8"), 7),
    "wrapped.txt": (("SYNTH 2024\n\n" + "\n\n".join(
        ["\n".join(text[i : i + 30] for i in range(0, len(text), 30)) for text in MARKUP]
        + MARKUP[:2] + [MARKUP[0]]) + "\n").encode("utf-8"), 8),  # (the repeat is one paper)
    "records.jsonl": (("\n".join(json.dumps({"title": f"Paper {k}", "abstract": text, "authors": ["A. One", "B. Two"],
                                            "year": 2024}, ensure_ascii=k % 2 == 0)
                                for k, text in enumerate(MARKUP + ["Line one\nline two with \"quotes\"."]))
                      + "\n").encode("utf-8"), 7),
    "refs.bib": (("\n".join(f"@inproceedings{{key{k},\n  title = {{Title {k}}},\n  author = {{One, A. and Two, B.}},\n"
                            f"  year = {{2024}},\n  abstract = {{{text}\n    continued on a line}}\n}}\n"
                            for k, text in enumerate(MARKUP[:4]))).encode("utf-8"), 4),
    "table.csv": (("title,abstract,year\n" + "\n".join(f'T{k},"{text.replace(chr(34), chr(34) * 2)}",2024'
                                                     for k, text in enumerate(MARKUP[:4]))
                   + "\n").encode("utf-8"), 4),
}


@pytest.mark.parametrize("name", ODD_FILES)
def test_files_in_odd_encodings_and_formats_read_from_the_cache_as_parsed(tmp_path, monkeypatch, name):
    data, count = ODD_FILES[name]
    path = tmp_path / name
    path.write_bytes(data)
    cold, cached = cold_then_cached(path, monkeypatch)
    assert len(cold.papers) == count
    assert_same(cached, cold)
    assert [p.plain for p in cached.papers] == [display(p.text).plain for p in cold.papers]


def test_a_list_with_repeats_and_several_files_reads_from_the_cache_as_parsed(tmp_path, monkeypatch):
    first = tmp_path / "a.txt"
    first.write_text("SYNTH 2024\n\n" + "\n\n".join(MARKUP[:3] + MARKUP[:2] + MARKUP[3:]) + "\n", encoding="utf-8")
    second = tmp_path / "b.jsonl"
    second.write_text("\n".join(json.dumps({"title": f"T{k}", "abstract": t}) for k, t in enumerate(MARKUP[2:])) + "\n")
    cold = read_paths([first, second])
    cache.settle()
    with monkeypatch.context() as patch:
        patch.setattr(store.readers, "_parse", lambda name, p: pytest.fail("parsed again"))
        cached = read_paths([first, second])
    assert len(cold.papers) == len(MARKUP)
    assert_same(cached, cold)


def edited(path: Path) -> None:
    """The same file with one letter of an abstract changed: the same size and modification time."""
    before = path.stat()
    data = path.read_bytes()
    at = data.index(b"Transformers")
    path.write_bytes(data[:at] + b"Transformerz" + data[at + len(b"Transformers") :])
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def write_list(path: Path) -> Path:
    path.write_text("SYNTH 2024\n\n" + "\n\n".join(MARKUP) + "\n", encoding="utf-8")
    return path


def test_a_file_edited_under_the_cache_gives_its_new_texts(tmp_path, monkeypatch):
    path = write_list(tmp_path / "list.txt")
    read_path(path)
    edited(path)
    papers = read_path(path).papers
    assert papers[2].text.startswith("Transformerz") and papers[2].title.startswith("Transformerz")
    assert from_cache(path, monkeypatch).papers == papers  # (and cached again)


def test_a_file_edited_while_its_texts_are_read_back_is_parsed_again(tmp_path, monkeypatch):
    """The file is checked again once its texts are read: an edit that lands meanwhile is never
    taken for the file the entry was made of."""
    path = write_list(tmp_path / "list.txt")
    read_path(path)
    read = sourced.read

    def edited_meanwhile(source, *args):
        texts = read(source, *args)
        edited(path)  # (the same size and modification time: only the change time tells)
        return texts

    monkeypatch.setattr(sourced, "read", edited_meanwhile)
    papers = read_path(path).papers
    monkeypatch.setattr(sourced, "read", read)
    assert papers[2].text.startswith("Transformerz")
    assert read_path(path).papers == papers  # (not cached while it changed: now)
    assert from_cache(path, monkeypatch).papers == papers


def test_a_place_beyond_the_file_or_bytes_that_do_not_decode_are_never_believed(tmp_path):
    path = write_list(tmp_path / "list.txt")
    texts = [p.text for p in read_path(path).papers]
    with path.open("rb") as source:
        places, kept = sourced.locate(source, "utf-8", texts)
        assert kept == [texts[-1]]  # (made inert: not what the file holds)
        assert sourced.read(source, "utf-8", places, kept) == texts
        beyond, inside = array("q", places), array("q", places)
        beyond[0] = path.stat().st_size
        inside[0:2] = array("q", [path.read_bytes().index("中".encode()) + 1, 2])  # (within a character)
        for damaged, codec in ((beyond.tobytes(), "utf-8"), (inside.tobytes(), "utf-8"), (places, "")):
            with pytest.raises(ValueError):
                sourced.read(source, codec, damaged, kept)
