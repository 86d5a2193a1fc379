"""Re-finding a state whose paper's abstract was edited (`refound`, `rematch`): the papers of a list that have no
state, matched by fingerprint (rapidfuzz ratio ≥ 90) against the states whose paper is not in the list (what
`store.marks.db.TriageStore.attach` moves to the paper's new id). Those states are mostly marks of other lists'
papers, found in none of this list's, time after time: what a list keeps of that (`Remembered`) spares it the
look at every paper while they and the list stay as they were."""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set as AbstractSet
from itertools import chain, islice
from operator import attrgetter
from threading import Event
from typing import Protocol

from store.common.errors import unless_stopped
from store.papers.chunked import ids_of, passing
from store.papers.model import Paper, fingerprint, normalise

MATCH_CUTOFF = 90
ANCHOR = 60
FULL_SCAN_PAIRS = 200_000


class Remembered(Protocol):
    """What a list keeps of the re-finds done on its papers (`store.readers.refound`): the `digest`s of the states'
    fingerprints that matched none of its papers without a state, and the ids of its papers that had one then. While
    none of those has lost its state, its papers without one are those or fewer, and those states match none still."""

    def read(self, papers: Sequence[Paper]) -> tuple[AbstractSet[bytes], AbstractSet[str]] | None: ...

    def keep(self, papers: Sequence[Paper], orphans: frozenset[bytes], housed: frozenset[str]) -> None: ...


def digest(fp: str) -> bytes:
    """What `Remembered` keeps of a state's fingerprint."""
    return hashlib.blake2b(fp.encode("utf-8", "surrogatepass"), digest_size=8).digest()


def refound(papers: Sequence[Paper], ids: AbstractSet[str], stored: Mapping[str, object], shared: Mapping[str, str],
            orphans: dict[str, str], fingerprints: Callable[[Sequence[Paper]], Sequence[str] | None] | None,
            remembered: Remembered | None, stop: Event | None = None) -> dict[str, str]:
    """new id → old id: the `orphans` (id → fingerprint: states whose paper is not among `papers`, whose ids `ids` holds,
    or of them those `stored` at least) re-found on the papers without a state (not `stored`, nor `shared`), by
    `rematch`, but for those `remembered` says matched none of them before. `fingerprints(papers)` may give the papers'
    fingerprints (kept), else their texts are looked at. What is found is kept (`remembered.keep`): every orphan but
    those moved, and the papers with a state and those moved to (while not all of those have one, as when the moves could
    not be stored, the look is made again)."""
    if not orphans:
        return {}
    housed = frozenset(ids.intersection(stored)).union(shared)  # (the marked papers of the list: few)
    digests = {key: digest(fp) for key, fp in orphans.items()} if remembered is not None else {}
    before = remembered.read(papers) if remembered is not None else None
    if before is not None and before[1] <= housed:
        orphans = {key: fp for key, fp in orphans.items() if digests[key] not in before[0]}
    if not orphans:
        return {}
    homeless, fingerprinted = _homeless(papers, stored, shared, fingerprints)
    moves = rematch(homeless, orphans, stop, fingerprinted)
    if remembered is not None:  # (with the papers moved to: an orphan another one beat to a paper may match it else)
        gone = set(moves.values())
        remembered.keep(papers, frozenset(value for key, value in digests.items() if key not in gone), housed.union(moves))
    return moves


def _homeless(papers: Sequence[Paper], stored: Mapping[str, object], shared: Mapping[str, str],
              fingerprints: Callable[[Sequence[Paper]], Sequence[str] | None] | None
              ) -> tuple[Iterator[tuple[str, str]], bool]:
    """The id and text of each of `papers` without a state, to re-find lost states by (`rematch`), one at a time (a
    reopened list's papers made a chunk at a time and let go: store.papers.chunked's `passing`), and whether those are
    their fingerprints (when `fingerprints(papers)` gives them kept) rather than their texts."""
    found = fingerprints(papers) if fingerprints is not None else None
    texts = found if found is not None else map(attrgetter("text"), passing(papers))
    return ((pid, text) for pid, text in zip(ids_of(papers), texts) if pid not in stored and pid not in shared and text), found is not None


