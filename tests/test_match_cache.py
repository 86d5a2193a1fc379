"""The match entry of a long list (`store.readers.match_cache`, issue 32 item 4): a conference's list opened with
marks from another source that have no arXiv id (every title of the list is looked at) keeps what its papers are
matched by beside its parse entry. The marks a list shows are the same whether that entry is made, kept, damaged,
forged, or left from another version of the list. Real parts: the ICLR list of ../shared/corpora (2,260 papers), a
real TinyDB file and cache folder."""
from __future__ import annotations

import json
import marshal
import os
import random
from functools import partial
from pathlib import Path

from store.marks.db import TriageStore
from store.papers import matching
from store.papers.model import Triage
from store.readers import cache, match_cache, read_paths, sealed


def write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def marked_elsewhere(tmp_path: Path, corpora: Path) -> tuple[Path, Path, list[str]]:
    """The ICLR list, and a database where two of its papers are starred as an arXiv listing words them (another
    abstract, no arXiv id, no OpenReview link: the same paper by its title and authors alone)."""
    records = [json.loads(line) for line in (corpora / "iclr-2024-papers.jsonl").read_text(encoding="utf-8").split("\n") if line]
    listing = write(tmp_path / "iclr.jsonl", records)
    chosen = [records[5], records[1500]]
    other = write(tmp_path / "elsewhere.jsonl", [{"title": r["title"], "authors": r["authors"], "abstract": "Reworded. " + r["abstract"],
                                                 "venue": "arXiv", "year": 2024} for r in chosen])
    db = tmp_path / "triage.json"
    store = TriageStore(db)
    papers = read_paths([str(other)]).papers
    store.attach(papers)
    store.put({paper.id: Triage(starred=True, updated=1.0) for paper in papers})
    store.close()
    return listing, db, sorted(r["title"] for r in chosen)


def starred(db: Path, listing: Path) -> list[str]:
    """The titles of the list's starred papers, as a list opened shows them (its kept columns asked for)."""
    collection = read_paths([str(listing)])
    store = TriageStore(db)
    try:
        states = store.attach(collection.papers, kept=partial(match_cache.columns, collection.origin))
    finally:
        store.close()
    cache.settle()
    return sorted(paper.title for paper in collection.papers if states.get(paper.id, Triage()).starred)


def entry_of(listing: Path) -> Path:
    return cache.entry_file([listing], cache.MATCH_SUFFIX)


def test_a_long_list_keeps_what_its_papers_are_matched_by_and_finds_the_same_marks(tmp_path, corpora):
    listing, db, titles = marked_elsewhere(tmp_path, corpora)
    assert starred(db, listing) == titles  # made at the first open, and kept
    assert entry_of(listing).is_file()
    collection = read_paths([str(listing)])
    assert match_cache.columns(collection.origin, collection.papers) == matching.columns(collection.papers)
    assert starred(db, listing) == titles  # from the entry
    assert match_cache.columns(None, collection.papers) is None  # papers of no parse: made by the caller
    assert match_cache.columns(collection.origin, collection.papers[1:]) is None  # not the parse's very papers


def test_a_damaged_or_forged_entry_is_never_believed(tmp_path, corpora):
    listing, db, titles = marked_elsewhere(tmp_path, corpora)
    assert starred(db, listing) == titles
    entry = entry_of(listing)
    good = entry.read_bytes()
    collection = read_paths([str(listing)])
    made = matching.columns(collection.papers)
    keys, count = collection.origin.keys, len(collection.papers)

    def forged(*payload: object) -> bytes:
        data = marshal.dumps((payload[0], "", *payload[1:]))  # (made by the parsing wings: no code of its own)
        return sealed.header_of(data) + data

    titles_only = "\0".join(made.titles)
    rng = random.Random(32)
    damaged = [b"", b"not an entry", good[: len(good) // 2], good + b"\0" * (4 * os.path.getsize(listing) + 16 * count)]
    for _ in range(12):
        flipped = bytearray(good)
        at = rng.randrange(len(good))
        flipped[at] ^= 1 + rng.randrange(255)
        damaged.append(bytes(flipped))
    damaged += [forged(keys, count - 1, [titles_only, None, None]),  # another count
                forged(keys, count, [titles_only.rpartition("\0")[0], None, None]),  # a paper short
                forged(keys, count, [list(made.titles), None, None]),  # another kind
                forged(keys, count, [titles_only]),  # a column short
                forged(((*keys[0][:2], 0, 0, 0, 0),), count, [titles_only[::-1], None, None])]  # another version of the list
    for bad in damaged:
        entry.write_bytes(bad)
        assert match_cache.columns(collection.origin, collection.papers) == made
        cache.settle()
        assert match_cache._read(entry, keys, count) == made  # made again, and kept again


def test_an_entry_left_from_another_version_of_the_list_is_not_used(tmp_path, corpora):
    """The list rewritten with its papers in the other order (what an entry of the old order would match wrongly)."""
    listing, db, titles = marked_elsewhere(tmp_path, corpora)
    assert starred(db, listing) == titles
    old = entry_of(listing).read_bytes()
    records = [json.loads(line) for line in listing.read_text(encoding="utf-8").split("\n") if line]
    write(listing, records[::-1])
    entry_of(listing).write_bytes(old)
    assert starred(db, listing) == titles
    collection = read_paths([str(listing)])
    assert match_cache._read(entry_of(listing), collection.origin.keys, len(collection.papers)) == matching.columns(collection.papers)


def test_a_fifo_a_link_or_a_huge_file_in_place_of_an_entry_or_the_keys_cache_is_never_read(tmp_path, corpora):
    """The real `triage list` with a FIFO, a link to a file of the user's and a huge (sparse) file where the list's
    match entry and the records' keys cache are: it neither hangs nor reads them, finds the same starred papers, and
    the file the link named is left as it was (the link itself replaced by the cache made again)."""
    from store.library import keys_cache
    from tests.hostile import rows, triage

    listing, db, titles = marked_elsewhere(tmp_path, corpora)
    shown = lambda: sorted(row["title"] for row in rows(triage("list", str(listing), "-q", "is:starred", "--format", "jsonl",  # noqa: E731
                                                                "--db", str(db))))
    assert shown() == titles
    victim = tmp_path / "victim"

    def huge(path: Path) -> None:
        with path.open("wb") as out:
            out.truncate(1 << 31)

    for place in (entry_of(listing), keys_cache.entry(db.with_name(db.name + ".papers"))):
        assert place.is_file()
        for plant in (os.mkfifo, lambda path: path.symlink_to(victim), huge):
            victim.write_text("precious")
            place.unlink()
            plant(place)
            assert shown() == titles
            assert victim.read_text() == "precious"
