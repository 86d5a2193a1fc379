"""An array that is a view of a file mapped, read whole a piece at a time, leaves this process's resident memory as it
was (store.common.paged): the features of the whole arXiv (3 GB) no longer stay resident after a ranking reads them;
read again, the pages come back as the file has them."""
from __future__ import annotations

import mmap
from pathlib import Path

import numpy as np

from store.common.paged import let_go, pieces

SIZE = 96 << 20


def resident_file_mb() -> float:
    """This process's resident pages of files mapped, in MB."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("RssFile")) / 1024


def test_a_mapped_array_read_a_piece_at_a_time_is_not_kept_resident(tmp_path):
    path = tmp_path / "entry"
    values = np.arange(SIZE // 8, dtype=np.uint64)
    path.write_bytes(values.tobytes())
    with path.open("rb") as file:
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_COPY)  # (as the features entry is)
    array = np.frombuffer(mapped, np.uint64)
    before = resident_file_mb()
    total = sum(int(piece.sum()) for piece in pieces(array))
    assert total == int(values.sum())
    assert resident_file_mb() - before < 48  # (the last piece's 32 MB at most)
    assert int(array.sum()) == total  # read again: as the file has it
    assert resident_file_mb() - before > 80  # (read whole without letting go: all of it resident)
    let_go(array)
    assert resident_file_mb() - before < 8
    let_go(values)  # (an array of memory of its own: nothing happens)
    assert int(values[-1]) == SIZE // 8 - 1


def resident_kb(address: int | None = None, suffix: str | None = None) -> int:
    """This process's resident memory (KB) in the mapping that holds `address`, or in those of files named `...suffix`."""
    found, counted = 0, False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split()
            if "-" in head[0] and len(head) >= 5 and ":" in head[3]:  # (a mapping's first line: its range, then fields)
                first, last = (int(bound, 16) for bound in head[0].split("-"))
                counted = first <= address < last if address is not None else len(head) > 5 and head[5].endswith(suffix)
            elif counted and head[0] == "Rss:":
                found += int(head[1])
    return found


def test_a_long_lists_features_built_and_kept_leave_its_rows_out_of_memory(tmp_path, monkeypatch):
    """The rows of a long list's features (put aside on disk while built: store.interest.spool) are read a block at a
    time for their latent part and for the entry that keeps them, each block let go of: at 2,700,000 papers they held
    ~3 GB resident after a build (4.3 GB at its peak, now 1.6)."""
    from store.interest import counts
    from store.interest.features_cache import write
    from store.interest.vectors import built
    from store.readers.seed import parse
    from tests.test_reopened_columns import abstracts

    monkeypatch.setattr(counts, "BLOCK", 4096)  # (so they are put aside on disk)
    made = built(parse("SYNTH 2024\n\n" + "\n\n".join(abstracts(24_000)), "long.txt").papers)
    assert made.x.shape[0] == 24_000 and made.x.nnz > 200_000
    data, indices = made.x.data, made.x.indices
    rows = data.nbytes + indices.nbytes
    assert resident_kb(data.ctypes.data) * 1024 < rows / 10
    with (tmp_path / "entry").open("wb") as out:
        write(out, "key", {"data": data, "indices": indices, "z": made.z})
    assert resident_kb(data.ctypes.data) * 1024 < rows / 10
    assert (tmp_path / "entry").stat().st_size > rows
    assert float(data[:100].sum()) > 0  # (read again, as the file has them)


def test_a_pass_over_a_reopened_lists_papers_leaves_its_parse_entry_out_of_memory(tmp_path, monkeypatch):
    """Papers made for a pass (an index, counted words: store.papers.chunked's `passing`) are read from the parse entry
    mapped, whose pages are let go of as the pass goes (at 2,700,000 papers, ~600 MB held for as long as it was open)."""
    from store.papers import chunked
    from store.papers.chunked import SIZE, passing
    from store.readers import cache, read_path
    from tests.test_reopened_columns import abstracts

    path = tmp_path / "long.txt"
    path.write_text("SYNTH 2024\n\n" + "\n\n".join(abstracts(6 * SIZE)) + "\n", encoding="utf-8")
    read_path(path)
    cache.settle()
    monkeypatch.setattr(chunked, "LET_GO", 2)
    papers = read_path(path).papers
    assert isinstance(papers, chunked.Chunked)
    entry = str(next((tmp_path / "cache").glob("*.parse")))  # (its mapping's, not another test's of this process)
    size = Path(entry).stat().st_size // 1024
    during = []
    for at, paper in enumerate(passing(papers)):
        if at % SIZE == SIZE - 1:
            during.append(resident_kb(suffix=entry))
    assert size > 1024 and max(during) < size / 2 and resident_kb(suffix=entry) < 64
    assert [paper.id for paper in passing(papers)] == list(papers.ids)  # (read again, as the file has them)


def test_an_entrys_crc_is_worked_out_a_piece_at_a_time(tmp_path, monkeypatch):
    """A reopened list's parse entry is mapped and its CRC worked out before it is believed: a piece at a time, each
    let go of (a 2,700,000-paper list's, ~0.7 GB, was all resident while its first frame was drawn)."""
    from store.readers import sealed

    payload = np.arange(SIZE // 8, dtype=np.uint64).tobytes()
    entry = tmp_path / "list.parse"
    entry.write_bytes(sealed.header_of(payload) + payload)
    seen, crc = [], sealed.crc32

    def summing(piece, value=0):
        seen.append(resident_kb(suffix=str(entry)))
        return crc(piece, value)

    monkeypatch.setattr(sealed, "crc32", summing)
    data = sealed.entry_mapped(entry)
    assert sealed._held(data) and len(seen) > 2
    assert max(seen) < 48 * 1024 and resident_kb(suffix=str(entry)) < 8
    damaged = bytearray(entry.read_bytes())
    damaged[-1] ^= 1
    assert not sealed._held(bytes(damaged))
