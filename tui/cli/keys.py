"""`triage keys`: every binding of the app by id, with its keys as the keys file makes them and what it does.

Grouped as the help screen groups them (the dialogs' and the help screen's own keys last); the keys
file's path first, its bad entries on stderr, as the app would warn of them.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from textual.keys import format_key
from textual.screen import Screen

from store.papers.inert import inert
from tui.app import TriageApp
from tui.cli.common import Refused, parse_args
from tui.keymap import CONFIG_ENV, Keymap, KeysFileError, config_path, normal, read
from tui.keys import DIALOGS, GENERAL, GROUPS, binding_classes, own_bindings


def keys_parser() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(
        prog="triage keys",
        description=f"Print every key binding of the app: its id, its keys (yours from the keys file, else the"
        f" default) and what it does, and the keys file's path (${CONFIG_ENV}, else keys.toml in the platform's"
        " config folder). A bad entry of the file is reported on stderr and keeps its default keys.",
    )


def run_keys(argv: Sequence[str]) -> int:
    parse_args(keys_parser(), argv)
    path = config_path()
    try:
        keymap = read(path, TriageApp)
    except KeysFileError as exc:
        raise Refused(inert(str(exc))) from None
    state = "" if keymap.found else " (there is none: these are the defaults)"
    print(f"Keys file: {inert(str(path))}{state}")
    for title, rows in listing(keymap):
        print(f"\n{title}")
        width = max(len(name) for name, _, _ in rows)
        keys_width = max(len(keys) for _, keys, _ in rows)
        for name, keys, description in rows:
            print(f"  {name.ljust(width)}  {keys.ljust(keys_width)}  {description}".rstrip())
    for problem in keymap.problems:
        print(f"triage: {problem}", file=sys.stderr)  # inert already
    return 0


def listing(keymap: Keymap) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """(group title, its rows of id, keys, what it does) in the help screen's group order; a binding
    the file remaps is marked "(yours)"."""
    groups: dict[str, list[tuple[str, str, str]]] = {group.description: [] for group in (*GROUPS, DIALOGS)}
    seen: set[str] = set()
    for cls in binding_classes(TriageApp):
        for binding in own_bindings(cls):
            if binding.id is None or binding.id in seen:
                continue
            seen.add(binding.id)
            group = DIALOGS if issubclass(cls, Screen) else binding.group or GENERAL
            yours = binding.id in keymap.keys and keymap.keys[binding.id] != binding.key
            description = binding.tooltip or binding.description or binding.action
            groups[group.description].append(
                (binding.id, readable(keymap.keys.get(binding.id, binding.key)), description + (" (yours)" if yours else "")))
    return [(title, rows) for title, rows in groups.items() if rows]


def readable(keys: str) -> str:
    """Keys as a keys file may write them, the short way: "question_mark" is "?", "slash" "/"."""
    return ",".join(short(key) for key in keys.split(","))


def short(key: str) -> str:
    """One key the short way when it is a character that names the same key again (not space or comma)."""
    character = format_key(key)
    writable = len(character) == 1 and character.isprintable() and character not in " ," and normal(character) == key
    return character if writable else key

