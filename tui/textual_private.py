"""Where the app reaches into Textual's private parts, and nowhere else; Textual is pinned (pyproject.toml),
and tests/test_textual_private.py fails when a Textual release changes what each relies on:

- `inert_strips()`: `Strip.render` replaced by one that writes each segment's text and link target with
  their control and invisible format characters removed (the app's boundary to the terminal: tui.boundary).
  A wrapper around the original could not tell a segment's text from Textual's own styles; this is the
  original's body with the text cleaned, reading the strip's `_segments` and `_render_cache`, the console's
  `_color_system` and a style's `_link`.
- `keymap_of(app)`: the keymap `App.set_keymap` gave the app (`App._keymap`: Textual 8 has no public reader).
- `merged_bindings(cls)`: every binding of a class, inherited ones too, one per key, as Textual resolves them
  (`DOMNode._merged_bindings`).
- `FooterKey`, `FooterLabel`, `KeyGroup`: the parts of Textual's footer (`textual.widgets._footer`), which
  tui.widgets.footer composes in its own order."""
from __future__ import annotations

from collections.abc import Mapping

from rich.color import ColorSystem
from rich.style import Style
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.strip import Strip
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

from store.papers.inert import invisible_removed

__all__ = ["FooterKey", "FooterLabel", "KeyGroup", "inert_strips", "keymap_of", "merged_bindings"]


def keymap_of(app: App[object]) -> Mapping[str, str]:
    """Binding id → keys, as `App.set_keymap` last set them."""
    return app._keymap


def merged_bindings(cls: type[DOMNode]) -> list[Binding]:
    """Every binding of `cls`, inherited ones too, one per key (as Textual holds them)."""
    return [binding for bindings in cls._merged_bindings.key_to_bindings.values() for binding in bindings]


def inert_strips() -> None:
    """Make `Strip.render` remove control and invisible format characters from the text and link targets it
    writes (once), as `tui.boundary` describes."""
    if getattr(Strip.render, "inert", False):
        return

    def safe(style: Style) -> Style:
        link = style._link
        return style + Style(link=invisible_removed(link)) if link and invisible_removed(link) != link else style

    def render(self: Strip, console) -> str:
        if self._render_cache is None:
            color_system = console._color_system or ColorSystem.TRUECOLOR
            style_text = self.render_style
            self._render_cache = "".join(
                [
                    invisible_removed(text) if style is None
                    else style_text(safe(style), invisible_removed(text), color_system=color_system)
                    for text, style, _ in self._segments
                ]
            )
        return self._render_cache

    render.inert = True  # type: ignore[attr-defined]
    render.original = Strip.render  # type: ignore[attr-defined]
    Strip.render = render  # type: ignore[method-assign]
