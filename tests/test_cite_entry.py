"""The citation keys and BibTeX titles of a long list, kept beside its parse entry (`store.readers.columns_entry`, issue
34: `triage export` of 100,000 papers no slower than twice a plain script): what `triage export` and `triage cite` write
is the same, byte for byte, whether the entry is made, kept, damaged, forged, or left from another version of the list.
Real parts: the ICLR list of ../shared/corpora (2,260 papers), a real cache folder, the real command's entry point."""
from __future__ import annotations

import marshal
import random
import re
from pathlib import Path

import pytest

from store.cite import citations as cite, export, keys as keys_module
from store.cite.keys import citation_keys
from store.readers import cache, columns_entry, read_paths, sealed
from tui.cli import main
from tui.citing import CITING


def listing(tmp_path: Path, corpora: Path, reverse: bool = False) -> Path:
    lines = [line for line in (corpora / "iclr-2024-papers.jsonl").read_text(encoding="utf-8").split("\n") if line]
    path = tmp_path / "iclr.jsonl"
    path.write_text("\n".join(lines[::-1] if reverse else lines) + "\n", encoding="utf-8")
    return path


def exported(path: Path, fmt: str, *more: str) -> bytes:
    out = path.with_name(f"out.{fmt}")
    assert main(["export", str(path), "--format", fmt, "-o", str(out), "--force", *more]) == 0
    cache.settle()
    return out.read_bytes()


def made_anew(path: Path, fmt: str) -> bytes:
    """What the export of the whole list is, made from its papers with nothing kept."""
    papers = read_paths([str(path)]).papers
    return export.render(papers, fmt, keys=citation_keys(papers)).encode()


def entry_of(path: Path) -> Path:
    return cache.entry_file([path], cache.CITE_SUFFIX)


@pytest.mark.parametrize("fmt", ["bibtex", "ris"])
def test_a_long_list_keeps_its_keys_and_titles_and_exports_the_same_bytes(tmp_path, corpora, fmt):
    path = listing(tmp_path, corpora)
    expected = made_anew(path, fmt)
    assert exported(path, fmt) == expected  # made at the first export, and kept
    assert entry_of(path).is_file()
    assert exported(path, fmt) == expected  # from the entry
    collection = read_paths([str(path)])
    assert columns_entry.read(entry_of(path), collection.origin.keys, len(collection.papers), 2, cache.code_key(*CITING)) == list(
        map(list, cite.citing(collection.papers)))


def test_a_query_and_a_citation_use_the_kept_keys(tmp_path, corpora, capsys):
    path = listing(tmp_path, corpora)
    papers = read_paths([str(path)]).papers
    keys = citation_keys(papers)
    assert main(["cite", papers[1500].id, str(path)]) == 0
    assert capsys.readouterr().out == cite.render([papers[1500]], "bibtex", keys)
    assert not entry_of(path).exists()  # (one citation does not make the titles of all)
    exported(path, "bibtex")
    assert entry_of(path).is_file()
    picked = re.findall(r"^@\w+\{([^,\n]+),$", exported(path, "bibtex", "-q", "diffusion").decode(), re.M)
    assert len(picked) > 10 and set(picked) <= set(keys.values())  # keys over the whole list, not over those found
    capsys.readouterr()
    assert main(["cite", papers[1500].id, str(path)]) == 0
    assert capsys.readouterr().out == cite.render([papers[1500]], "bibtex", keys)


def test_a_damaged_or_forged_entry_never_changes_what_is_written(tmp_path, corpora):
    path = listing(tmp_path, corpora)
    expected = made_anew(path, "bibtex")
    assert exported(path, "bibtex") == expected
    entry = entry_of(path)
    good = entry.read_bytes()
    collection = read_paths([str(path)])
    keys, count = collection.origin.keys, len(collection.papers)
    made_keys, made_titles = cite.citing(collection.papers)

    def forged(key_column: list[str], titles: str | None = "\0".join(made_titles), *, parse=keys, number=count) -> bytes:
        data = marshal.dumps((parse, cache.code_key(*CITING), number, ["\0".join(key_column), titles]))
        return sealed.header_of(data) + data

    twice = [made_keys[1], *made_keys[1:]]  # two papers, one key
    by_case = [made_keys[0], made_keys[0].upper(), *made_keys[2:]]  # two keys the same but for case
    empty = ["", *made_keys[1:]]
    rng = random.Random(34)
    damaged = [b"", b"not an entry", good[: len(good) // 2], good + b"\0" * (8 * path.stat().st_size + 16 * count)]
    for _ in range(10):
        flipped = bytearray(good)
        flipped[rng.randrange(len(good))] ^= 1 + rng.randrange(255)
        damaged.append(bytes(flipped))
    damaged += [forged(twice), forged(by_case), forged(empty), forged(made_keys, number=count - 1),
                forged(made_keys, "\0".join(made_titles[1:])),  # a title short
                forged(made_keys[::-1], parse=((*keys[0][:2], 0, 0, 0, 0),))]  # another version of the list
    for bad in damaged:
        entry.write_bytes(bad)
        assert exported(path, "bibtex") == expected
        assert columns_entry.read(entry, keys, count, 2, cache.code_key(*CITING)) == [made_keys, made_titles]  # made again, and kept again


def test_an_entry_left_from_another_version_of_the_list_is_not_used(tmp_path, corpora):
    """The list rewritten with its papers in the other order (what an entry of the old order would cite wrongly)."""
    path = listing(tmp_path, corpora)
    exported(path, "bibtex")
    old = entry_of(path).read_bytes()
    listing(tmp_path, corpora, reverse=True)
    entry_of(path).write_bytes(old)
    assert exported(path, "bibtex") == made_anew(path, "bibtex")
    assert exported(path, "csl-json") == made_anew(path, "csl-json")


async def test_the_apps_export_takes_the_kept_keys_and_titles_and_writes_what_triage_export_writes(tmp_path, corpora, monkeypatch):
    """`x` on the whole long list after a `triage export` kept its entry: the app reads the keys and titles from it (none
    made again) and writes the file `triage export` wrote, byte for byte."""
    from textual.widgets import Input

    from tests.waits import settled, until
    from tui.app import TriageApp
    from tui.screens.export_dialog import ExportDialog

    path = listing(tmp_path, corpora)
    expected = exported(path, "bibtex")  # (the entry made and kept)
    collection = read_paths([str(path)])

    def made_again(papers):
        raise AssertionError("made again, not read from the entry")

    monkeypatch.setattr(cite, "citation_keys", made_again)  # (what `cite.citing` makes them with)
    monkeypatch.setattr(keys_module, "citation_keys", made_again)  # (what tui.citing makes them with)
    monkeypatch.setattr(cite, "bibtex_titles", made_again)
    target = tmp_path / "from-the-app.bib"
    app = TriageApp(collection, db_path=str(tmp_path / "db.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportDialog))
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, ExportDialog))
    assert target.read_bytes() == expected
