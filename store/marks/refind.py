"""Re-finding a state whose paper's abstract was edited (`rematch`): the papers of a list that have no state,
matched by fingerprint (rapidfuzz ratio ≥ 90) against the states whose paper is not in the list (what
`store.marks.db.TriageStore.attach` moves to the paper's new id)."""
from __future__ import annotations

from collections.abc import Iterable
from threading import Event

from store.common.errors import unless_stopped
from store.papers.model import fingerprint, normalise

MATCH_CUTOFF = 90
ANCHOR = 60
FULL_SCAN_PAIRS = 200_000


def _ends(text: str) -> tuple[str, str]:
    """The first and last `ANCHOR` characters of `fingerprint(text)`, from the ends of `text` only:
    normalising a piece of a text gives a piece of the normalised text, so a tenth of the cost."""
    head, tail = normalise(text[: 2 * ANCHOR]), normalise(text[-2 * ANCHOR :])
    if len(head) < ANCHOR or len(tail) < ANCHOR:  # short, or mostly spaces: the whole of it
        head = tail = normalise(text)
    return head[:ANCHOR], tail[-ANCHOR:]


def rematch(homeless: dict[str, str], orphans: dict[str, str], stop: Event | None = None) -> dict[str, str]:
    """new id → old id for papers without a state (id → text) whose fingerprint is ≥ 90 similar
    to an orphan's (id → fingerprint); `store.common.errors.Stopped` once `stop` is set.

    Few pairs are compared exhaustively; many only where the first or last 60 characters agree
    (a small edit leaves at least one end alone): then a paper's fingerprint is only worked out
    when one of its ends is an orphan's.
    """
    if not homeless or not orphans:
        return {}
    from rapidfuzz import fuzz, process  # (here: most opens have no state to find again)

    full_scan = len(homeless) * len(orphans) <= FULL_SCAN_PAIRS
    by_end: dict[str, list[str]] = {}
    if not full_scan:
        for key, fp in orphans.items():
            by_end.setdefault("<" + fp[:ANCHOR], []).append(key)
            by_end.setdefault(">" + fp[-ANCHOR:], []).append(key)
    moves: dict[str, str] = {}
    taken: set[str] = set()
    for pid, text in unless_stopped(homeless.items(), stop):
        if full_scan:
            keys: Iterable[str] = orphans.keys()
        else:
            head, tail = _ends(text)
            keys = by_end.get("<" + head, []) + by_end.get(">" + tail, [])
        choices = {key: orphans[key] for key in keys if key not in taken}
        if not choices:
            continue
        fp = fingerprint(text)
        best = process.extractOne(fp, choices, scorer=fuzz.ratio, score_cutoff=MATCH_CUTOFF)
        if best is not None:
            moves[pid] = best[2]
            taken.add(best[2])
    return moves
