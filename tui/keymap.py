"""Your own keys: the keys file, its checks, and the keymap it gives the app.

Owns where the file is (`$TRIAGE_CONFIG`, else `keys.toml` in the platform config folder), its
format (`binding_id = "key"`; several keys as `"j,down"` or a list), and what makes an entry bad:
an id no binding has, a key name no terminal sends, a key that another binding active at the same
time already has (by default or in the file). `load()` gives the keymap of the good entries and one
line per bad one naming the file and line; a bad entry keeps its binding's default keys. Textual
applies the keymap (`App.set_keymap`); the bindings, their ids and groups are tui.keys'.
"""
from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import Keys, _character_to_key, key_to_character
from textual.screen import Screen

from store.common.errors import ReadError
from store.common.files import read_regular
from store.papers.inert import inert
from tui.keys import binding_classes
from tui.textual_private import merged_bindings

CONFIG_ENV = "TRIAGE_CONFIG"
LIMIT = 256 << 10
"""The largest keys file read (one giving every binding its keys, with comments, is some 5 KB)."""
DEEPEST = 64
"""The most parts a dotted name may have beyond its first (a binding's is one: it is no table)."""
SHOWN = 40
_SPECIAL = re.compile(r"[\"'#.\n\\]")
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
NAMED_KEYS = frozenset(key.value.rpartition("+")[2] for key in Keys) | {"space"}
"""Key names without a modifier that Textual sends (`f5`, `pageup`, `escape`…); characters are checked apart."""


def config_path() -> Path:
    """The keys file: `$TRIAGE_CONFIG`, else keys.toml in the platform's config folder for paper-triage."""
    override = os.environ.get(CONFIG_ENV)
    return Path(override) if override else Path(platformdirs.user_config_dir("paper-triage")) / "keys.toml"


class KeysFileError(ValueError):
    """The keys file cannot be read or is not TOML; the message names the file (and line)."""


@dataclass
class Keymap:
    """The keys file's good entries as a Textual keymap (id → "key,key"), and its bad ones, explained."""

    path: Path
    keys: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    found: bool = False
    """Whether there is a keys file at `path` at all."""


def load(app: type[App[object]], path: Path | None = None) -> Keymap:
    """The keymap of the keys file; a file that is not TOML is one problem, and all keys are the defaults."""
    path = config_path() if path is None else path
    try:
        return read(path, app)
    except KeysFileError as exc:
        return Keymap(path, problems=[inert(str(exc))], found=True)


def read(path: Path, app: type[App[object]]) -> Keymap:
    """Check the keys file at `path` entry by entry against the bindings of `app`'s classes; raise
    KeysFileError when it is not TOML at all, or cannot be read quickly: no regular file (a FIFO), over
    `LIMIT`, nested deeper than `DEEPEST`."""
    try:
        raw = read_regular(path, LIMIT, "a keys file", follow=True)
    except FileNotFoundError:
        return Keymap(path)
    except ReadError as exc:
        raise KeysFileError(str(exc)) from None
    try:
        text = raw.decode("utf-8")
        deepest, line = dotted(text)
        if deepest > DEEPEST:
            raise KeysFileError(f"{path}: not a keys file: line {line} has a name of {deepest + 1:,} parts"
                                ' (each binding is one name: toggle_star = "f")')
        table = tomllib.loads(text)
    except UnicodeDecodeError:
        raise KeysFileError(f"{path}: not UTF-8 text, so not a TOML keys file") from None
    except RecursionError:
        raise KeysFileError(f"{path}: not a keys file: nested too deep (each binding is one name: toggle_star = \"f\")") from None
    except tomllib.TOMLDecodeError as exc:
        raise KeysFileError(f"{path}: not valid TOML: {toml_error(exc)}") from None
    lines = entry_lines(text)
    slots = Slots(binding_classes(app))
    problems: list[tuple[str, str]] = []
    wanted: dict[str, tuple[str, ...]] = {}
    for name, value in table.items():
        problem = table_problem(name, value) or slots.unknown(name) or key_problem(value)
        if problem:
            problems.append((name, problem))
        else:
            wanted[name] = keys_of(value)
    for name, problem in slots.clashes(wanted, lines):
        problems.append((name, problem))
        del wanted[name]
    problems.sort(key=lambda problem: lines.get(problem[0], 0))
    keys = {name: ",".join(keys) for name, keys in wanted.items()}
    keymap = Keymap(path, {**keys, **slots.pins(keys)}, found=True)
    keymap.problems = [inert(f"{path} line {lines.get(name, '?')}: {problem}") for name, problem in problems]
    return keymap


