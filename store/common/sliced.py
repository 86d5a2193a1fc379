"""Long lists marshalled a slice at a time: one `marshal` call holds the interpreter's lock (the GIL) from start
to end, and a long list's parse entry made in one (store.readers.cache) held it for over a second at 100,000
abstracts while its thread wrote it behind the app, whose `q` (and every key) waited that long."""
from __future__ import annotations

import marshal
from collections.abc import Sequence

SLICE = 4096
"""Items marshalled in one call (~6 MB of abstracts: milliseconds)."""


def sliced(values: Sequence) -> list[bytes]:
    """`values` as marshalled slices (`joined` gives them back as one list)."""
    return [marshal.dumps(list(values[at : at + SLICE])) for at in range(0, len(values), SLICE)]


def joined(slices: Sequence[bytes]) -> list:
    """The list `sliced` made `slices` of."""
    values: list = []
    for piece in slices:
        values += marshal.loads(piece)
    return values
