"""Memory the index build freed goes back to the system: a long list's app is not left holding, as
free room inside malloc, about as much again as its index (at 100,000 abstracts 966 MB resident
after the build, 568 MB of it in use)."""
from __future__ import annotations

import platform
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                                reason="glibc's malloc")

BUILD = textwrap.dedent("""
    import ctypes, os, random, sys, tempfile
    from pathlib import Path
    os.environ["TRIAGE_CACHE"] = tempfile.mkdtemp()
    from store.readers import read_path
    from store.search.index import SearchIndex

    def rss():
        return int(Path("/proc/self/status").read_text().split("VmRSS:")[1].split()[0]) // 1024

    rng = random.Random(3)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10))) for _ in range(3000)]
    path = Path(tempfile.mkdtemp()) / "list.txt"
    path.write_text("\\n\\n".join(" ".join(rng.choice(words) for _ in range(180)) + f" {n}." for n in range(15000)))
    index = SearchIndex(read_path(path).papers)
    built = rss()
    ctypes.CDLL("libc.so.6").malloc_trim(0)  # all the free room malloc holds, given back
    print(built, rss())
""")


def test_building_the_index_of_a_long_list_leaves_no_free_room_resident():
    """15,000 abstracts: 294 MB resident after the build, 182 MB once trimmed; now 132, 130."""
    done = subprocess.run([sys.executable, "-c", BUILD], capture_output=True, text=True, check=True, timeout=600)
    built, trimmed = map(int, done.stdout.split())
    assert built - trimmed < 0.1 * built, f"{built} MB resident after the build, {trimmed} MB of it in use"
