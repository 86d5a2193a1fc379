"""Making the lowered phrase texts of a batch of papers holds little beside them: two batches are
made at a time during an index build of a long list, and at 100,000 abstracts a batch's arrays of a
number a byte (and a batch joined as four bytes a character, for one character beyond U+FFFF in it)
were ~60 MB at once, twice."""
from __future__ import annotations

import random
import tracemalloc

from store.search.phrases import lowered_batch


def test_a_batch_is_lowered_in_a_few_times_its_size():
    rng = random.Random(5)
    words = "graph neural network diffusion model learning Robust policy Data sparse α-divergence".split()
    plains = [" ".join(rng.choice(words) for _ in range(150)) + (" with 𝒪(n) cost." if n % 3 == 0 else ".")
              for n in range(1024)]
    heads = [f"Title {n} of the Paper" for n in range(1024)]
    size = sum(len(text.encode()) for text in plains + heads)
    lowered_batch(plains, heads, False)  # (numpy's first use of each function allocates for good)
    tracemalloc.start()
    try:
        chunk, letters, held = lowered_batch(plains, heads, False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert chunk.count(b"\n") == 2 * 1024 - 1 and letters.shape[1] == 1024 and len(held)
    assert peak < 20 * size, f"{peak / 2**20:.1f} MB at the peak to lower {size / 2**20:.1f} MB"
