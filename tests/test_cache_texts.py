"""The parse cache keeps no abstract in its entry, only in its texts entry (compressed, read when asked), and no
display text but as a patch over its abstract: a list opened from the cache has every field of every paper exactly
as a fresh parse gives it (real corpora, a long generated list, files in odd encodings and formats), its entries are
a small part of the list's size, a file changed under the cache is parsed again, and one changed after its open
shows the texts of the list as it was opened."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from dataclasses import fields
from pathlib import Path

import pytest

import store.readers
from store.readers import cache, read_path, read_paths
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


def entry(suffix: str = cache.SUFFIX) -> Path:
    [found] = Path(os.environ["TRIAGE_CACHE"]).glob("*" + suffix)
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


def test_the_entry_holds_no_abstract_and_its_texts_entry_holds_them_compressed(generated, monkeypatch):
    """The texts are in the texts entry, compressed: the parse entry is a small part of them (before: all the texts,
    and every display text that differs from its text, half as much again), the texts entry less than half."""
    cold, _ = cold_then_cached(generated, monkeypatch)
    texts = sum(len(p.text.encode()) for p in cold.papers)
    assert entry().stat().st_size * 5 < texts
    assert entry(cache.TEXTS_SUFFIX).stat().st_size * 2 < texts


def test_a_cached_read_holds_less_than_the_texts(generated, monkeypatch):
    """Reading back from the cache leaves the texts in their entry: it holds less than their size at once (not
    the entry's bytes beside all it makes, nor a copy of every display text that differs from its text), and every
    text is then read as parsed."""
    cold, _ = cold_then_cached(generated, monkeypatch)
    texts = sum(sys.getsizeof(p.text) for p in cold.papers)
    parsed = [p.text for p in cold.papers]
    del cold
    tracemalloc.start()
    try:
        cached = from_cache(generated, monkeypatch)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(cached.papers) == 3000
    assert peak < texts
    assert [p.text for p in cached.papers] == parsed


def test_a_list_keeps_its_display_texts_in_a_small_part_of_its_texts_memory(generated, monkeypatch):
    """Half the abstracts of a list show otherwise than they are written (markup, LaTeX): parsed or
    read from the cache, a paper keeps its display text as its very text or as a patch over it,
    never as a second copy of it (which one 'α' doubles in size)."""
    for papers in cold_then_cached(generated, monkeypatch):
        texts = sum(sys.getsizeof(p.text) for p in papers.papers)
        # (the very text, or a place in its texts entry that `kept_plain` reads out: equal to it, no copy kept)
        other = [form for form, p in zip(map(kept_plain, papers.papers), papers.papers) if form is not p.text and form != p.text]
        assert len(other) > len(papers.papers) / 3
        assert sum(map(sys.getsizeof, other)) < texts / 10


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


def test_a_file_edited_after_its_open_shows_the_texts_it_was_opened_with(tmp_path, monkeypatch):
    """Texts are read from the texts entry, not the list file: an edit after the open changes no text shown (the
    papers, titles and ids are the list as opened), and the next open reads the edit."""
    path = write_list(tmp_path / "list.txt")
    read_path(path)
    cache.settle()
    opened = from_cache(path, monkeypatch).papers
    edited(path)
    assert opened[2].text.startswith("Transformers") and opened[2].title.startswith("Transformers")
    again = read_path(path).papers
    assert again[2].text.startswith("Transformerz") and again[2].title.startswith("Transformerz")
