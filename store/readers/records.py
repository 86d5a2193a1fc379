"""Turning source records into `Paper`s, a chunk at a time (their repeats are `store.readers.uniques`'s).

What a paper's text needs computed — id, display text, derived title and name, links — is
the bulk of parsing; for long lists (`PARALLEL_FROM` abstracts and more) it runs in worker
processes, one per core, and the readers only assemble the results. Who wants to show how far
a long parse is sets a callback with `reporting` (see `Progress`).

Over 400 lines, and kept whole: the worker processes, the chunks they are sent and the packed texts they send back
are one piece with the records they make (what becomes of those papers, repeats and all, is `store.readers.uniques`'s,
and a long list's are written to its cache entries as they come: `store.readers.entry_writer`)."""
from __future__ import annotations

import os
import re
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence, Set as AbstractSet
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from functools import lru_cache, partial
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar
from urllib.parse import urlsplit

from store.common import heap
from store.common.ahead import in_order
from store.common.collector import collector_paused
from store.papers.inert import inert, inert_value
from store.papers.model import Paper, built, identity, keep_text, kept_text, paper_id, text_check
from store.readers.identifiers import arxiv_id, bare_doi
from store.papers.text import plain_form

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

_T = TypeVar("_T")
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
_SHORT_NAME = re.compile(r"^(\S{1,30}):\s")


def year_of(value: object) -> int | None:
    """The first plausible year (1800-2099) in a value such as 2024, '2024-05-01' or 'May 2024'."""
    match = _YEAR.search(str(value))
    return int(match.group(1)) if match else None


# A track named at the end of a venue: 'ICLR 2024 oral', 'ICML 2024 Poster', 'NeurIPS 2023 (Spotlight)'.
_TRACK = re.compile(r"[\s,;:·\-–—(\[]+(oral|spotlight|poster)s?[)\]]?\s*$", re.IGNORECASE)


def split_authors(text: str) -> list[str]:
    """The names in one string of authors: 'A. One; B. Two', 'A. One, B. Two and C. Three' (arXiv),
    'One, A. and Two, B.' (BibTeX's order, a comma inside each name)."""
    if ";" in text:
        parts = text.split(";")
    else:
        parts = re.split(r"\s+and\s+", text)
        if len(parts) == 1 or any(part.count(",") != 1 for part in parts):
            parts = [name for part in parts for name in part.split(",")]
    return [name for name in (" ".join(part.split()) for part in parts) if name and name.casefold() != "and"]


def pdf_like(url: str) -> bool:
    """Whether a link is to a PDF: its path ends in .pdf, or is /pdf or /pdf/… (arXiv, OpenReview)."""
    if "pdf" not in url.casefold():  # (most links: no need to split them, ~10 µs each)
        return False
    path = urlsplit(url).path.casefold()
    return path.endswith(".pdf") or path == "/pdf" or path.startswith("/pdf/")


@lru_cache(maxsize=256)
def venue_parts(venue: str) -> tuple[str, str, int | None]:
    """(the venue without its track, the track in lower case or '', the year it names or None).
    Only a venue with a year has a track: 'Workshop on Posters' is a name."""
    match = _TRACK.search(venue)
    year = year_of(venue[: match.start()] if match else venue)
    if match and year is not None:
        return venue[: match.start()], match.group(1).lower(), year
    return venue, "", year


class Analysis(NamedTuple):
    """What is computed from an abstract's text alone."""

    id: str
    check: int
    """`store.papers.model.text_check` of the text: it tells two texts of one id apart (`store.readers.uniques`)."""
    plain: str | bytes | None
    """What a paper keeps of its display text (`store.papers.text.plain_form`): None when it is the text itself."""
    title: str
    name: str
    links: tuple[str, ...]


PARALLEL_FROM = 20_000
FORK_MOST = 100_000
"""The most texts analysed by forked workers, which are sent none (they inherit them, so all are read first: at
1,000,000 arXiv records that and their records were GBs); a longer list's are sent theirs a few chunks ahead."""
CHUNK = 2_048
"""Abstracts a worker process analyses at a time."""
START = "spawn"
"""How worker processes start where forking is not safe (other threads run): a process that has a
forkserver running with this module loaded (the app, see `tui.processes.behind_the_list`) makes it "forkserver"."""
ENDED = False
"""Set when the worker processes are ended on purpose (a quit: `tui.processes.ended`): the parse then ends with them
(`BrokenProcessPool`) rather than doing the rest in this process, which took the cores from the app's own ending."""

