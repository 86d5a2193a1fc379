"""Literal phrases (`"graph neural"`, `'Exact`): which papers hold one, and how often.

`Phrases` counts a phrase in the texts of an index's papers as a phrase is looked for in them: the
display texts and the titles with names, lower-cased with single spaces (`Lowered`: a batch of papers
at a time, never as one string per paper: ~150 MB rather than ~200 MB at 100,000 papers; compressed
from `COMPRESS_FROM` papers). It counts a phrase from what it keeps of each text when that answers it: one letter,
digit or `_` (`"n`) from the counts of those in each text, a longer run of them (`"ne`) from the
postings of the words holding it (`counted`); else in the texts of the candidates the index narrowed
it to, and to the papers holding its characters beyond ASCII (`"α`), a batch at a time or, when they
are few, each lowered anew (`in_texts`). `lowered_batch` makes a batch's part of `Lowered`;
`literal_pattern` is a phrase's regex. Scoring what they find is the index's (store.search.index).
"""
from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import zstandard

from store.common import heap
from store.search.as_lines import displays, kept_as_lines, packed_apart
from store.search.index_build import THREADS, Postings
from store.search.words import BATCH, TF_BITS, TF_MAX
from store.papers.model import Paper, kept_name, kept_title, single_spaced
from store.search.query import Term
from store.search.vocabulary import WORD

LETTERS = "0123456789_abcdefghijklmnopqrstuvwxyz"
"""The ASCII word characters of lower-cased text, whose count in each display text `Lowered` keeps."""
_COLUMN = np.full(256, len(LETTERS), dtype=np.intp)  # byte → its row of `Lowered.letters`; other bytes → none
_COLUMN[np.frombuffer(LETTERS.encode(), np.uint8)] = np.arange(len(LETTERS))
_SATURATED = np.iinfo(np.uint16).max  # a count kept as this many or more is counted in the text
COMPRESS_FROM = 200_000
"""Lists of this many papers and more keep the lowered texts compressed (~3.3x smaller); shorter ones
plainly, as UTF-8 (at 100,000 abstracts ~150 MB, not 42), as a common phrase must otherwise
decompress them all: at 100,000 `"neural network"` took ~180 ms compressed, ~45 ms plainly (the aim
of a query at that size is 100 ms)."""
_FEW = 16  # at most 1/_FEW of the papers to count in: counted one by one (lowered anew when compressed, ~5 µs each)
_BEYOND_ASCII = re.compile(r"[^\x00-\x7f]")
_SLICE = 1 << 17  # bytes of a batch's text counted at a time (`_letter_counts`)
_LEVEL = 3  # zstd's: a batch of ~1.4 MB of text in ~10 ms to ~0.4 MB, back in ~1.5 ms
_TRIM_EVERY = 8  # batches made between two returns of the memory freed to the system (`_batches`)
_local = threading.local()  # a zstd (de)compressor per thread: one is not to be shared between threads


@cache
def _counting_pool() -> ThreadPoolExecutor:
    """The threads counting in many batches (made once: starting them costs more than a short count)."""
    return ThreadPoolExecutor(THREADS, thread_name_prefix="phrases")


def _decompressor() -> zstandard.ZstdDecompressor:
    if not hasattr(_local, "decompressor"):
        _local.decompressor = zstandard.ZstdDecompressor()
    return _local.decompressor


