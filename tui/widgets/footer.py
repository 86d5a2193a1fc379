"""The footer of the main screen and of each dialog: the keys of the screen it is on, grouped as the help groups them.

Textual's footer lists the keys in the order of its key map, where a key the user's keys file moves
(tui.keymap) goes to the end: a group would show twice and the line be cut (`k/↑ ^n Move … f Sta▏`).
This one lists them in the order they are declared, each binding's keys as one item, so the user's
keys sit in their group. A dialog composes its own: the keys it shows are its own, not the list's under it,
first those its fields handle themselves (an input's `enter`), which the dialog names in `FIELD_KEYS`, a
list of bindings to show. Where the line has no room for them all, whole groups and keys are left out from
its end (the last declared first; the moving keys, which the arrows do too, before all; the palette's key
kept): never a word cut (`Views and sor▏` at 120 columns).

The footer is composed again only when what it shows changes (Textual's recomposes it at each change of the
bindings: the open's focus moves alone were three times ~30 widgets mounted before the first frame), and each key
is made in the footer's style (compact or not) from the start: Textual's sets its style class once the key is
mounted, then again through the binding to the footer's, each a pass of the stylesheet (126 of them at an open).
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import groupby

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import Footer

from tui.keys import MOVE
from tui.textual_private import FooterKey, FooterLabel, KeyGroup, merged_bindings


class KeysFooter(Footer):
    """Textual's footer with the keys in their declared order (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self._ready = False
        self._units: list[list[Widget]] = []
        """The footer's items as they are left out whole: a key, or a group's keys and its label."""
        self._widths: dict[int, int] = {}
        """A unit's cells (by its place) as laid out while shown: a unit left out has no width then."""
        self._moving: set[int] = set()
        """The places of the moving keys' units: left out first."""
        self._composed: tuple[object, ...] | None = None
        """What the footer was last composed with (`_showing`)."""

    def bindings_changed(self, screen: Screen) -> None:
        self._ready = True
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        """Compose the footer again, when it would show something else than it shows."""
        if self.is_attached and self._showing() != self._composed:  # (one removed since: nothing, as Textual's)
            await super().recompose()

    def _showing(self) -> tuple[object, ...]:
        """What the footer shows: its keys (`_shown`), the palette's, its style."""
        return (self._ready, self.compact, self.show_command_palette, tuple(self._shown()) if self._ready else (),
                self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING))

    def compose(self) -> ComposeResult:
        self._units, self._widths, self._moving = [], {}, set()
        self._composed = self._showing()
        if not self._ready:
            return
        for group, items in groupby(self._shown(), lambda item: item[0].group):
            items = list(items)
            if group is not None and len(items) > 1:
                with KeyGroup(classes="-compact" if group.compact else "") as keys:
                    for binding, keys_shown, enabled, tooltip in items:
                        yield self._key(binding.key, keys_shown, "", binding.action, disabled=not enabled,
                                        tooltip=tooltip or binding.description, classes="-grouped")
                label = FooterLabel(group.description)
                self._units.append([keys, label])
                if group is MOVE:
                    self._moving.add(len(self._units) - 1)
                yield label
            else:
                for binding, keys_shown, enabled, tooltip in items:
                    key = self._key(binding.key, keys_shown, binding.description, binding.action, disabled=not enabled,
                                    tooltip=tooltip)
                    self._units.append([key])
                    if binding.group is MOVE:
                        self._moving.add(len(self._units) - 1)
                    yield key
        self.call_after_refresh(self._fit)
        palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE and palette is not None:
            _, binding, enabled, _ = palette
            yield self._key(binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                            classes="-command-palette", disabled=not enabled, tooltip=binding.tooltip or binding.description,
                            compact=True)

    def _key(self, *args: str, classes: str = "", compact: bool | None = None, **kwargs: object) -> FooterKey:
        """A footer key, compact as the footer is (bound to it), or as `compact` says (not bound): its style class
        given now, not set once it is mounted (see the module docstring)."""
        look = self.compact if compact is None else compact
        key = FooterKey(*args, classes=f"{classes} -compact" if look else classes, **kwargs)  # type: ignore[arg-type]
        key.set_reactive(FooterKey.compact, look)
        return key.data_bind(compact=Footer.compact) if compact is None else key

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Show each unit that fits beside the palette's key and the units before it (the moving keys' last)."""
        for place, unit in enumerate(self._units):
            if all(widget.display for widget in unit):
                width = sum(widget.outer_size.width + widget.styles.margin.width for widget in unit)
                if width == 0 and unit[0].is_attached:  # (not laid out yet: once it is)
                    if self.screen.is_active:  # (under a dialog it is not laid out, and it is composed again after)
                        self.call_after_refresh(self._fit)
                    return
                self._widths[place] = width
        palette = self.query(".-command-palette")
        room = self.size.width - sum(key.outer_size.width + key.styles.margin.width for key in palette)
        kept = sorted(range(len(self._units)), key=lambda place: place in self._moving)
        for place in kept:  # (one too wide left out, a later one that fits is shown)
            shown = self._widths.get(place, 0) <= room
            room -= self._widths.get(place, 0) if shown else 0
            for widget in self._units[place]:
                if widget.display != shown:
                    widget.display = shown

    def _shown(self) -> Iterator[tuple[Binding, str, bool, str]]:
        """(binding, its keys as shown, enabled, tooltip) for each shown binding of the screen: the keys its
        fields handle first, then node by node (the focused widget's first, the app's last), each node's in
        the order its class declares them."""
        app = self.app
        for binding in getattr(self.screen, "FIELD_KEYS", ()):
            yield binding, app.get_key_display(binding), True, binding.tooltip
        nodes: list[DOMNode] = []
        first: dict[tuple[int, str], tuple[Binding, bool, str]] = {}
        """(node, action) → its first binding (a binding of several keys is one per key): Textual's footer
        shows an action's first key."""
        for node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.key != app.COMMAND_PALETTE_BINDING:
                if node not in nodes:
                    nodes.append(node)
                first.setdefault((nodes.index(node), binding.action), (binding, enabled, tooltip))

        def rank(item: tuple[tuple[int, str], tuple[Binding, bool, str]]) -> tuple[int, int]:
            (node, _), (binding, _, _) = item
            return node, declared_order(type(nodes[node])).get(binding.id, 1 << 30)

        for _, (binding, enabled, tooltip) in sorted(first.items(), key=rank):
            yield binding, app.get_key_display(binding), enabled, tooltip


@lru_cache(64)
def declared_order(cls: type[DOMNode]) -> dict[str | None, int]:
    """Binding id → its place among the bindings `cls` declares (inherited ones too)."""
    return {binding.id: index for index, binding in reversed(list(enumerate(merged_bindings(cls))))}