def dotted(text: str) -> tuple[int, int]:
    """The most dots outside strings and comments on one line of a TOML text (the parts of a dotted
    name, less one), and that line. (tomllib takes time growing with the square of a name's parts: a
    name of 20,000 parts, 40 KB, takes a minute.)"""
    most, where, line, dots, quote, at = 0, 0, 1, 0, "", 0
    while (found := _SPECIAL.search(text, at)) is not None:
        at, char = found.start(), found.group()
        if quote:  # in a string: up to its end (a basic one's escapes skipped)
            if char == "\\" and quote[0] == '"':
                at += 1
            elif text.startswith(quote, at):
                at, quote = at + len(quote) - 1, ""
        elif char in "\"'":
            quote = char * 3 if text.startswith(char * 3, at) else char
            at += len(quote) - 1
        elif char == "#":  # a comment: on to its line's end
            end = text.find("\n", at)
            at = (end if end >= 0 else len(text)) - 1
        elif char == ".":
            dots += 1
            if dots > most:
                most, where = dots, line
        if char == "\n":
            line, dots = line + 1, 0
        at += 1
    return most, where


def apply(app: App[object]) -> None:
    """Give `app` the user's keys; say in one warning what was wrong in the file (those keep their defaults)."""
    keymap = load(type(app))
    app.set_keymap(keymap.keys)
    if keymap.problems:
        app.notify("\n".join(keymap.problems + ["Those bindings keep their default keys (`triage keys` lists them)."]),
                   title="Keys file", severity="warning", timeout=30, markup=False)


def toml_error(exc: tomllib.TOMLDecodeError) -> str:
    """tomllib's message as "line 3: Expected '=' after a key…" (it ends with "(at line 3, column 7)")."""
    message = str(exc)
    found = re.search(r"\s*\(at line (\d+), column \d+\)$", message)
    if found:
        return f"line {found.group(1)}: {message[:found.start()]}"
    found = re.search(r"\s*\(at end of document\)$", message)
    return f"at its end: {message[:found.start()]}" if found else message


def entry_lines(text: str) -> dict[str, int]:
    """The line each top-level name of a TOML text is set on (its first part, for a dotted name or a table)."""
    lines: dict[str, int] = {}
    name = r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)'
    for number, line in enumerate(text.splitlines(), 1):
        found = re.match(rf"\s*(?:\[+\s*)?(?:{name})\s*[.=\]]", line)
        if found:
            basic, literal, bare = found.groups()
            lines.setdefault(unquoted(basic) if basic is not None else literal if literal is not None else bare, number)
    return lines


def unquoted(basic: str) -> str:
    """The name a quoted TOML key stands for ("toggle_\\u0073tar" is toggle_star); as written if it is none."""
    try:
        return next(iter(tomllib.loads(f'"{basic}" = 0')))
    except tomllib.TOMLDecodeError:
        return basic


def keys_of(value: str | list[str]) -> tuple[str, ...]:
    """The keys of a checked entry's value, each in Textual's form (`?` is `question_mark`)."""
    parts = value.split(",") if isinstance(value, str) else value
    return tuple(normal(part.strip()) for part in parts)


def normal(key: str) -> str:
    """A key as Textual's bindings name it (Textual 8.2 normalises a keymap the same way)."""
    return _character_to_key(key) if len(key) == 1 else key


def table_problem(name: str, value: object) -> str | None:
    """Why a table (`[keys]`, or a dotted name) is no entry: the bindings are the file's top-level names."""
    if isinstance(value, dict):
        return f'[{name}] is a table: write each binding at the top of the file, before any [table], as toggle_star = "f"'
    return None


def key_problem(value: object) -> str | None:
    """Why `value` is not a key, or a list of them, for a keys file entry (None: it is)."""
    if isinstance(value, str):
        parts = value.split(",")
    elif isinstance(value, list) and all(isinstance(part, str) for part in value):
        parts = value
    else:
        return f'{shown(value)} is not a key: write a key in quotes, such as "f" or "ctrl+f", or several as "f,F"'
    if not [part for part in parts if part.strip()]:
        return 'no key given (a binding keeps at least one key; give its key to another binding in the file instead)'
    bad = [part.strip() for part in parts if not known_key(part.strip())]
    if bad:
        return (f"{shown(bad[0])} is not a key name (keys are written like f, F, ?, ctrl+f, shift+tab, f5, space,"
                " enter, escape, pageup)")
    return None


def known_key(key: str) -> bool:
    """Whether a terminal can send `key`: modifiers (ctrl, shift, alt…) then one character or key name."""
    *modifiers, base = key.split("+") if len(key) > 1 else [key]
    if not base or any(modifier not in MODIFIERS for modifier in modifiers) or len(set(modifiers)) < len(modifiers):
        return False
    if len(base) == 1:
        return base.isprintable() and not base.isspace()
    return base in NAMED_KEYS or key_to_character(base) is not None


def shown(value: object) -> str:
    """A value of the file as the message quotes it (its first 40 characters)."""
    text = f'"{value}"' if isinstance(value, str) else repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


