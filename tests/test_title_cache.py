"""The titles as shown of a long list, kept beside its parse entry (`store.readers.title_cache`, issue 34: `triage list
--sort interest` of 100,000 papers within a second): the table `triage list` prints is the same, byte for byte, whether
the entry is made, kept, damaged, forged, or left from another version of the list, and its titles are rendered
(`$\\texttt{NAISR}$` reads `NAISR`). Real parts: the ICLR list of ../shared/corpora (2,260 papers), a real cache
folder, the real command's entry point."""
from __future__ import annotations

import marshal
import random
from pathlib import Path

from store.papers.text import display
from store.readers import cache, columns_entry, read_paths, sealed
from store.readers.title_cache import kept_titles
from tui.cli import main


def listing(tmp_path: Path, corpora: Path, reverse: bool = False) -> Path:
    lines = [line for line in (corpora / "iclr-2024-papers.jsonl").read_text(encoding="utf-8").split("\n") if line]
    path = tmp_path / "iclr.jsonl"
    path.write_text("\n".join(lines[::-1] if reverse else lines) + "\n", encoding="utf-8")
    return path


def table(path: Path, capsys, *more: str) -> str:
    capsys.readouterr()
    assert main(["list", str(path), *more]) == 0
    cache.settle()
    return capsys.readouterr().out


def entry_of(path: Path) -> Path:
    return cache.entry_file([path], cache.TITLES_SUFFIX)


def test_a_long_lists_table_shows_its_titles_rendered_from_the_entry_it_keeps(tmp_path, corpora, capsys):
    path = listing(tmp_path, corpora)
    first = table(path, capsys)
    assert entry_of(path).is_file()
    assert "  NAISR: A 3D Neural Additive Model for" in first
    assert "  Nearly d-Linear Convergence Bounds for" in first
    assert "texttt" not in first and "$d$" not in first
    assert table(path, capsys) == first  # from the entry
    collection = read_paths([str(path)])
    shown = kept_titles(collection)
    assert [shown(row) for row in range(len(collection.papers))] == [display(paper.title).plain for paper in collection.papers]
    kept = columns_entry.read(entry_of(path), collection.origin.keys, len(collection.papers), 1)[0]
    assert sum(map(bool, kept)) < 100  # (a title shown as it is kept as '')


def test_a_few_rows_make_no_entry(tmp_path, corpora, capsys):
    path = listing(tmp_path, corpora)
    assert "NAISR: A 3D" in table(path, capsys, "-q", "NAISR")
    assert not entry_of(path).exists()


def test_a_damaged_forged_or_old_entry_never_changes_the_table(tmp_path, corpora, capsys):
    path = listing(tmp_path, corpora)
    expected = table(path, capsys)
    entry = entry_of(path)
    good = entry.read_bytes()
    collection = read_paths([str(path)])
    keys, count = collection.origin.keys, len(collection.papers)
    made = columns_entry.read(entry, keys, count, 1)[0]

    def forged(column: list[str], *, parse=keys, number=count) -> bytes:
        data = marshal.dumps((parse, "", number, ["\0".join(column)]))
        return sealed.header_of(data) + data

    rng = random.Random(34)
    damaged = [b"", b"not an entry", good[: len(good) // 2]]
    for _ in range(10):
        flipped = bytearray(good)
        flipped[rng.randrange(len(good))] ^= 1 + rng.randrange(255)
        damaged.append(bytes(flipped))
    damaged += [forged(made, number=count - 1), forged(made[1:]), forged(made[::-1], parse=((*keys[0][:2], 0, 0, 0, 0),))]
    for bad in damaged:
        entry.write_bytes(bad)
        assert table(path, capsys) == expected
        assert columns_entry.read(entry, keys, count, 1) == [made]  # made again, and kept again
    listing(tmp_path, corpora, reverse=True)  # another version of the list, under the old entry
    entry.write_bytes(good)
    assert table(path, capsys).splitlines() == expected.splitlines()[::-1]
