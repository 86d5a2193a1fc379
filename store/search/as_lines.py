"""Texts kept as their lines of the phrase texts (`store.search.phrases.Lowered`), not as strings of their own.

Once a batch of the phrase texts is made, each of its papers whose display text is its line but for the capitals
A-Z keeps its text as that line (`kept_as_lines`: a `store.papers.cased.Cased`); the others are kept compressed together
(`packed_apart`). `displays` reads many kept so out at once.
"""
from __future__ import annotations

import numpy as np

from store.papers.cased import Cased, patched, unpatched
from store.papers.model import Paper, keep_text, kept_cased, kept_text, read_out, single_spaced
from store.papers.packed import Chunk, Packed


def kept_as_lines(papers: list[Paper], chunk: bytes, ends: np.ndarray) -> None:
    """Each of a batch's `papers` whose line of the batch `chunk` is its display text but for the capitals A-Z (its
    UTF-8, checked byte for byte: a single-spaced text with no other letter lowered, most abstracts) keeps its
    text as that line, where those capitals are and the patch that makes the text of it (`store.papers.cased.Cased`),
    not as a string of its own: at 100,000 abstracts the texts were held twice, ~150 MB each. A text kept so by
    another batch (an index made again of the same papers) moves to this one."""
    starts = [0, *(ends[: len(papers)] + 1).tolist()]  # (line k of the batch is chunk[starts[k] : starts[k + 1] - 1])
    chosen, shown, patches = [], [], []
    for k, paper in enumerate(papers):
        kept, display = read_out(paper)
        if type(kept) is Cased:
            display, patch = kept.display(), kept.patch
        elif display is kept:
            patch = None
        elif type(display) is bytes:
            display, patch = patched(kept, display), unpatched(kept, display)
        else:  # (worked out when asked: no line of its own)
            continue
        if display and single_spaced(display):
            chosen.append(k)
            shown.append(display.encode("utf-8", "surrogatepass"))
            patches.append(patch)
    if not chosen:
        return
    joined = b"\n".join(shown)
    lowered, codes = joined.lower(), np.frombuffer(joined, np.uint8)  # (bytes: only A-Z lowered)
    capitals = np.flatnonzero((codes >= 65) & (codes <= 90))
    firsts = np.cumsum([0] + [len(text) + 1 for text in shown[:-1]])
    cuts = np.searchsorted(capitals, np.append(firsts, len(joined))).tolist()
    view = memoryview(chunk)
    for j, (k, first, patch) in enumerate(zip(chosen, firsts.tolist(), patches)):
        start, end = starts[k], starts[k + 1] - 1
        if end - start != len(shown[j]) or end - start >= 1 << 16 or view[start:end] != lowered[first : end - start + first]:
            continue  # (its line is not its display text with A-Z lowered, a text beyond ASCII changed too: left as it is)
        at = (capitals[cuts[j] : cuts[j + 1]] - first).astype("<u2")
        kept_cased(papers[k], Cased.at(chunk, start, end, at.tobytes(), patch))


def displays(papers: list[Paper], chosen: list[int]) -> list[str]:
    """The display texts of `papers[i]` for each of `chosen` (in order): those kept as lines of a batch
    (`kept_as_lines`) read out of it a batch at a time, capitals made at once (read one by one, ~5 µs each, a
    case-sensitive phrase over 100,000 papers took seconds more)."""
    out: list[str] = [""] * len(chosen)
    batches: dict[int, tuple[bytes, list[int], list[bytes]]] = {}
    for j, i in enumerate(chosen):
        kept = kept_text(papers[i])
        if type(kept) is Cased:
            found = batches.setdefault(id(kept.lines), (kept.lines, [], []))
            found[1].append(j)
            found[2].append(kept.places)
        else:
            out[j] = papers[i].plain
    for lines, where, places in batches.values():
        spans = np.frombuffer(b"".join(place[:8] for place in places), "<u4").reshape(-1, 2).astype(np.intp)
        capitals = np.concatenate([np.frombuffer(place, "<u2", offset=8) for place in places]).astype(np.intp)
        capitals += np.repeat(spans[:, 0], [(len(place) - 8) // 2 for place in places])
        raw = np.frombuffer(lines, np.uint8).copy()
        raw[capitals] -= 32
        text = raw.tobytes()
        for j, (start, end) in zip(where, spans.tolist()):
            out[j] = text[start:end].decode("utf-8", "surrogatepass")
    return out


def packed_apart(papers: list[Paper]) -> None:
    """The texts of a batch's `papers` that are not kept as their lines (`kept_as_lines`: ~11% of abstracts, a capital beyond
    ASCII, spacing, markup...) kept compressed together (`store.papers.packed`): at 100,000 abstracts ~33 MB as strings, ~12 MB
    so; and the chunks a parse packed the texts in (~40 MB) are let go of batch by batch, as their texts are kept anew."""
    rest = [paper for paper in papers if type(kept_text(paper)) is not Cased]
    if rest:
        chunk = Chunk.of([paper.text for paper in rest])
        for at, paper in enumerate(rest):
            keep_text(paper, Packed(chunk, at))
