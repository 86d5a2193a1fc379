"""The first-run hint: a line above the footer naming the five keys a new user needs, until the user
hides it (`esc` on the list, or a click); the triage database remembers that (setting `HIDDEN`)."""
from __future__ import annotations

from collections.abc import Mapping

from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

HIDDEN = "first run"
"""The settings document whose `hidden` says the hint was hidden for good."""

KEYS = (
    ("read_next", "read+next"),
    ("toggle_star", "star"),
    ("dismiss", "not for me"),
    ("focus_filter", "filter"),
    ("help", "all keys"),
)
"""The bindings (by id) the hint names, with what it says they do."""


class FirstHint(Static):
    """`New here? Keys: space read+next · s star · d not for me · / filter · ? all keys · esc hides this`
    (what the list is instead of "New here?" for the bundled sample), with the keys as remapped; a click
    hides it (`Hidden` goes up to the app, which remembers it)."""

    DEFAULT_CSS = """
    FirstHint {
        height: auto;
        padding: 0 1;
        background: $boost;
        color: $text-muted;
    }
    """

    class Hidden(Message):
        """The user hid the hint."""

    def show_keys(self, keys: Mapping[str, str], hide: str, about: str = "") -> None:
        """Name the keys of `KEYS` as `keys` (binding id → how it reads) spells them; `hide`: the key that hides
        it; `about`: what the list is ("A 19-paper sample of ICLR 2024"), said first."""
        parts = [Content.assemble((keys.get(binding, "?"), "bold $text-accent"), f" {what}") for binding, what in KEYS]
        hint = Content.assemble((hide, "bold"), " hides this")
        self.update(Content(f"{about}. Keys: " if about else "New here? Keys: ").append(Content(" · ").join([*parts, hint])))

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Hidden())
