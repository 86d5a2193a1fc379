"""The refound entry of a list: what the re-finds of lost marks on its papers found (`store.marks.refind.refound`),
so that a list opened with marks of other lists' papers does not look at all its papers' fingerprints again while
those marks and the list stay as they were (at 100,000 papers, ~0.2 s of CPU of every `triage list`, `similar`,
`export` or open; ten times that at 1,000,000).

It holds, under the very key of the list's parse entry (`store.readers.cache`; a list of one file only, as its
fingerprints are kept: `store.readers.ids`) with that of the code that re-finds (the marks' and the library's wings:
`cache.code_key`), behind a CRC-32, the digests of the marks' fingerprints that matched
none of its papers without marks, and the ids of its papers that had marks then: a few bytes a mark, written (whole)
when a re-find was done. Any doubt (another key, a failed CRC, a damaged or missing entry) means None: the re-find is
done again."""
from __future__ import annotations

import marshal
from collections.abc import Sequence
from pathlib import Path

from store.papers.model import Origin, Paper
from store.readers import cache, sealed
from store.readers.cache import REFOUND_SUFFIX as SUFFIX


class Refound:
    """The refound entry of the papers of the parse `origin` (`read`, `keep`: what `store.marks.db.TriageStore.attach`
    is given, `store.readers.match_cache.attaching`)."""

    def __init__(self, origin: Origin | None) -> None:
        self._origin = origin

    def read(self, papers: Sequence[Paper]) -> tuple[frozenset[bytes], frozenset[str]] | None:
        """What the entry holds for `papers` (the digests of the marks found in none of them, the ids of those that
        had marks), when they are the very papers of the origin and the entry is of them; else None."""
        key = self._key(papers)
        if key is None:
            return None
        try:
            stored_key, orphans, housed = marshal.loads(sealed.unsealed(sealed.entry_bytes(_entry(key))))
        except Exception:  # missing, unreadable, truncated, damaged: the re-find is done again
            return None
        if stored_key != key or not (isinstance(orphans, frozenset) and isinstance(housed, frozenset)) \
                or not all(isinstance(digest, bytes) for digest in orphans) or not all(isinstance(pid, str) for pid in housed):
            return None
        return orphans, housed

    def keep(self, papers: Sequence[Paper], orphans: frozenset[bytes], housed: frozenset[str]) -> None:
        """Keep for `papers` (when they are the very papers of the origin) the digests `orphans` and the ids `housed`."""
        key = self._key(papers)
        if key is None:
            return
        data = marshal.dumps((key, frozenset(orphans), frozenset(housed)))
        cache.save(_entry(key), lambda out: (out.write(sealed.header_of(data)), out.write(data)), behind=False)

    def _key(self, papers: Sequence[Paper]) -> tuple | None:
        origin = self._origin
        if origin is None or len(origin.keys) != 1 or not origin.of(papers):
            return None
        return origin.keys[0], cache.code_key("marks", "library")


def _entry(key: tuple) -> Path:
    return cache.entry_file([Path(key[0][1])], SUFFIX)
