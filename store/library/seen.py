"""What is new: the file beside the database, `<database>.seen`, that says when the database first saw each
paper and when each list was last opened. A paper is new in a list when it was first seen since that list was
last opened (`is_new`: the one place that says what new means; a list never opened before is all new).

A paper is known by every identity it has (`identities`): its id (a hash of its abstract), and its arXiv id,
DOI, OpenReview id, and title with its first author's name. So a camera-ready version or an arXiv v2, whose
abstract (and so id) changed, is not new when any other of its identities was seen before; a bare abstract
with none of these is new once its text changes.

What is kept, in two files (`store.library.seen_files`: their formats, the order they are written in, the single
file of before carried over):

    <database>.seen, small:
     "opens": N                                  the opens counted so far
     "when": {"N": "2026-12-02T16:59:00Z"}       the time of each open that saw something first
     "opened": {list: N, ...}                    the open at which each list was last opened
     "read": {list: key, ...}                    the parse each list's papers were at that open, when known
     "later": {id: [[stage, version], ...]}      the later versions seen of each marked paper (`Seen.later`)
    <database>.seen.first, the identities (as 64-bit hashes: ~2 MB at 100,000 papers, 62 MB at 2,700,000):
     the hashes of the identities first seen at each Nth open

A list opened again with the very papers of its last open (the same parse of the same unchanged files: its `read`
key, `store.readers.list_key.read_key`) has nothing new, nothing arrived and nothing to see first: every identity of
its papers was seen then at the latest. Such an open only counts itself in the small file, without making each
paper's identities (0.8 s at 100,000 papers) nor reading or writing the identities file (~2.5 s with the whole
arXiv's, on a busy machine); the keys are forgotten whenever identities are (past `MOST_IDENTITIES`) or the identities file is
not the one the small file counts on. The identities are read only to look at papers (a list read anew, `Seen.new`,
`Seen.unseen`) and written only when some were seen first or forgotten, always before the small file that counts on
them: a crash between the two writes counts papers new again, never old unseen.

Opens are counted, not timed: two opens in one second, or a clock set back, still tell old from new. Both files are
written whole, a symbolic link in their place replaced, never followed, and read only when regular files of at most
`store.library.seen_files.MOST_BYTES`; past `MOST_IDENTITIES` the identities first seen earliest are forgotten (never
those first seen last: a longer list keeps its own), past `MOST_LISTS` the lists opened earliest. A file that cannot be
read is set aside and begun again (said); a disk nearly full keeps its margin for the marks, a database only read is
not written, quietly. `Seen` is not locked: its owner (the triage store) calls it under the database's lock.

A marked paper seen in a list in a later version than the record kept of it (`store.library.identity.later`: the
row says `is:updated`) is remembered under its id with that version's stage (`store.library.record.stage`), so the
library, whose rows are the kept records themselves, says so too (until it is marked in a later version: then that
version's record is kept).
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping
from itertools import compress, islice
from pathlib import Path
from threading import Event
from typing import TYPE_CHECKING, NamedTuple

from store.common.errors import unless_stopped
from store.library.seen_files import SeenFiles, hashed
from store.papers.matching import openreview_id
from store.papers.model import Paper, paper_id

if TYPE_CHECKING:
    import numpy as np

    from store.library.seen_files import Groups

MOST_IDENTITIES = 16_000_000
"""Identities kept: some five million papers (a 128 MB file; the whole arXiv and a year of daily lists besides)."""
MOST_LISTS = 10_000


def is_new(first_seen: int | np.ndarray, last_opened: int | None) -> bool | np.ndarray:
    """Whether a paper first seen at open `first_seen` is new in a list last opened at `last_opened` (None: never); of
    an array of opens, whether each is."""
    return last_opened is None or first_seen > last_opened


ROOM = 5
"""The most identities a paper has (`identities`)."""


def identities(paper: Paper) -> list[str]:
    """Every name `paper` is known by, whatever the wording of its abstract there (see the module docstring)."""
    names = [paper.id]
    if paper.arxiv:
        names.append("arxiv:" + paper.arxiv)
    if paper.doi:
        names.append("doi:" + paper.doi.casefold())
    openreview = openreview_id(paper.links)
    if openreview:
        names.append("openreview:" + openreview)
    if paper.authors:  # (a record with authors has its own title: none is derived here)
        names.append("title:" + paper_id(f"{paper.title} / {paper.authors[0]}"))  # (a hash: 10 characters)
    return names


class Opened(NamedTuple):
    """What opening a list found: its papers `new` in it (`is_new`), and those that `arrived`: seen by the
    database for the first time now, none of their identities seen before in any list (what standing rules
    mark, `store.marks.rules`)."""

    new: frozenset[str]
    arrived: frozenset[str]


NOTHING = Opened(frozenset(), frozenset())


class Looked(NamedTuple):
    """What an open of a list found of its papers in the first-seen files (`Seen.looked`) as they were `at` (their
    opens and the open their identities were written at): their `groups`, the papers new and arrived (`opened`), the
    hashes of the identities seen first (`unseen`), and how many identities there are then (`count`)."""

    at: tuple[int, int]
    groups: Groups
    opened: Opened
    unseen: np.ndarray
    count: int


def _firsts(ordered: np.ndarray) -> np.ndarray:
    """Which of the sorted `ordered` is the first of its value."""
    import numpy as np  # (here: the app's first frame imports none of it)

    first = np.ones(len(ordered), bool)
    first[1:] = ordered[1:] != ordered[:-1]
    return first


class First:
    """When each identity of `groups` was first seen: their hashes sorted, and the open of each (the earliest, should
    one be in two groups); `at(hashes)` looks many up at once (numpy: no Python object an identity)."""

    def __init__(self, groups: Groups) -> None:
        import numpy as np  # (here: the app's first frame imports none of it)

        serials = sorted(groups, key=int)
        hashes = np.concatenate([groups[serial] for serial in serials]) if groups else np.zeros(0, np.uint64)
        opens = np.repeat(np.array(serials, np.int32), [len(groups[serial]) for serial in serials])
        order = np.argsort(hashes, kind="stable")  # (by hash, the earliest open first: in that order already)
        hashes, opens = hashes[order], opens[order]
        del order
        first = _firsts(hashes)
        self._hashes, self._opens = hashes[first], opens[first]

    def __len__(self) -> int:
        return len(self._hashes)

    def at(self, hashes: np.ndarray) -> np.ndarray:
        """The open each of `hashes` was first seen at, -1 for one never seen."""
        import numpy as np  # (here: the app's first frame imports none of it)

        if not len(self._hashes):
            return np.full(len(hashes), -1, np.int64)
        place = np.searchsorted(self._hashes, hashes).clip(max=len(self._hashes) - 1)
        return np.where(self._hashes[place] == hashes, self._opens[place], -1)


def _later(data: dict) -> dict[str, list[tuple[int, int]]]:
    """The later versions in the small first-seen file's data (see `Seen.later`); what is not two whole numbers is
    passed over."""
    later = data.get("later")
    found: dict[str, list[tuple[int, int]]] = {}
    for pid, stages in later.items() if isinstance(later, dict) else ():
        if isinstance(stages, list):
            found[pid] = [(stage[0], stage[1]) for stage in stages
                          if isinstance(stage, list) and len(stage) == 2 and type(stage[0]) is type(stage[1]) is int]
    return found


def _read_again(data: dict, name: str, read_as: str | None) -> bool:
    """Whether the list `name` is read as `read_as` (not None), as at its last open (the small file's `data`): then
    nothing in it is new (see the module docstring)."""
    return read_as is not None and data["read"].get(name) == read_as and type(data["opened"].get(name)) is int


_BATCH = 4096
"""Papers whose identities are looked up at once."""


def _looked_up(first: First, papers: Iterable[Paper], stop: Event | None = None) -> Iterator[tuple[list[str], np.ndarray, np.ndarray]]:
    """For each `_BATCH` of `papers`: their ids, their identities' hashes, and when each was first seen (`First.at`),
    each paper's `ROOM` identities a row (a paper of fewer padded with unseen 0 hashes, told apart by `-2`)."""
    import numpy as np  # (here: the app's first frame imports none of it)

    each = iter(unless_stopped(papers, stop))
    while batch := list(islice(each, _BATCH)):
        names = [identities(paper) for paper in batch]
        hashes = np.zeros((len(batch), ROOM), np.uint64)
        flat = hashed(name for named in names for name in named)
        filled = np.arange(ROOM) < np.array([len(named) for named in names])[:, None]
        hashes[filled] = flat
        opens = np.full((len(batch), ROOM), -2, np.int64)
        opens[filled] = first.at(flat)
        yield [paper.id for paper in batch], hashes, opens


def _opening(data: dict, first: First, name: str, papers: Iterable[Paper],
             stop: Event | None = None) -> tuple[Opened, np.ndarray]:
    """What opening the list `name` with `papers` finds in the small first-seen file's `data` (`first`: the identities
    it counts on), and the hashes of the identities of `papers` it sees first (`store.common.errors.Stopped` once
    `stop` is set)."""
    import numpy as np  # (here: the app's first frame imports none of it)

    last = data["opened"].get(name)
    last = last if type(last) is int else None
    now = data["opens"] + 1
    new, arrived, unseen = set(), set(), []
    for ids, hashes, opens in _looked_up(first, papers, stop):  # (most of an open: 100,000 papers in ~0.3 s)
        earliest = np.where(opens >= 0, opens, now).min(axis=1)  # (now for a paper none of whose identities was seen)
        new.update(compress(ids, np.broadcast_to(is_new(earliest, last), len(ids))))
        arrived.update(compress(ids, (opens < 0).all(axis=1)))
        unseen.append(hashes[opens == -1])
    # Each once, by a sort: numpy 2's `np.unique` of integers goes through a hash table, 40 times slower here (4,000,000
    # hashes, a first open of 1,000,000 papers: 4.8 s against 0.12 s).
    hashes = np.sort(np.concatenate(unseen)) if unseen else np.zeros(0, np.uint64)
    return Opened(frozenset(new), frozenset(arrived)), hashes[_firsts(hashes)]


def list_name(sources: Iterable[str]) -> str:
    """What a list is remembered by: the real paths of its files."""
    return "\n".join(sorted(str(Path(source).resolve()) for source in sources))


class Seen:
    """The first-seen files of one database (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.notices: list[str] = []
        self._files = SeenFiles(path, self.notices)
        self._noted: dict[str, tuple[int, int]] = {}
        """The later versions noted (`note_later`) by this process: not read again."""

    def _first(self, data: dict, groups: Groups | None) -> First:
        """When each identity the small file's `data` counts on was first seen: `groups` when they came with it, else
        read from the identities file (OSError: not known)."""
        return First(groups if groups is not None else self._files.groups(data)[0])

    def to_look_up(self, name: str, read_as: str | None = None) -> tuple[dict, Groups] | None:
        """The first-seen files as an open of the list `name` (read as `read_as`, as for `open`) would look its papers
        up in them (None when it would not, or they cannot be read or were mended: `open` does it all): for `looked`,
        which works it out without the lock."""
        try:
            data, groups = self._files.read()
            if _read_again(data, name, read_as):
                return None
            groups, mended = (groups, False) if groups is not None else self._files.groups(data)
        except OSError:
            return None
        return None if mended else (data, groups)

    @staticmethod
    def looked(files: tuple[dict, Groups], name: str, papers: Iterable[Paper], stop: Event | None = None) -> Looked:
        """What opening the list `name` with `papers` finds in the first-seen `files` as `to_look_up` read them (seconds
        at a million papers: without the lock, which a `triage set` or a second window waited for, and gave up)."""
        data, groups = files
        first = First(groups)
        opened, unseen = _opening(data, first, name, papers, stop)
        return Looked((data["opens"], data["identities"]), groups, opened, unseen, len(first) + len(unseen))

    def open(self, name: str, papers: Iterable[Paper], read_as: str | None = None, stop: Event | None = None,
             looked: Looked | None = None) -> Opened:
        """The ids of `papers` new in the list `name` (`is_new`) and of those that arrived (`Opened`), now that
        it is opened: its papers not seen before are seen now, and the list is opened now. `read_as`: the key of the
        parse `papers` are (`store.readers.list_key.read_key`), when they are one: the same as at the list's last
        open, nothing is new and the identities are not read (see the module docstring). `looked`: what `looked` found
        of the files, taken while they are as they were then (no open since), else worked out again. Once `stop` is
        set it raises `store.common.errors.Stopped` before a file is written: the list is not opened (seconds at a
        million papers)."""
        try:
            data, groups = self._files.read()
        except OSError:
            return NOTHING
        now = data["opens"] + 1
        if _read_again(data, name, read_as):
            opened, unseen, count, mended = NOTHING, [], None, False
        elif looked is not None and looked.at == (data["opens"], data["identities"]):
            groups, opened, unseen, count, mended = looked.groups, looked.opened, looked.unseen, looked.count, False
        else:
            try:
                groups, mended = (groups, False) if groups is not None else self._files.groups(data)
            except OSError:
                return NOTHING
            first = First(groups)
            opened, unseen = _opening(data, first, name, papers, stop)
            count = len(first) + len(unseen)
        data["opens"] = now
        if len(unseen):
            groups[str(now)] = unseen
            data["when"][str(now)] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        data["opened"][name] = now
        reads = data["read"]  # (forgotten when the identities were not those counted on)
        reads.pop(name, None)
        if read_as is not None:
            reads[name] = read_as
        forgot = self._bound(data, groups, count)
        self._files.save(data, groups, mended or bool(len(unseen)) or forgot, "these papers count as new again next time")
        return opened

    def later(self) -> dict[str, list[tuple[int, int]]]:
        """Each marked paper's later versions seen in lists (`note_later`): its id → their stages."""
        try:
            return _later(self._files.read()[0])
        except OSError:
            return {}

    def note_later(self, found: Mapping[str, tuple[int, int]]) -> None:
        """Remember that the marked papers of `found` (id → the stage of a later version of it seen in a list) were
        seen in those versions (the small file is written only when that is news)."""
        if not found or found.items() <= self._noted.items():
            return
        try:
            data, groups = self._files.read()
        except OSError:
            return
        known = _later(data)
        news = {pid: stage for pid, stage in found.items() if stage not in known.get(pid, ())}
        self._noted.update(found)
        if news:
            data["later"] = {pid: [list(stage) for stage in stages] for pid, stages in known.items()}
            for pid, stage in news.items():
                data["later"].setdefault(pid, []).append(list(stage))
            self._files.save(data, groups, False, "the library does not say these papers were updated")

    def new(self, name: str, papers: Iterable[Paper], read_as: str | None = None) -> frozenset[str]:
        """The ids of `papers` new in the list `name` (`is_new`), as opening it now would find them, without opening it.
        `read_as`: as for `open` (the read of its last open: none, the identities not read; at 1,000,000 papers ~1 s of
        reading them and ~4 s of making each paper's)."""
        try:
            data, groups = self._files.read()
            if _read_again(data, name, read_as):
                return frozenset()
            first = self._first(data, groups)
        except OSError:
            return frozenset()
        return _opening(data, first, name, papers)[0].new

    def unseen(self, papers: Iterable[Paper]) -> frozenset[str]:
        """The ids of `papers` none of whose identities was ever seen (those that would arrive), seeing none now."""
        try:
            first = self._first(*self._files.read())
        except OSError:
            return frozenset()
        return frozenset(pid for ids, _, opens in _looked_up(first, papers) for pid in compress(ids, (opens < 0).all(axis=1)))

    @staticmethod
    def _bound(data: dict, groups: Groups | None, count: int | None) -> bool:
        """Forget the identities first seen earliest past `MOST_IDENTITIES` (`count`: how many `groups` hold, None when
        they were not counted: no more than at the last open), never those first seen last (a list of more papers
        than that, the whole arXiv, keeps its own: forgotten, each of its papers was new at every open, and each open
        made every paper's identities again, ~18 s at 2,700,000), the lists opened earliest past `MOST_LISTS`; a
        list's `read` key goes with its identities or with the list. Whether identities were forgotten."""
        forgot = False
        serials = sorted(groups, key=lambda s: int(s) if s.isdigit() else -1) if groups and count is not None else []
        earliest = serials[:-1]  # (the last open's kept)
        for serial in earliest:
            if count <= MOST_IDENTITIES:
                break
            names = groups.pop(serial)
            data["when"].pop(serial, None)
            count -= len(names)
            data["read"] = {}  # (a list's papers may be seen no longer: its next open looks at each)
            forgot = True
        opened = data["opened"]
        if len(opened) > MOST_LISTS:
            for name in sorted(opened, key=lambda n: opened[n] if type(opened[n]) is int else -1)[: len(opened) - MOST_LISTS]:
                del opened[name]
                data["read"].pop(name, None)
        return forgot
