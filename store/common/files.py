"""Files the store writes whole, sets aside, or checks: what the journal and the cache share.

- `write_whole` replaces a file with new bytes or leaves it as it was: a temporary file in the
  folder of the file itself (through a symbolic link, so the link stays a link; in a folder
  others write to, `links=False`: the link itself replaced, its target never written), given the
  mode of the file it replaces, fsynced, renamed over it, the folder fsynced.
- `open_regular` / `read_regular`: a file someone else may have put there (a sync folder, a file
  named on the command line), read only when it is a regular file no larger than a bound: never
  through a symbolic link, never blocking on a FIFO or a device (ReadError saying why not).
- `remove_dead_writers` removes the temporary files that writers which died before renaming
  them left behind: their process is gone, or they are untouched for `STALE_MINUTES`.
- `move_aside` / `copy_aside` keep a damaged file as `<name>.corrupt-<time>`, never over another.
- `abandonable` / `replace_unless_abandoned` / `abandon`: a file written through a temporary one that the
  process may give up at any moment (a cache entry, at quit): once `abandon` is called none is renamed over
  its file any more, and the temporary files being written are removed.
- `cache_folder`: where the caches live (the lists', `store.readers.cache`; the records' keys, `store.library.keys_cache`).
"""
from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

import platformdirs

from store.common.errors import ReadError

STALE_MINUTES = 15
"""A temporary file untouched this long is a dead writer's: a live one writes a 250 MB cache
entry in seconds (the file's time moves as it writes), and two processes may write at once."""