class Lowered:
    """The texts phrases are looked for in, of an index's `papers`: a batch of `BATCH` papers at a time,
    its display texts then its heads (titles with names), lower-cased with single spaces, one a line
    (they hold no line break), as UTF-8 (`chunks`; compressed with zstd from `COMPRESS_FROM` papers); the count of each of `LETTERS`
    in each display text (`letters[row of the letter, paper]`, at most `_SATURATED`); and which papers
    hold each character beyond ASCII in either (`chars`, sorted, and their papers in `wide`).

    A built index makes it all from the papers when first needed (`made`); an index loaded from the
    cache, which keeps all but the chunks (they would double the entry's size), makes the chunks then."""

    def __init__(self, papers: list[Paper], letters: np.ndarray, chars: np.ndarray, wide: Postings,
                 chunks: list[bytes] | None = None) -> None:
        """ValueError when `letters`, `chars` and `wide` are not those of as many papers."""
        if letters.dtype != np.uint16 or letters.shape != (len(LETTERS), len(papers)):
            raise ValueError("letter counts of another shape")
        if chars.dtype != np.uint32 or chars.ndim != 1 or np.any(np.diff(chars.astype(np.int64)) <= 0):
            raise ValueError("characters of another shape")
        self.letters = letters
        self.chars = chars
        self.wide = Postings.checked(wide.bounds, wide.values, len(chars), len(papers))
        self._papers = papers
        self.compressed = compressed(len(papers))
        self._chunks = None if chunks is None else self._kept(chunks)
        self._lock = threading.Lock()

    @classmethod
    def joined(cls, papers: list[Paper], batches: list[tuple[bytes, np.ndarray, np.ndarray]]) -> Lowered:
        """The `Lowered` of `papers` from the batches `lowered_batch` made of them, in order."""
        letters = np.concatenate([counts for _, counts, _ in batches], axis=1) if batches else np.zeros((len(LETTERS), 0), np.uint16)
        pairs = np.unique(np.concatenate([np.zeros(0, np.uint64)] + [held + np.uint64(start) for start, (_, _, held)
                                                                     in zip(range(0, len(papers), BATCH), batches)]))
        codes = (pairs >> np.uint64(32)).astype(np.uint32)
        chars, first = np.unique(codes, return_index=True)
        wide = Postings(np.append(first, len(codes)).astype(np.int64), (pairs & np.uint64(0xFFFFFFFF)).astype(np.uint32))
        return cls(papers, letters, chars, wide, [chunk for chunk, _, _ in batches])

    def _kept(self, chunks: list[bytes]) -> list[bytes] | list[tuple[bytes, np.ndarray]]:
        """The batches as kept: compressed, or (a shorter list) each with where its lines end, found once
        rather than for each phrase (a batch split into a bytes object a line would hold twice as much)."""
        return chunks if self.compressed else [(chunk, _line_ends(chunk)) for chunk in chunks]

    @classmethod
    def made(cls, papers: list[Paper]) -> Lowered:
        """The `Lowered` of `papers`, made from them (~5 s of CPU at 100,000 papers, on two threads)."""
        return cls.joined(papers, _batches(papers, compressed(len(papers)), counted=True))

    def chunks(self) -> list[bytes] | list[tuple[bytes, np.ndarray]]:
        """The batches (see `_kept`), made now if they are not yet (~1.5 s of CPU at 100,000 papers, on two threads)."""
        with self._lock:
            if self._chunks is None:
                self._chunks = self._kept([chunk for chunk, _, _ in _batches(self._papers, self.compressed, counted=False)])
            return self._chunks

    def holding(self, needle: str) -> np.ndarray | None:
        """The papers whose display text or head holds every character of `needle` beyond ASCII (lowered
        as they are), or None when it holds none: the only ones that can hold `needle`."""
        wide = {ord(c) for c in needle if ord(c) > 127}
        if not wide:
            return None
        found = np.ones(len(self._papers), dtype=bool)
        for char in wide:
            at = int(np.searchsorted(self.chars, char))
            holds = np.zeros(len(self._papers), dtype=bool)
            if at < len(self.chars) and self.chars[at] == char:
                holds[self.wide[at]] = True
            found &= holds
        return found

    def count(self, in_texts: np.ndarray, in_heads: np.ndarray, needle: str) -> tuple[np.ndarray, np.ndarray]:
        """How often `needle` occurs in the heads of the papers `in_heads` and in the display texts of
        `in_texts` (masks over all papers; 0 for the others). A batch at a time (compressed ones on two
        threads: zstd lets go of the GIL); a batch that does not hold it is passed over, one with few
        candidates counted line by line, any other by where it occurs and where its lines end."""
        key = needle.encode("utf-8", "surrogatepass")  # counted in the UTF-8 as in the text, but for ""
        total = len(in_texts)
        heads, texts = np.zeros(total), np.zeros(total)
        wanted = in_texts | in_heads
        chosen = np.flatnonzero(wanted)
        if self.compressed and len(chosen) <= total // _FEW:  # few: lowered one by one, not a batch decompressed for each
            papers = self._papers
            for i in chosen.tolist():
                if in_texts[i]:
                    texts[i] = lower(papers[i].plain).count(needle)
                if in_heads[i]:
                    heads[i] = lower(head(papers[i])).count(needle)
            return heads, texts
        chunks = self.chunks()

        def counted(start: int) -> None:
            if self.compressed:
                raw = _decompressor().decompress(chunks[start // BATCH])
                ends = None
            else:
                raw, ends = chunks[start // BATCH]
            if key not in raw:  # no line holds it (it holds no line break)
                return
            papers = min(BATCH, total - start)
            if key and ends is not None and np.count_nonzero(wanted[start : start + papers]) <= papers // _FEW:
                bounds = np.concatenate(([-1], ends, [len(raw)])).tolist()  # few lines to count in: each alone
                for chosen, first, found in ((in_texts, 0, texts), (in_heads, papers, heads)):
                    for i in np.flatnonzero(chosen[start : start + papers]).tolist():
                        found[start + i] = raw.count(key, bounds[first + i] + 1, bounds[first + i + 1])
                return
            if key:  # where it occurs, told to the lines holding it: the batch is not split into lines
                ends = _line_ends(raw) if ends is None else ends
                times = np.bincount(np.searchsorted(ends, occurrences(raw, key)), minlength=len(ends) + 1)
            else:  # "" is in a text once more than it has characters
                times = np.array([len(line) + 1 for line in raw.decode("utf-8", "surrogatepass").split("\n")])
            if len(times) != 2 * papers:
                raise ValueError("lowered texts damaged")
            for chosen, first, found in ((in_texts, 0, texts), (in_heads, papers, heads)):
                at = np.flatnonzero(chosen[start : start + papers])
                found[start + at] = times[first + at]

        starts = [start for start in range(0, total, BATCH) if wanted[start : start + BATCH].any()]
        if self.compressed and len(starts) > THREADS:  # (decompressing lets go of the GIL; counting hardly)
            list(_counting_pool().map(counted, starts))
        else:  # (on this thread)
            for start in starts:
                counted(start)
        return heads, texts


def _line_ends(raw: bytes) -> np.ndarray:
    """Where each line of a batch but the last ends (its line breaks)."""
    return np.flatnonzero(np.frombuffer(raw, np.uint8) == 10).astype(np.uint32)


def occurrences(raw: bytes, key: bytes) -> list[int]:
    """Where `key` starts in `raw`, counted as `bytes.count` counts it: from the left, no overlaps."""
    found, step = [], len(key)
    at = raw.find(key)
    while at != -1:
        found.append(at)
        at = raw.find(key, at + step)
    return found


def compressed(papers: int) -> bool:
    """Whether the lowered texts of this many papers are kept compressed: from `COMPRESS_FROM`."""
    return papers >= COMPRESS_FROM


def _batches(papers: list[Paper], compress: bool, counted: bool) -> list[tuple[bytes, np.ndarray | None, np.ndarray | None]]:
    """`lowered_batch` of each `BATCH` of `papers`, in order, on two threads; the papers of a batch kept plainly
    then keep their texts as their lines of it where they can (`kept_as_lines`: each batch's strings freed as it is
    made, not once all are, when the lowered texts of 100,000 were held beside the strings, ~110 MB more)."""
    def made(start: int) -> tuple[bytes, np.ndarray | None, np.ndarray | None]:
        batch = papers[start : start + BATCH]
        lowered = lowered_batch([p.plain for p in batch], [head(p) for p in batch], compress, counted)
        if not compress:
            kept_as_lines(batch, lowered[0], _line_ends(lowered[0]))
            packed_apart(batch)
            if start // BATCH % _TRIM_EVERY == _TRIM_EVERY - 1:
                heap.give_back()  # (the strings freed lie between others: the batches made next do not reuse their room)
        return lowered
    starts = range(0, len(papers), BATCH)
    try:
        with ThreadPoolExecutor(THREADS) as pool:
            batches = list(pool.map(made, starts))
    except RuntimeError:  # the interpreter is exiting (a cache writer it waits for): no new threads then
        batches = list(map(made, starts))
    heap.give_back()  # the lines lowered to make them, the strings of the texts now kept as lines (see store.common.heap)
    return batches


def lowered_batch(plains: list[str], heads: list[str], compress: bool,
                  counted: bool = True) -> tuple[bytes, np.ndarray | None, np.ndarray | None]:
    """A batch's part of `Lowered`: its display texts `plains` and its heads `heads`, `lower`ed (and compressed);
    and (when `counted`) the count of each of `LETTERS` in each lowered display text, and which of its
    papers hold which character beyond ASCII in either (as character << 32 | paper in the batch, sorted).
    Any thread may run it (compressing lets go of the GIL)."""
    lines = [lower(text) for text in plains] + [lower(text) for text in heads]
    # (each line encoded alone: joined first, one character beyond U+FFFF made the batch 4 bytes a character)
    encoded = [line.encode("utf-8", "surrogatepass") for line in lines]
    texts = b"\n".join(encoded[: len(plains)])
    raw = texts + b"\n" + b"\n".join(encoded[len(plains) :])
    del encoded
    # (copied: the compressor's bytes keep the room it allocated, about as much as `raw`)
    chunk = bytes(memoryview(zstandard.ZstdCompressor(level=_LEVEL, write_checksum=True).compress(raw))) if compress else raw
    if not counted:
        return chunk, None, None
    counts = _letter_counts(texts, len(plains)).reshape(len(plains), len(LETTERS)).T
    letters = np.minimum(counts, _SATURATED).astype(np.uint16, order="C")  # (a row a letter, as `Lowered` keeps them)
    held = {ord(char) << 32 | k % len(plains) for k, text in enumerate(lines) if not text.isascii()
            for char in set(_BEYOND_ASCII.findall(text))}
    return chunk, letters, np.unique(np.fromiter(held, np.uint64, len(held)))


def _letter_counts(texts: bytes, lines: int) -> np.ndarray:
    """How often each of `LETTERS` is in each of the `lines` lines of `texts` (line by line, a row of
    counts a line), counted `_SLICE` bytes at a time: a batch's arrays of a number a byte would be
    ~40 MB at once (two batches at a time in a build)."""
    counts = np.zeros(lines * len(LETTERS), np.int64)
    data = np.frombuffer(texts, np.uint8)
    before = 0  # lines ended before the slice
    for start in range(0, len(data), _SLICE):
        part = data[start : start + _SLICE]
        line = np.cumsum(part == 10) + before  # of each byte (UTF-8: a byte below 128 is that very character)
        before = int(line[-1])
        column = _COLUMN[part]
        kept = column < len(LETTERS)
        counts += np.bincount(line[kept] * len(LETTERS) + column[kept], minlength=len(counts))
    return counts


def head(paper: Paper) -> str:
    """A paper's title with its name: where a phrase counts as in the title (as far as they are known: an
    index made before its papers' titles were derived has them once it is `retitled`)."""
    return f"{kept_title(paper)} {kept_name(paper)}"


def lower(text: str) -> str:
    """`text` as a phrase is looked for in it: lower-cased with single spaces."""
    return flat(text.lower())


@dataclass(slots=True, eq=False, repr=False)  # compared or shown whole, it would be huge
class Phrases:
    """The literal side of an index of `papers`: `words` (word → id) and the `body` and `title`
    postings are the index's; `lowered` the texts phrases are looked for in."""

    papers: list[Paper]
    words: dict[str, int]
    body: Postings
    title: Postings
    kept: Lowered | None
    """The lowered texts as the cache gave them, or None: made from the papers when first needed (`lowered`)."""
    _lowered_words: tuple[str, np.ndarray] | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    _making: threading.Lock = field(default_factory=threading.Lock, init=False)

    @property
    def lowered(self) -> Lowered:
        """The texts phrases are looked for in (`Lowered`): a built index's are made the first time they are
        needed (by `ready`, which the app calls once search is ready, not by the build it waits for)."""
        with self._making:
            if self.kept is None:
                self.kept = Lowered.made(self.papers)
            return self.kept

    def ready(self) -> None:
        """Work out now what the first phrase typed would otherwise: the vocabulary lower-cased, and the
        lowered texts (a built index's: ~5 s of CPU at 100,000 papers; an index loaded from the cache
        keeps all but their texts: ~1.5 s), which the app spends on its index thread once search is
        ready, not on the build before it nor on the first phrase typed."""
        self._lower_words()
        self.lowered.chunks()

    def in_texts(self, term: Term, pattern: re.Pattern[str], in_body: np.ndarray,
                 in_title: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(in the title or not, times in the display text) of each paper for `term` (smart case,
        its `pattern` when cased), counted in the texts of the candidates `in_body` and `in_title`."""
        title = np.zeros(len(self.papers))
        counts = np.zeros(len(self.papers))
        if term.case_sensitive:
            def count(texts: list[str]) -> list[int]:
                return [len(pattern.findall(text)) for text in texts]
            every = self.papers
            chosen = np.flatnonzero(in_title).tolist()
            title[chosen] = np.array(count([f"{kept_title(every[i])}\n{kept_name(every[i])}" for i in chosen])) > 0
            chosen = np.flatnonzero(in_body).tolist()
            counts[chosen] = count(displays(every, chosen))
            return title, counts
        # counted in lower-cased text with single spaces: C speed, no regex per paper
        needle = lower(term.text)
        holding = self.lowered.holding(needle)
        if holding is not None:
            in_body, in_title = in_body & holding, in_title & holding
        heads, counts = self.lowered.count(in_body, in_title, needle)
        return np.minimum(heads, 1), counts

    def counted(self, needle: str) -> tuple[np.ndarray, np.ndarray] | None:
        """(in the title or not, times in the display text) of each paper for a lower-case needle of
        ASCII word characters (`"n`, `"ne`) without looking in the texts: for one character from its
        count in each text, for more from the postings of the words holding it; None for another needle.

        Exact: such a needle occurs only inside words (their lower-cased letters: lower-casing is
        letter by letter and never makes a word character of another), so a text holds it as often
        as the sum, over its words, of the word's count times the needle's count in the word; and a
        title holds it when a word of it does. Where a count reached its cap (a word's in the
        postings, a letter's in a text) the text is counted as before."""
        if not (needle.isascii() and WORD.fullmatch(needle) and needle == needle.lower()):
            return None
        ids, times = self._words_holding(needle)
        if len(needle) == 1:
            counts = self.lowered.letters[LETTERS.index(needle)].astype(np.float64)
            capped = np.flatnonzero(counts == _SATURATED)
        else:
            sizes = self.body.bounds[ids + 1] - self.body.bounds[ids]
            postings = self.body.of(ids)
            docs, tf = postings >> TF_BITS, postings & TF_MAX
            counts = np.bincount(docs, weights=tf * np.repeat(times, sizes), minlength=len(self.papers)).astype(np.float64)
            capped = np.unique(docs[tf == TF_MAX])
        if len(capped):
            wanted = np.zeros(len(self.papers), dtype=bool)
            wanted[capped] = True
            counts[capped] = self.lowered.count(wanted, np.zeros_like(wanted), needle)[1][capped]
        title = np.zeros(len(self.papers))
        title[self.title.of(ids)] = 1.0
        return title, counts

    def _words_holding(self, needle: str) -> tuple[np.ndarray, np.ndarray]:
        """The ids of the vocabulary words that hold `needle` once lower-cased, and how often each does
        (counted without overlaps, as str.count: over the words one a line, as in each word)."""
        joined, starts = self._lower_words()
        at = np.array([match.start() for match in re.finditer(re.escape(needle), joined)], dtype=np.intp)
        ids, times = np.unique(np.searchsorted(starts, at, side="right") - 1, return_counts=True)
        return ids.astype(np.intp), times.astype(np.float64)

    def _lower_words(self) -> tuple[str, np.ndarray]:
        """The vocabulary lower-cased, in word id order, one a line (no word holds a line break), and
        where each word starts (worked out once)."""
        with self._lock:
            if self._lowered_words is None:
                lowered = [word.lower() for word in self.words]
                starts = np.cumsum([0] + [len(word) + 1 for word in lowered[:-1]], dtype=np.intp)
                self._lowered_words = ("\n".join(lowered), starts)
            return self._lowered_words


def flat(text: str) -> str:
    """`text` with each run of whitespace made one space (the very text when it has them already)."""
    return text if single_spaced(text) else " ".join(text.split())


def literal_pattern(term: Term) -> re.Pattern[str]:
    """The literal text of a phrase or 'exact term as a regex; any run of spaces matches any."""
    body = r"\s+".join(re.escape(part) for part in term.text.split())
    return re.compile(body, 0 if term.case_sensitive else re.IGNORECASE)
