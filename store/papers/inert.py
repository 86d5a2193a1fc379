"""What makes text inert: nothing in it a terminal reads as a command, nothing invisible.

`inert(text)` removes terminal escape sequences (7- and 8-bit), control characters and invisible
format characters (zero-width, bidi, tags, soft hyphen), keeping tabs and newlines: what every
string read from outside is made where it enters (`store.papers.boundary`) and what the command line
writes (`tui.boundary.InertStream`). `invisible_removed(text)` removes those zero-width characters
one by one, so a laid-out line keeps its width: what the app's every drawn cell passes
(`tui.boundary.install`). Neither knows markup; reading markup into a display is `store.papers.text`'s.
"""
from __future__ import annotations

import re
from itertools import chain
from typing import TypeVar

_V = TypeVar("_V")

# Characters no text needs on a screen: C0 controls but tab and newline, DEL, C1 controls (which
# a terminal may read as ESC sequences), zero-width and bidi format characters (U+061C, U+200B–F,
# U+202A–E, U+2060–206F, U+FEFF, U+180E) and tag characters. All are zero cells wide.
_INVISIBLE = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff"
    "\U000e0000-\U000e007f"
)
# Plus the soft hyphen (a cell wide where a terminal draws it), which a reader must not find in words.
_CONTROL_CHARS = _INVISIBLE + "\u00ad"
_CONTROL = re.compile(
    rf"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[@-_]?|\x9b[0-?]*[ -/]*[@-~]?"
    rf"|\x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|[{_CONTROL_CHARS}]"
)
_CONTROL_START = re.compile(f"[{_CONTROL_CHARS}]")
_INVISIBLE_CHARS = re.compile(f"[{_INVISIBLE}]")


_ASCII_CONTROL = bytes([*range(0x09), *range(0x0B, 0x20), 0x7F])
_ASCII_SHOWN = bytes([0x09, 0x0A, *range(0x20, 0x7F)])


def _has_control(text: str, pattern: re.Pattern[str]) -> bool:
    """Whether `text` holds a character of `pattern`, a class of control and format characters
    (never tab, newline or printable ASCII)."""
    if text.isprintable():  # (no character of such a class is: most names and titles)
        return False
    if text.isascii():
        # Most text: only C0 controls and DEL can be there, and bytes find them faster than a regex.
        return len(text.encode().translate(None, _ASCII_CONTROL)) != len(text)
    # Mostly ASCII with a few other letters: the regex looks only at what is not printable ASCII
    # (deleting ASCII bytes leaves the other characters' UTF-8 whole), 5 times faster on an abstract.
    rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_SHOWN)
    return pattern.search(rest.decode("utf-8", "surrogatepass")) is not None


def inert(text: str) -> str:
    """`text` with terminal escape sequences (7- and 8-bit: ESC [ … and CSI …, OSC to its end),
    control characters and invisible format characters (zero-width, bidi, tags, soft hyphen)
    removed; tabs and newlines kept. What everything read from outside is made (`store.papers.boundary`)."""
    return _CONTROL.sub("", text) if _has_control(text, _CONTROL_START) else text


def inert_value(value: _V) -> _V:
    """`value` inert: a string (`inert`), a tuple of them or of such tuples item by item; anything else as it is."""
    if isinstance(value, str):
        return inert(value)  # type: ignore[return-value]
    if isinstance(value, tuple):
        if _printable(value):  # (most authors, keywords and fields: nothing to remove, no need to go item by item)
            return value
        return tuple(inert_value(item) for item in value)  # type: ignore[return-value]
    return value


def _printable(value: tuple) -> bool:
    """Whether `value`, a tuple of strings or of tuples of strings, holds only printable characters (then every
    string in it is inert as it is); False for a tuple of anything else."""
    try:
        joined = "".join(chain.from_iterable(value) if value and type(value[0]) is tuple else value)
    except TypeError:
        return False
    return joined.isprintable()


def invisible_removed(text: str) -> str:
    """`text` without the zero-width control and format characters `inert` removes, each on its own:
    no sequence is recognised, so nothing that takes a cell goes and a laid-out line keeps its
    width. What the output boundaries apply to the text they write (`tui.boundary`)."""
    return _INVISIBLE_CHARS.sub("", text) if _has_control(text, _INVISIBLE_CHARS) else text
