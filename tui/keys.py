"""The app's keys in one place: the groups the help screen shows them in, and the bindings our code declares.

The help screen and the command palette are both generated from `declared_bindings`, so a key added
to any `BINDINGS` in `tui/` appears in both without further work. Give it a `group` from here.
"""
from __future__ import annotations

from collections.abc import Iterator

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode

MOVE = Binding.Group("Move")
READ = Binding.Group("Read")
TRIAGE = Binding.Group("Triage")
SEARCH = Binding.Group("Search")
COPY = Binding.Group("Copy and export")
VIEWS = Binding.Group("Views and sorts")
GENERAL = Binding.Group("General")

GROUPS = (MOVE, READ, TRIAGE, SEARCH, COPY, VIEWS, GENERAL)
"""The order the help screen lists the groups in; a binding without a group is listed under General.

The Footer shows the shown keys of one group that come one after another as a single item
("j/↓ k/↑ Move"), so keys that should read on their own in the footer (help, quit) have no group."""


def declared_bindings(app: App[object]) -> Iterator[tuple[DOMNode, Binding]]:
    """(node, binding) for every described binding that `tui` declares: each widget
    class of the main screen once, in screen order, then the app's. Textual's own bindings are not included."""
    seen: set[type] = set()
    for node in (*app.default_screen.walk_children(), app):
        cls = type(node)
        if cls in seen or not cls.__module__.startswith("tui."):
            continue
        seen.add(cls)
        for item in cls.__dict__.get("BINDINGS", ()):
            binding = item if isinstance(item, Binding) else Binding(*item)
            if binding.description:
                yield node, binding


def key_display(app: App[object], binding: Binding) -> str:
    """How the keys of `binding` read on screen: `j / ↓` for "j,down"."""
    if binding.key_display:
        return binding.key_display
    return " / ".join(app.get_key_display(binding.with_key(key.strip())) for key in binding.key.split(","))