def _ends(text: str) -> tuple[str, str]:
    """The first and last `ANCHOR` characters of `fingerprint(text)`, from the ends of `text` only:
    normalising a piece of a text gives a piece of the normalised text, so a tenth of the cost."""
    head, tail = normalise(text[: 2 * ANCHOR]), normalise(text[-2 * ANCHOR :])
    if len(head) < ANCHOR or len(tail) < ANCHOR:  # short, or mostly spaces: the whole of it
        head = tail = normalise(text)
    return head[:ANCHOR], tail[-ANCHOR:]


def rematch(homeless: Iterable[tuple[str, str]], orphans: dict[str, str], stop: Event | None = None,
            fingerprinted: bool = False) -> dict[str, str]:
    """new id → old id for papers without a state (their ids and texts, or fingerprints when `fingerprinted`, read one
    at a time) whose fingerprint is ≥ 90 similar to an orphan's (id → fingerprint); `store.common.errors.Stopped` once
    `stop` is set.

    Few pairs are compared exhaustively; many only where the first or last 60 characters agree
    (a small edit leaves at least one end alone): then a paper's fingerprint is only worked out
    when one of its ends is an orphan's, and the papers' texts are read one at a time, never all held (at 1,000,000
    papers, ~2 GB; the marks of another list are orphans of every list opened the first time).
    """
    if not orphans:
        return {}
    pairs = iter(homeless)
    first = dict(islice(unless_stopped(pairs, stop), FULL_SCAN_PAIRS // len(orphans) + 1))
    if not first:
        return {}
    from rapidfuzz import fuzz, process  # (here: most opens have no state to find again)

    full_scan = len(first) * len(orphans) <= FULL_SCAN_PAIRS  # (then `first` holds them all)
    if full_scan and fingerprinted:
        return _scanned(first, orphans)
    by_end: dict[str, list[str]] = {}
    if not full_scan:
        for key, fp in orphans.items():
            by_end.setdefault("<" + fp[:ANCHOR], []).append(key)
            by_end.setdefault(">" + fp[-ANCHOR:], []).append(key)
    moves: dict[str, str] = {}
    taken: set[str] = set()
    for pid, text in unless_stopped(chain(first.items(), pairs), stop):
        if full_scan:
            keys: Iterable[str] = orphans.keys()
        else:
            head, tail = (text[:ANCHOR], text[-ANCHOR:]) if fingerprinted else _ends(text)
            keys = by_end.get("<" + head, []) + by_end.get(">" + tail, [])
        choices = {key: orphans[key] for key in keys if key not in taken}
        if not choices:
            continue
        fp = text if fingerprinted else fingerprint(text)
        best = process.extractOne(fp, choices, scorer=fuzz.ratio, score_cutoff=MATCH_CUTOFF)
        if best is not None:
            moves[pid] = best[2]
            taken.add(best[2])
    return moves


def _scanned(homeless: dict[str, str], orphans: dict[str, str]) -> dict[str, str]:
    """`rematch` of fingerprints, every pair compared: at once (100,000 papers against an orphan in ~0.1 s, not one
    at a time), then, in the papers' order, each takes the best orphan not taken (the first of equals), as one at a
    time would."""
    import numpy as np
    from rapidfuzz import fuzz, process

    keys, pids = list(orphans), list(homeless)
    # (each orphan against every paper: an orphan's fingerprint is prepared once, not each paper's: ~2x faster)
    scores = process.cdist(list(orphans.values()), list(homeless.values()), scorer=fuzz.ratio, score_cutoff=MATCH_CUTOFF,
                           dtype=np.float64).T
    moves: dict[str, str] = {}
    taken = np.zeros(len(keys), bool)
    for row in np.flatnonzero(scores.max(axis=1) >= MATCH_CUTOFF).tolist():
        left = np.where(taken, -1.0, scores[row])
        best = int(np.argmax(left))
        if left[best] >= MATCH_CUTOFF:
            moves[pids[row]] = keys[best]
            taken[best] = True
    return moves
