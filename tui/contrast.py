"""Letters that can be read in every theme: WCAG AA contrast (4.5:1) between each drawn letter and its background.

Textual's built-in themes were not made for the app's colours (an orange `•` on light grey in textual-light,
solarized's grey text at 4.1:1), and a theme the user picks can be anything: so the app's last line filter
(`App.get_line_filters`, applied to every line drawn, after Textual's own) moves a letter's colour that is
too close to its background just far enough towards black or white, keeping its hue; lines and blocks
(borders, bars, the scrollbar) are left as drawn. Terminals do the same ("minimum contrast" in iTerm2 and
Windows Terminal). The colours a widget asks for elsewhere stay the theme's.
"""
from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor, ColorType
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

AA = 4.5
"""WCAG AA for text: the least contrast a letter is drawn with."""
AAA = 7.0
"""WCAG AAA for text."""
STEPS = 20
"""How finely a colour is moved towards black or white (5% a step)."""
ANSI_BLACK, ANSI_WHITE = RichColor.from_ansi(0), RichColor.from_ansi(15)


def luminance(color: RichColor) -> float:
    """WCAG relative luminance (an ANSI colour as rich's default terminal palette has it)."""
    def channel(value: int) -> float:
        value_ = value / 255
        return value_ / 12.92 if value_ <= 0.03928 else ((value_ + 0.055) / 1.055) ** 2.4
    red, green, blue = color.get_truecolor()
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(a: RichColor, b: RichColor) -> float:
    """WCAG contrast ratio: 1 (none) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@lru_cache(4096)
def legible(color: RichColor, background: RichColor, least: float = AA) -> RichColor:
    """`color`, or the nearest colour towards white or black (first the way it already leans from the
    background) that has at least `least` contrast on `background`; the best there is if neither has.
    An ANSI colour (whose shade the terminal decides) becomes ANSI black or bright white."""
    if contrast(color, background) >= least:
        return color
    if ColorType.STANDARD in (color.type, background.type) or ColorType.EIGHT_BIT in (color.type, background.type):
        return max((ANSI_WHITE, ANSI_BLACK), key=lambda end: contrast(end, background))
    ends = ("#ffffff", "#000000") if luminance(color) >= luminance(background) else ("#000000", "#ffffff")
    start = Color.from_rich_color(color)
    for end in ends:
        target = Color.parse(end)
        for step in range(1, STEPS + 1):
            moved = start.blend(target, step / STEPS).rich_color
            if contrast(moved, background) >= least:
                return moved
    return max((RichColor.parse(end) for end in ends), key=lambda end: contrast(end, background))


@lru_cache(4096)
def legible_style(style: Style) -> Style:
    """`style` with a foreground that can be read on its background (see `legible`)."""
    color, background = (style.bgcolor, style.color) if style.reverse else (style.color, style.bgcolor)
    if color is None or background is None or color.is_default or background.is_default:
        return style
    better = legible(color, background)
    if better == color:
        return style
    return style + (Style(bgcolor=better) if style.reverse else Style(color=better))


def graphic(text: str) -> bool:
    """Only box drawing and block elements (borders, bars, the scrollbar, a selection's `▌`) and spaces."""
    return all(0x2500 <= ord(ch) <= 0x259F or ch == " " for ch in text)


class MinimumContrast(LineFilter):
    """The line filter that draws every letter with at least AA contrast (see the module docstring)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [segment if segment.style is None or segment.control or graphic(segment.text)
                else Segment(segment.text, legible_style(segment.style), segment.control)
                for segment in segments]