NICENESS = 10
"""How much less a worker process is given the CPU than the process it works for (`worker_pool`): that one's
own work (the app's keys, the papers made of what the workers send) goes first."""


def worker_pool(workers: int, start: str) -> ProcessPoolExecutor:
    """A pool of `workers` processes started by `start` ("fork", "forkserver", "spawn"), each `NICENESS` behind and
    ended with the process that started it (`_worker_started`)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # (a forked or spawned worker's parent is this process; a fork server's are the server's: `FORK_SERVER`)
    parent = None if start == "forkserver" else os.getpid()
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(start), initializer=_worker_started,
                               initargs=(parent,))


_PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process is sent when the one that started it ends."""
FORK_SERVER = "TRIAGE_FORK_SERVER"
"""The variable a fork server sets to its own process (`tui.fork_server`), which the workers forked from it inherit:
the parent a worker of a pool started by "forkserver" checks it still has (`_worker_started`)."""


def _worker_started(parent: int | None) -> None:
    """In a new worker: `NICENESS` behind, and ended with the process that started it (`ending_with_parent`: a command
    killed while it parses left its forked workers blocked for good writing to their results pipe, whose read end
    each of them holds too; the app's are the fork server's, which ends with the app: tui.fork_server)."""
    os.nice(NICENESS)
    # (a fork server's worker that asked only after the server ended stayed: the app killed right as it forked)
    ending_with_parent(parent if parent is not None else int(os.environ.get(FORK_SERVER, "0")) or None)


def ending_with_parent(parent: int | None) -> None:
    """This process is sent SIGTERM when the process that started it ends, however it ends (Linux's
    PR_SET_PDEATHSIG; elsewhere nothing changes); if that one, `parent` (when known), has ended already, it ends now."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)  # (the C library's, in the process already)
    except (OSError, AttributeError):  # not Linux: as before
        return
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


Progress = Callable[[str, int], None]
"""Called with a file's name and how many of its abstracts are analysed so far: 0 when reading starts."""
_PROGRESS: ContextVar[Progress | None] = ContextVar("progress", default=None)


@contextmanager
def within(var: ContextVar[_T | None], value: _T) -> Iterator[_T]:
    """Within the block (on this thread), `var` is `value`, which the block is given."""
    token = var.set(value)
    try:
        yield value
    finally:
        var.reset(token)


def reporting(progress: Progress) -> AbstractContextManager[Progress]:
    """Within the block, reading a file calls `progress` as it goes (on this thread)."""
    return within(_PROGRESS, progress)


def report(name: str, done: int) -> None:
    """Tell the `reporting` callback, if any, that `done` abstracts of file `name` are analysed."""
    progress = _PROGRESS.get()
    if progress is not None:
        progress(name, done)


def analyse(texts: Sequence[str], packed: bool = False, named: AbstractSet[int] = frozenset()) -> Any:
    """The analysis of each (stripped) abstract text, in one process. With `packed`: (the analyses, the texts
    compressed, `store.papers.packed.Chunk`). The texts at the indices `named` are of records that name themselves
    (`own_name`): no title nor name is derived from them (their paper would use neither: ~100 µs an abstract)."""
    from store.papers.names import derive_title  # (here: reading a cached list needs no name finder)

    out = []
    for at, text in enumerate(texts):
        shown, plain = plain_form(text)
        title, name = derive_title(shown.plain) if text and at not in named else ("", "")
        out.append(Analysis(*identity(text), plain, title, name, shown.links))
    if not packed:
        return out
    from store.papers.packed import Chunk

    return out, Chunk.of(list(texts))


_PACKING: ContextVar[bool] = ContextVar("packing", default=False)


def packing() -> AbstractContextManager[bool]:
    """Within the block, a parse this thread runs on worker processes has them compress the texts of its papers,
    which keep them so until they are read (`store.papers.packed`: ~100 MB less at 100,000 abstracts)."""
    return within(_PACKING, True)


class Sent:
    """Texts for a worker process (None for no text), pickled as UTF-8 as they are sent: pickling a string beyond
    ASCII leaves a UTF-8 copy of it in the string for good (CPython keeps it: at 100,000 abstracts, ~20 MB of the
    app's memory beside the texts). The worker is given the list of strings, and the indices of those `named`
    (see `analyse`)."""

    __slots__ = ("texts", "named")

    def __init__(self, texts: list[str | None], named: frozenset[int] = frozenset()) -> None:
        self.texts, self.named = texts, named

    def __reduce__(self) -> tuple[Callable[..., tuple[list[str | None], frozenset[int]]], tuple[list[bytes | None], frozenset[int]]]:
        return _received, ([None if text is None else text.encode("utf-8", "surrogatepass") for text in self.texts], self.named)


