"""An array that is a view of a file mapped, read whole a piece at a time, leaves this process's resident memory as it
was (store.interest.paged): the features of the whole arXiv (3 GB) no longer stay resident after a ranking reads them;
read again, the pages come back as the file has them."""
from __future__ import annotations

import mmap

import numpy as np

from store.interest.paged import let_go, pieces

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
