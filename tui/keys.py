"""The app's keys in one place: the groups the help screen shows them in, and the bindings our code declares.

The help screen and the command palette are both generated from `declared_bindings`, so a key added
to any `BINDINGS` in `tui/` appears in both without further work. Give it a `group` from here, and
an `id` (the name a keys file remaps it by, see tui.keymap). Both show the keys as remapped.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace

from textual.app import App
from textual.binding import Binding, Keymap
from textual.dom import DOMNode

from tui.textual_private import keymap_of

MOVE = Binding.Group("Move")
READ = Binding.Group("Read")
TRIAGE = Binding.Group("Triage")
SEARCH = Binding.Group("Search")
COPY = Binding.Group("Copy and export")
VIEWS = Binding.Group("Views and sorts")
GENERAL = Binding.Group("General")

DIALOGS = Binding.Group("Dialogs and help")
"""Where `triage keys` lists the keys of the dialogs and the help screen (they are not in the help)."""

GROUPS = (MOVE, READ, TRIAGE, SEARCH, COPY, VIEWS, GENERAL)
"""The order the help screen lists the groups in; a binding without a group is listed under General.

The Footer shows the shown keys of one group that come one after another as a single item
("j/↓ k/↑ Move"), so keys that should read on their own in the footer (help, quit) have no group."""


def declared_bindings(app: App[object]) -> Iterator[tuple[DOMNode, Binding]]:
    """(node, binding) for every described binding that `tui` declares: each widget class of the main
    screen once, in screen order, then the app's; with the keys the app's keymap gives them (tui.keymap).
    Textual's own bindings are not included."""
    seen: set[type] = set()
    for node in (*app.default_screen.walk_children(), app):
        cls = type(node)
        if cls in seen or not cls.__module__.startswith("tui."):
            continue
        seen.add(cls)
        for binding in own_bindings(cls):
            if binding.description:
                yield node, remapped(binding, keymap_of(app))


def binding_classes(app: type[App[object]]) -> list[type[DOMNode]]:
    """Every class of `app`'s package that declares `BINDINGS` (the app, its widgets, its screens), each once,
    parents before their subclasses. Found from the classes themselves, so none can be forgotten: the module
    of `app`, imported before this is called, imports every widget and screen."""
    package = app.__module__.partition(".")[0] + "."
    found: list[type[DOMNode]] = []

    def walk(cls: type[DOMNode]) -> None:
        for sub in cls.__subclasses__():
            if sub.__module__.startswith(package) and "BINDINGS" in sub.__dict__ and sub not in found:
                found.append(sub)
            walk(sub)

    walk(DOMNode)
    return found


def own_bindings(cls: type[DOMNode]) -> list[Binding]:
    """The bindings `cls` itself declares (not those it inherits)."""
    return [item if isinstance(item, Binding) else Binding(*item) for item in cls.__dict__.get("BINDINGS", ())]


def remapped(binding: Binding, keymap: Mapping[str, str] | Keymap) -> Binding:
    """`binding` with the keys `keymap` gives its id, if they differ from its own."""
    keys = keymap.get(binding.id) if binding.id else None
    if not keys or keys == binding.key:
        return binding
    return replace(binding, key=keys, key_display=None)


def key_display(app: App[object], binding: Binding) -> str:
    """How the keys of `binding` read on screen: `j / ↓` for "j,down"."""
    if binding.key_display:
        return binding.key_display
    return " / ".join(app.get_key_display(binding.with_key(key.strip())) for key in binding.key.split(","))



def keys_of(app: App[object], ids: set[str]) -> dict[str, str]:
    """Binding id → how its keys read (as remapped), for the bindings of `ids`."""
    return {binding.id: key_display(app, binding) for _, binding in declared_bindings(app) if binding.id in ids}