def _received(encoded: list[bytes | None], named: frozenset[int]) -> tuple[list[str | None], frozenset[int]]:
    return [None if text is None else text.decode("utf-8", "surrogatepass") for text in encoded], named


def _analyse_sent(sent: tuple[list[str], frozenset[int]], packed: bool) -> Any:
    return analyse(sent[0], packed, sent[1])


def _named_in(named: AbstractSet[int], start: int, count: int) -> frozenset[int]:
    """The indices within a chunk of `count` texts from `start` of those `named` (positions of all the texts)."""
    return frozenset(at - start for at in range(start, start + count) if at in named) if named else frozenset()


# The texts being analysed, for worker processes forked while they are set: each reads its
# chunk from here (fork shares the parent's memory), so only the chunk's bounds are sent.
_INHERITED: Sequence[str] = ()


def _analyse_inherited(bounds: range, named: frozenset[int], packed: bool) -> Any:
    return analyse(_INHERITED[bounds.start : bounds.stop], packed, named)


def analysed(texts: Iterable[str], name: str = "", named: AbstractSet[int] = frozenset()) -> Iterator[tuple[list[Analysis], Any]]:
    """`analyse(texts)` in chunks of `CHUNK` texts, in order, each as soon as it is done: split over
    worker processes when there are many texts and several cores. `texts` may be read as they are
    analysed (a long file split into abstracts): a started worker is sent each chunk as soon as it is
    read, while the next ones are. Progress is reported (see `reporting`) under the file's `name` after
    every chunk. With each chunk, its texts compressed by its worker (within `packing`: a
    `store.papers.packed.Chunk`), else None. `named` holds the positions of the texts whose records name themselves
    (`analyse`), each there by the time its text is read."""
    global _INHERITED
    source = iter(texts)
    head = list(islice(source, PARALLEL_FROM))
    chunking = _chunked(head, source)
    sent: list[list[str]] = []  # the chunks given to the workers, in order
    done = analysed_texts = 0  # the chunks yielded, and their texts
    packed = _PACKING.get()
    if len(head) >= PARALLEL_FROM and (os.cpu_count() or 1) >= 2:
        import multiprocessing  # (here: a list read from its parse entry, as most are, imports none of it: ~0.03 s)
        from concurrent.futures.process import BrokenProcessPool

        # fork is quick and shares the parent's memory, but only safe while no other thread runs, and its workers read
        # their texts from what they inherit: all are read first, so only a list of at most `FORK_MOST` texts is.
        fork = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
        if fork:
            head += islice(source, FORK_MOST - len(head) + 1)
            fork = len(head) <= FORK_MOST
        try:
            with worker_pool(os.cpu_count() or 1, "fork" if fork else START) as pool:
                if fork:  # a forked worker reads its chunk from the texts it inherits: all are read first
                    sent = list(chunking)
                    _INHERITED = [text for chunk in sent for text in chunk]
                    parts = pool.map(partial(_analyse_inherited, packed=packed),
                                     [range(i * CHUNK, i * CHUNK + len(chunk)) for i, chunk in enumerate(sent)],
                                     [_named_in(named, i * CHUNK, len(chunk)) for i, chunk in enumerate(sent)])
                else:  # a started worker holds nothing: it is sent its texts, a few chunks ahead (`in_order`)
                    # (a long file is read only so far ahead of the papers made of it: read whole at once, every text waited
                    # as a string for its analysis, ~150 MB at 100,000 abstracts, the peak of a read within `packing`)
                    work = partial(_analyse_sent, packed=packed)
                    parts = in_order(pool, work, (Sent(chunk, _named_in(named, i * CHUNK, len(chunk)))
                                                  for i, chunk in enumerate(_recorded(chunking, sent))))
                for part in parts:
                    analysed_texts += len(sent[done])
                    sent[done] = []  # (its texts are let go of with their papers': kept compressed, within `packing`)
                    done += 1
                    report(name, analysed_texts)
                    yield part if packed else (part, None)
        except (OSError, BrokenProcessPool):  # no processes allowed here: the rest in this one
            if ENDED:
                raise
        finally:
            _INHERITED = ()
    for chunk in chain(sent[done:], chunking):
        part = analyse(chunk, named=_named_in(named, analysed_texts, len(chunk)))
        analysed_texts += len(chunk)
        report(name, analysed_texts)
        yield part, None