def cache_folder() -> Path:
    """Where the caches live: `$TRIAGE_CACHE`, else the user cache folder."""
    env = os.environ.get("TRIAGE_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir("paper-triage", appauthor=False))


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def real(path: Path) -> Path:
    """The file `path` names, through any symbolic links (itself when it is none)."""
    return Path(os.path.realpath(path))


def temporary_name(path: Path) -> Path:
    """The temporary file `write_whole` writes `path` through, named by this process."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def temporaries(path: Path) -> re.Pattern[str]:
    """The names of the temporary files `write_whole(path)` makes, the writer's pid as group `pid`."""
    return re.compile(re.escape(f".{path.name}.") + r"(?P<pid>\d+)\.tmp")


def write_durably(fd: int, data: bytes) -> None:
    """Write all of `data` at `fd`'s offset and fsync it."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def write_whole(path: Path, data: bytes, links: bool = True) -> None:
    """Make the file `path` names hold `data`, whole or not at all (see the module's docstring); with
    `links` False a symbolic link at `path` is replaced, never written through."""
    target = real(path) if links else path
    try:
        found = target.stat() if links else target.lstat()
        mode = found.st_mode & 0o7777 if stat.S_ISREG(found.st_mode) else None
    except FileNotFoundError:
        mode = None
    remove_dead_writers(target.parent, temporaries(target))
    tmp = temporary_name(target)
    tmp.unlink(missing_ok=True)  # never write into a name left over: it may be a second name of a file
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            write_durably(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISSOCK, "a socket"))


def not_regular(mode: int) -> str:
    """Why a file of this `st_mode` is not read: "a FIFO, not a regular file: not read"."""
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    return f"{kind}, not a regular file: not read"


def open_regular(path: str | os.PathLike[str], most: int, what: str = "such a file", *, follow: bool = False) -> BinaryIO:
    """`path` open to read, when it is a regular file of at most `most` bytes (more than `what` holds is
    refused): never blocking (a FIFO, a device), never through a symbolic link unless `follow` (a file the
    user names; never one in a folder others write to). FileNotFoundError when there is none; else
    ReadError naming it and saying why. (A file that grows after it is opened can still be read past
    `most`: read at most `most + 1` bytes.)"""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW))
    except FileNotFoundError:
        raise
    except OSError as exc:
        link = exc.errno == errno.ELOOP and not follow and os.path.islink(path)
        raise ReadError(str(path), "a symbolic link: not followed" if link else exc.strerror or str(exc)) from None
    found = os.fstat(fd)
    if not stat.S_ISREG(found.st_mode):
        why = not_regular(found.st_mode)
    elif found.st_size > most:
        why = f"{found.st_size:,} bytes, larger than the {most:,} read from {what}: not read"
    else:
        return os.fdopen(fd, "rb")
    os.close(fd)
    raise ReadError(str(path), why)


def read_regular(path: str | os.PathLike[str], most: int, what: str = "such a file", *, follow: bool = False) -> bytes:
    """The bytes of `path` (see `open_regular`: a regular file of at most `most` bytes; ReadError else)."""
    with open_regular(path, most, what, follow=follow) as file:
        data = file.read(most + 1)
    if len(data) > most:
        raise ReadError(str(path), f"more than the {most:,} bytes read (it grew while read)")
    return data


def link_over(path: Path, name: Path) -> bool:
    """Make `name` a second name of the file `path` (replacing what it named); False when the file
    system cannot (no hard links there)."""
    tmp = temporary_name(path)  # (named as `write_whole`'s: one left by a crash is cleaned up alike)
    try:
        tmp.unlink(missing_ok=True)
        os.link(path, tmp)
        os.replace(tmp, name)  # (does nothing when `name` is that file already: then `tmp` stays)
    except OSError:
        return False
    finally:
        tmp.unlink(missing_ok=True)
    return True


def _gone(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError):  # another user's process: alive; no such number: not a pid
        return False
    return False


def remove_dead_writers(folder: Path, pattern: re.Pattern[str]) -> None:
    """Remove the files in `folder` named as `pattern` says that no live writer is writing: untouched
    for `STALE_MINUTES`, or (when the pattern has a `pid` group) whose process is gone. A folder so named (a search
    engine's build, store.search.engine.folder) is removed whole once its process is gone (a link is never followed)."""
    since = time.time() - STALE_MINUTES * 60
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        match = pattern.fullmatch(name)
        if match is None:
            continue
        other = folder / name
        try:
            pid = match.groupdict().get("pid")
            dead = pid is not None and _gone(int(pid))
            info = other.lstat()
            if stat.S_ISDIR(info.st_mode):
                if dead:
                    shutil.rmtree(other)
            elif dead or info.st_mtime < since:
                other.unlink()
        except OSError:  # gone meanwhile (another process cleaning up), or not ours to remove
            pass


def aside_name(path: Path) -> Path:
    """`<name>.corrupt-<time>` beside `path`, with `-<n>` added until no file has the name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while os.path.lexists(target):
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    return target


def move_aside(path: Path) -> Path:
    """Rename `path` (file or folder) to an unused `aside_name` (the caller holds the store's lock)."""
    target = aside_name(path)
    os.rename(path, target)
    return target


def copy_aside(path: Path) -> Path:
    """Copy the file `path` to an unused `aside_name` (made exclusively: never over another copy)."""
    while True:
        target = aside_name(path)
        try:
            with open(path, "rb") as source, open(target, "xb") as copy:
                shutil.copyfileobj(source, copy)
        except FileExistsError:
            continue
        return target


class Abandoned(OSError):
    """A write given up (`abandon`): its file is as it was."""


_abandoned = threading.Event()
_unfinished: set[str] = set()
"""The temporary files being written that `abandon` removes."""
_finishing = threading.Lock()
"""Held while a temporary file is renamed over its file, and while writes are abandoned."""


@contextmanager
def abandonable(temp: str) -> Iterator[None]:
    """Within the block, the temporary file `temp` is being written: `abandon` removes it."""
    with _finishing:
        _unfinished.add(temp)
    try:
        yield
    finally:
        with _finishing:
            _unfinished.discard(temp)


def abandoned() -> bool:
    return _abandoned.is_set()


def replace_unless_abandoned(temp: str, path: Path) -> None:
    """Rename `temp` over `path`, or raise `Abandoned` (`path` left as it was) once writes were abandoned."""
    with _finishing:
        if _abandoned.is_set():
            raise Abandoned(f"{path}: given up")
        os.replace(temp, path)


def abandon() -> None:
    """Give up the `abandonable` writes of this process, now and from now on: none replaces its file any more,
    and their temporary files are removed (a thread still writing one writes into a file no name holds)."""
    with _finishing:
        _abandoned.set()
        for temp in _unfinished:
            with suppress(OSError):
                os.unlink(temp)
