"""A long list's table lines, kept in the cache at the width last printed (`tui.cli.table`, issue 34: `triage list
--sort interest` of 1,000,000 papers within 3 s): the table `triage list` prints is the same, byte for byte, whether
its lines are made now or looked up, in file, hit or learnt order, whatever the marks say now, whether the entry is
damaged, forged, of another width or left from another version of the list. Real parts: the ICLR list of
../shared/corpora (2,260 papers; the threshold lowered to it), a real cache folder, the real command's entry point."""
from __future__ import annotations

import marshal
import random
from pathlib import Path

import pytest

from store.readers import cache, read_paths, sealed
from tests.test_title_cache import listing
from tui.cli import main, table

STARRED = ("Compressing LLMs", "Language Model", "Large Language")


def printed(path: Path, capsys, monkeypatch, *more: str, kept: bool = True, columns: int = 100) -> str:
    """The table `triage list FILE …` prints, from kept lines (`kept`) or made whole now."""
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(table, "LINES_FROM", 1_000 if kept else 10**9)
    capsys.readouterr()
    assert main(["list", str(path), *more]) == 0
    cache.settle()
    return capsys.readouterr().out


def entry_of(path: Path) -> Path:
    return cache.entry_file([path], table.LINES_SUFFIX)


@pytest.fixture
def iclr(tmp_path, corpora) -> Path:
    return listing(tmp_path, corpora)


def test_the_table_from_kept_lines_is_the_table_made_now_in_every_order_with_the_marks_of_now(iclr, capsys, monkeypatch):
    first = printed(iclr, capsys, monkeypatch)
    assert entry_of(iclr).is_file()
    assert first == printed(iclr, capsys, monkeypatch, kept=False)
    assert printed(iclr, capsys, monkeypatch) == first  # looked up this time
    rows = first.splitlines()
    for words in STARRED:  # marks set after the lines were kept: shown, never the kept unmarked line
        pid = next(line.split()[0] for line in rows if words in line)
        assert main(["set", pid, str(iclr), "--star", "--priority", "2"]) == 0
    read = rows[5].split()[0]
    assert main(["set", read, str(iclr), "--read"]) == 0
    for order in ([], ["-q", "learning"], ["--sort", "interest"], ["--sort", "suggested"]):
        now = printed(iclr, capsys, monkeypatch, *order)
        assert now == printed(iclr, capsys, monkeypatch, *order, kept=False), order
        assert len(now.splitlines()) > 1_000
    now = printed(iclr, capsys, monkeypatch).splitlines()
    assert sum(line[12:15] == "•★2" for line in now) == len(STARRED)
    assert now[5].startswith(read) and now[5][12:15] == "   "  # (read: no `•`)


def test_another_width_makes_its_lines_again_and_keeps_one_entry(iclr, capsys, monkeypatch):
    narrow = printed(iclr, capsys, monkeypatch, columns=70)
    assert narrow == printed(iclr, capsys, monkeypatch, kept=False, columns=70)
    assert max(map(len, narrow.splitlines())) <= 70 + 20  # (the title column is 41 wide)
    wide = printed(iclr, capsys, monkeypatch, columns=160)
    assert wide == printed(iclr, capsys, monkeypatch, kept=False, columns=160) != narrow
    assert [p.name for p in entry_of(iclr).parent.iterdir() if p.name.endswith(table.LINES_SUFFIX)] == [entry_of(iclr).name]


def test_a_damaged_forged_or_old_entry_never_changes_the_table(iclr, capsys, monkeypatch, tmp_path, corpora):
    expected = printed(iclr, capsys, monkeypatch)
    entry = entry_of(iclr)
    good = entry.read_bytes()
    collection = read_paths([str(iclr)])
    keys, count = collection.origin.keys, len(collection.papers)
    lines = list(table.kept_lines(collection, 71))
    assert len(lines) == count

    def forged(made: list[bytes], *, parse=keys, number=count, width=71, code=None) -> bytes:
        head = marshal.dumps((parse, table._code() if code is None else code, width, number))
        size, blob = len(head).to_bytes(4, "big"), b"\n".join(made)
        return sealed.header_of(size, head, blob) + size + head + blob

    rng = random.Random(56)
    damaged = [b"", b"not an entry", good[: len(good) // 2], good + b"\nmore"]
    for _ in range(10):
        flipped = bytearray(good)
        flipped[rng.randrange(len(good))] ^= 1 + rng.randrange(255)
        damaged.append(bytes(flipped))
    damaged += [forged(lines, number=count - 1), forged(lines[1:]), forged(lines + [b"one more"], number=count + 1),
                forged([b"forged"] * count, code="old code"), forged([b"forged"] * count, width=70),
                forged(lines[::-1], parse=((*keys[0][:2], 0, 0, 0, 0),))]
    for bad in damaged:
        entry.write_bytes(bad)
        assert printed(iclr, capsys, monkeypatch) == expected
        assert entry.read_bytes() == good  # made again, and kept again
    listing(tmp_path, corpora, reverse=True)  # another version of the list, under the old entry
    assert printed(iclr, capsys, monkeypatch).splitlines() == expected.splitlines()[::-1]


def test_a_kept_line_that_would_write_escapes_is_made_inert(iclr, capsys, monkeypatch):
    expected = printed(iclr, capsys, monkeypatch)
    collection = read_paths([str(iclr)])
    lines = list(table.kept_lines(collection, 71))
    head = marshal.dumps((collection.origin.keys, table._code(), 71, len(lines)))
    size, blob = len(head).to_bytes(4, "big"), b"\n".join([b"\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J" + lines[0], *lines[1:]])
    entry_of(iclr).write_bytes(sealed.header_of(size, head, blob) + size + head + blob)  # (its CRC right)
    shown = printed(iclr, capsys, monkeypatch)
    assert "\x1b" not in shown and "\x07" not in shown
    assert shown == expected and len(shown.splitlines()) == len(lines)  # (the escapes taken out, nothing else)
