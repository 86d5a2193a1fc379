"""The CRC-32 the cache's entries are sealed with (store.common.checksum) is zlib's, whichever library works it out:
an entry written before stays whole, one written now is read by a build without ISA-L."""
from __future__ import annotations

import os
import zlib

from store.common.checksum import crc32


def test_the_crc_is_zlibs_whole_and_in_pieces():
    data = os.urandom(3 << 20) + bytes(1000)
    assert crc32(data) == zlib.crc32(data)
    running = 0
    for at in range(0, len(data), 1 << 20):
        running = crc32(memoryview(data)[at : at + (1 << 20)], running)
    assert running == zlib.crc32(data) and crc32(b"") == 0
