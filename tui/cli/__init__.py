"""The `triage` command: opens the app, or runs a subcommand without a terminal UI.

This package's `main` parses the first word and hands the rest to one module per subcommand, imported
when it runs: `launch` (the app), `listing` (list), `cite` (cite, export), `rank` (similar), `mark`
(set), `importing` (import: marks through `mark`'s path), `keys`, `fetch`, `sync` (sync, merge, backup, restore),
`library`, `rules` (the standing rules); `saved` is the saved searches `list --saved` reads,
and `common` holds what they share. A subcommand imports `common` and `store`, never this module; Textual
is imported only when the app opens.
"""
from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Sequence
from contextlib import suppress
from typing import NoReturn
from importlib import import_module

from store.common.errors import Locked, NotSaved, ReadError
from tui.boundary import OutputFailed, inert_output
from tui.cli.common import OpenApp, Refused

SUBCOMMANDS = {
    "list": ("listing", "run_list"), "cite": ("cite", "run_cite"), "export": ("cite", "run_export"),
    "set": ("mark", "run_set"), "import": ("importing", "run_import"), "similar": ("rank", "run_similar"), "keys": ("keys", "run_keys"),
    "fetch": ("fetch", "run_fetch"),
    "sync": ("sync", "run_sync"), "merge": ("sync", "run_merge"), "backup": ("sync", "run_backup"),
    "restore": ("sync", "run_restore"), "library": ("library", "run_library"), "rules": ("rules", "run_rules"),
}
"""Each subcommand: the module of `tui.cli` that runs it, and its function there."""


def run(name: str, argv: Sequence[str]) -> int:
    """Subcommand `name` on `argv`, its module imported now."""
    module, function = SUBCOMMANDS[name]
    return getattr(import_module(f"tui.cli.{module}"), function)(argv)


def _fetch_first(spec: str, db: str | None) -> tuple[int, object]:
    """`triage --fetch SPEC`: tui.cli.fetch's `fetch_first`, imported only then."""
    return import_module("tui.cli.fetch").fetch_first(spec, db)


def command() -> NoReturn:
    """The `triage` console script: `main`, then, its output flushed and the cache entries being written written
    (the interpreter would wait for them), the process ends at once, as the app's does (`tui.cli.launch`): the papers
    it read are not torn down one by one (0.25 s of CPU at 100,000 papers, a fifth of `triage list --sort interest`)."""
    from store.readers import cache
    from tui.cli import common

    common.KEPT = []
    code = main()
    cache.settle()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # (a reader that stopped reading: as in `_main`)
            pass
        except OSError as exc:  # (a full disk, say)
            code = _not_written(exc.strerror or str(exc))
    os._exit(code)


def _not_written(reason: str) -> int:
    """A write to stdout or stderr refused: one line says so (where it still can), and the interpreter's own code for it."""
    with suppress(OSError):
        os.write(2, f"triage: output not written whole ({reason})\n".encode())
    return 120


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        with inert_output():  # nothing a file or the database holds reaches the terminal as a control
            return _main(argv)
    except OutputFailed as exc:  # at any point of any command's output or message; what is still held goes nowhere
        with suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), exc.stream.fileno())
        return _not_written(exc.reason)


def _main(argv: list[str]) -> int:
    try:
        if argv and argv[0] in SUBCOMMANDS:
            try:
                return run(argv[0], argv[1:])
            except OpenApp as then:  # (`triage fetch … --open`: the app, once the fetch is done)
                argv = then.argv
        elif argv and not argv[0].startswith("-") and not os.path.exists(argv[0]):
            close = difflib.get_close_matches(argv[0], SUBCOMMANDS, n=1)
            if close:
                raise Refused(f"no such file or command {argv[0]!r} (did you mean {close[0]}?)")
            if not any(mark in argv[0] for mark in "/."):  # a word, not a file's path: `triage help`
                raise Refused(f"no such file or command {argv[0]!r} (see triage --help)")
        from tui.cli.launch import run_app

        return run_app(argv, _fetch_first)
    except (ReadError, Refused, Locked) as exc:
        print(f"triage: {exc}", file=sys.stderr)
        return 2
    except NotSaved as exc:
        print(f"triage: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