def _recorded(chunks: Iterable[list[str]], sent: list[list[str]]) -> Iterator[list[str]]:
    """Each of `chunks`, added to `sent` as it is taken."""
    for chunk in chunks:
        sent.append(chunk)
        yield chunk


def _chunked(head: list[str], rest: Iterator[str]) -> Iterator[list[str]]:
    """The texts of `head` and then `rest`, `CHUNK` at a time (the last chunk may be shorter)."""
    texts = chain(head, rest)
    while chunk := list(islice(texts, CHUNK)):
        yield chunk


class Made(list):  # type: ignore[type-arg]
    """A chunk of papers as `make_papers` makes them, with the `text_check` of what each one's id was made of (its
    text's, worked out by the workers with the id: `store.readers.uniques` tells two texts of one id apart by it)."""

    __slots__ = ("checks",)

    def __init__(self, papers: list[Paper], checks: list[int]) -> None:
        super().__init__(papers)
        self.checks = checks


def make_papers(records: Iterable[dict[str, Any]]) -> Iterator[Made]:
    """Papers from records, a chunk at a time (`Made`): each record a dict of `make_paper`'s arguments, positions
    numbered in order. `records` may be read as the papers are made (see `analysed`), and each chunk let go once the next is asked
    for (`store.readers.uniques.papers_of`: a long list's may be handed on as they come)."""
    records = iter(records)
    first = next(records, None)
    if first is None:
        return
    read: deque[dict[str, Any]] = deque()  # the records whose texts `analysed` has taken, each let go of once made
    named: set[int] = set()  # the positions of those that name themselves

    def texts() -> Iterator[str]:
        for at, record in enumerate(chain([first], records)):
            read.append(record)
            if own_name(record.get("title", "")):
                named.add(at)
            yield record["text"].strip()

    start = 0
    # Papers are made from each chunk as it arrives, while the workers go on with the next ones.
    for n, (part, packed) in enumerate(analysed(texts(), first["source"], named), 1):
        with collector_paused():
            chunk = [read.popleft() for _ in part]
            if all(map(_BARE.issuperset, chunk)):
                papers = bare_papers(chunk, part, start)
                checks = [analysis.check for analysis in part]
            else:
                papers = [make_paper(**record, analysis=analysis, position=start + i)
                          for i, (record, analysis) in enumerate(zip(chunk, part))]
                # (a paper of no text: its id is its title's, or its key's: `make_paper`)
                checks = [analysis.check if record["text"].strip() else text_check(record.get("title", "") or record.get("key", ""))
                          for record, analysis in zip(chunk, part)]
            if packed is not None:
                _packed(papers, chunk, packed)
                if n % _TRIM_EVERY == 0:
                    heap.give_back()  # (the strings freed lie between what is kept: later ones would not reuse all of it)
        start += len(papers)
        yield Made(papers, checks)


_TRIM_EVERY = 8
"""Chunks whose texts are packed between two returns of the memory freed to the system (`store.common.heap`)."""


def _packed(papers: list[Paper], records: list[dict[str, Any]], chunk: Any) -> None:
    """Have each of `papers`, made of `records`, keep its text as its place in `chunk` (`store.papers.packed`: their texts
    compressed), when it keeps the very text the record gave (not one made inert, `store.papers.boundary`)."""
    from store.papers.packed import Packed

    for at, (paper, record) in enumerate(zip(papers, records)):
        if kept_text(paper) is record["text"].strip():  # (the very string: `strip` gives it back when it strips nothing)
            keep_text(paper, Packed(chunk, at))


_BARE = frozenset(("text", "source", "line", "venue", "year"))
"""The fields of a record that is an abstract alone (the seed format's): `bare_papers` makes its paper."""