class Slots:
    """The bindings by id, and which are active at the same time (may not share a key).

    Those of one screen's widget are active with the app's (and Textual's screen keys); a dialog's
    or the help screen's with its own and the app's priority ones. Textual's own keys (ctrl+q,
    ctrl+p, tab…) take part under the name "Textual's …": they have no id, so they cannot move."""

    def __init__(self, classes: Iterable[type[DOMNode]]) -> None:
        classes = list(classes)
        apps = [cls for cls in classes if issubclass(cls, App)]
        screens = [cls for cls in classes if issubclass(cls, Screen)]
        widgets = [cls for cls in classes if cls not in apps and cls not in screens]
        app_bindings = [binding for cls in apps for binding in merged_bindings(cls)] + [
            Binding(App.COMMAND_PALETTE_BINDING, "command_palette", "the command palette")]
        priority = [binding for binding in app_bindings if binding.priority]
        screen = merged_bindings(Screen)
        self.chains: list[list[Binding]] = [app_bindings + screen]
        self.chains += [merged_bindings(cls) + screen + app_bindings for cls in widgets]
        self.chains += [merged_bindings(cls) + priority for cls in screens]
        self.by_id: dict[str, Binding] = {}
        for chain in self.chains:
            for binding in chain:
                if binding.id:
                    self.by_id.setdefault(binding.id, binding)
        self.defaults: dict[str, tuple[str, ...]] = {}
        """The default keys of each id (or Textual's name) over all its bindings."""
        for chain in self.chains:
            for binding in chain:
                keys = self.defaults.setdefault(self.name(binding), ())
                if binding.key not in keys:
                    self.defaults[self.name(binding)] = keys + (binding.key,)

    @staticmethod
    def name(binding: Binding) -> str:
        return binding.id or f"Textual's {binding.action}"

    def unknown(self, name: str) -> str | None:
        """Why `name` is not a binding's id (None: it is)."""
        if name in self.by_id:
            return None
        close = difflib.get_close_matches(name, list(self.by_id), n=1)
        hint = f"did you mean {close[0]}?" if close else "`triage keys` lists them"
        return f"no action {shown(name)} ({hint})"

    def clashes(self, wanted: Mapping[str, tuple[str, ...]], lines: Mapping[str, int]) -> Iterable[tuple[str, str]]:
        """(id, why) for each entry of `wanted` that gives a key another binding active with it has; each
        such entry is left out and the others checked again, until none clashes. Of two entries, the later
        line is the one left out."""
        wanted = dict(wanted)
        while True:
            found = self.first_clash(wanted, lines)
            if found is None:
                return
            name, problem = found
            del wanted[name]
            yield name, problem

    def first_clash(self, wanted: Mapping[str, tuple[str, ...]], lines: Mapping[str, int]) -> tuple[str, str] | None:
        for chain in self.chains:
            holders: dict[str, list[str]] = {}
            default_holders: dict[str, set[str]] = {}
            for binding in chain:
                name = self.name(binding)
                for key in wanted.get(name, self.defaults[name]):
                    if name not in holders.setdefault(key, []):
                        holders[key].append(name)
                default_holders.setdefault(binding.key, set()).add(name)
            for key, names in holders.items():
                mine = [name for name in names if name in wanted]
                if len(names) < 2 or not mine or set(names) <= default_holders.get(key, set()):
                    continue
                blamed = max(mine, key=lambda name: lines.get(name, 0))
                other = next(name for name in names if name != blamed)
                whose = f"{other}'s (line {lines[other]})" if other in wanted and other in lines else self.owner(other)
                keeps = ",".join(self.defaults[blamed])
                return blamed, f"{blamed} = {shown(','.join(wanted[blamed]))}: {key} is already {whose}; {blamed} keeps {keeps}"
        return None

    def owner(self, name: str) -> str:
        """Whose a default key is, for a message: "cursor_down's (Next paper)", "Textual's quit"."""
        binding = self.by_id.get(name)
        if binding is None:
            return name
        return f"{name}'s ({binding.tooltip or binding.description})"

    def pins(self, keymap: Mapping[str, str]) -> dict[str, str]:
        """Bindings to restate with their own keys beside `keymap`: Textual 8.2, remapping a binding, drops
        every binding of the same class that shares a key with it (enter: read and leave the filter);
        restated, those keep their keys."""
        pinned: dict[str, str] = {}
        for chain in self.chains:
            by_key: dict[str, list[Binding]] = {}
            for binding in chain:
                by_key.setdefault(binding.key, []).append(binding)
            for bindings in by_key.values():
                if any(binding.id in keymap for binding in bindings):
                    for binding in bindings:
                        if binding.id and binding.id not in keymap:
                            pinned[binding.id] = ",".join(self.defaults[binding.id])
        return pinned
