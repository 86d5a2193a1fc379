"""Textual's `Input` and `TextArea`, taking keys in the order they were typed.

Both insert a typed character at once, but a bound key (backspace, ←, ctrl+w, escape…) only
takes effect after the key has bubbled up to the app, which checks the bindings then: keys
that arrive together ("xy⌫abc" from a fast typist, a macro, a slow moment) are applied out of
order — "xyab" instead of "xabc" (Textual issue #6605, unfixed in the pinned 8.2.8). Here the
bindings a key would reach are run as soon as the widget has declined the key, as Textual's
own pending fix does (pull request #6631)."""
from __future__ import annotations

from textual import events, widgets


class KeysInOrder:
    """For a widget class (listed before it): runs the (non-priority) binding a key reaches as
    soon as the widget itself declines the key."""

    async def _on_key(self, event: events.Key) -> None:
        await super()._on_key(event)  # type: ignore[misc]
        # Not handled by the widget: what the app would do when the key reaches it, done now.
        # Priority bindings were tried before the key got here.
        if not event._stop_propagation and await self.app._check_bindings(event.key):  # type: ignore[attr-defined]
            event.stop()
            event.prevent_default()


class Input(KeysInOrder, widgets.Input):
    """An `Input` that takes keys in the order they were typed."""


class TextArea(KeysInOrder, widgets.TextArea):
    """A `TextArea` that takes keys in the order they were typed."""