def bare_papers(records: list[dict[str, Any]], analyses: list[Analysis], start: int) -> list[Paper]:
    """The papers `make_paper` makes of `records` that give no more than `_BARE`'s fields, each with its text's
    analysis, numbered from `start`: in about a third of its time (a long seed list's 100,000 abstracts, on the
    thread that waits for them: ~0.5 s less), as `store.papers.model.built` makes papers."""
    texts = [record["text"].strip() for record in records]
    venues = [venue_parts(record.get("venue", "")) for record in records]
    count = len(records)
    links = [analysis.links for analysis in analyses]
    return built([
        [analysis.id if text else paper_id(text) for text, analysis in zip(texts, analyses)],
        [text if analysis.plain is None else inert(text) for text, analysis in zip(texts, analyses)],
        [text if analysis.plain is None else analysis.plain for text, analysis in zip(texts, analyses)],
        [analysis.title for analysis in analyses], [analysis.name for analysis in analyses],
        [_inert_shared(venue) for venue, _, _ in venues],
        [record.get("year") if record.get("year") is not None else year for record, (_, _, year) in zip(records, venues)],
        [()] * count, links, [_inert_shared(record["source"]) for record in records],
        [record["line"] for record in records], range(start, start + count), [""] * count, [()] * count,
        [next(filter(pdf_like, found), "") for found in links], [track for _, track, _ in venues],
        [()] * count, [""] * count, [""] * count, [""] * count, [""] * count,
    ])


def make_paper(
    text: str,
    *,
    source: str,
    line: int,
    position: int = 0,
    title: str = "",
    authors: Iterable[str] = (),
    venue: str = "",
    year: int | None = None,
    urls: Iterable[str] = (),
    pdf: str = "",
    key: str = "",
    fields: Iterable[tuple[str, str]] = (),
    keywords: Iterable[str] = (),
    tldr: str = "",
    area: str = "",
    track: str = "",
    doi: str = "",
    arxiv: str = "",
    analysis: Analysis | None = None,
) -> Paper:
    """A paper from its abstract `text` (may be empty when `title` is given) and what else the record says.

    A record without a true `title` gets one derived from its text; the name is taken from a
    true title of the form "NAME: ..." or else derived from the text. A track at the end of the
    venue ('ICLR 2024 oral') is kept apart (`Paper.track`), and a record without a year takes the
    venue's ('ICLR 2024'). Links are the record's own `urls` (its url, doi link, `pdf`) followed by
    the URLs in the text; `pdf` is the record's PDF link, else the first link to a .pdf. A `track`
    the record names itself wins over the venue's; `doi` and `arxiv` are kept bare (`bare_doi`,
    `arxiv_id`), keywords each once. `analysis` is `analyse([text])[0]` when the caller has it already."""
    text = text.strip()
    analysis = analysis or analyse([text])[0]
    # Every string the record gives is made inert here (`store.papers.boundary`); what the analysis makes of the
    # text (the display text, its links, a title and name derived from it) is inert already, and so is a
    # text that is its own display text.
    shown_title = title and inert(title)
    name = own_name(shown_title) or analysis.name
    venue, venue_track, venue_year = venue_parts(venue)
    links = analysis.links  # each once already
    own = [inert(u.strip()) for u in (*urls, pdf) if u and u.strip()]
    if own:
        links = tuple(dict.fromkeys((*own, *links)))
    pdf = pdf.strip()
    pdf = inert(pdf) if pdf else next(filter(pdf_like, links), "")
    keywords = tuple(dict.fromkeys(k for k in (" ".join(k.split()) for k in keywords) if k))
    authors, fields = tuple(filter(None, authors)), tuple(fields)
    track, tldr, area = " ".join(track.split()).lower() or venue_track, tldr.strip(), " ".join(area.split())
    return Paper(
        id=analysis.id if text else paper_id(title or key),
        text=text if analysis.plain is None else inert(text),
        plain=text if analysis.plain is None else analysis.plain,
        title=shown_title or analysis.title,
        name=name,
        venue=_inert_shared(venue),
        year=year if year is not None else venue_year,
        authors=inert_value(authors) if authors else authors,
        links=links,
        source=_inert_shared(source),
        line=line,
        position=position,
        key=key and inert(key),
        fields=inert_value(fields) if fields else fields,
        pdf=pdf,
        track=_inert_shared(track),
        keywords=inert_value(keywords) if keywords else keywords,
        tldr=tldr and inert(tldr),
        area=_inert_shared(area),
        doi=inert(bare_doi(doi)) if doi else "",
        arxiv=inert(arxiv_id(arxiv)) if arxiv else "",
    )


def own_name(title: str) -> str:
    """The name a record's true title gives its paper, "NAME: ..." ('' for none): then nothing its text says is
    used for the paper's title and name."""
    short = _SHORT_NAME.match(inert(title)) if title else None
    return short.group(1) if short else ""


@lru_cache(maxsize=1024)
def _inert_shared(value: str) -> str:
    """`inert(value)` of a string many records share (the file's name, a venue, a track, an area), worked out once."""
    return inert(value)
