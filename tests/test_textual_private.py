"""The private parts of Textual the app relies on (tui/textual_private.py), pinned: each test fails when a
Textual release changes what the app reads or replaces there."""
from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.binding import Binding
from textual.strip import Strip
from textual.widget import Widget

from tui import textual_private

textual_private.inert_strips()  # (as importing tui.app does)


# The app's boundary itself: whatever text or link a segment holds, Strip.render writes no control
# but Textual's own styles and links around it, and clean text exactly as Textual would.
OWN = re.compile(r"\x1b\[[0-9;]*m|\x1b\]8;(?:id=[^;\x1b]*)?;[^\x1b\x07\x9c]*\x1b\\")
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]")
TEXT = st.lists(st.characters(exclude_categories=("Cs",)) | st.sampled_from(["\x1b", "\x1b]52;c;", "\x9b", "\x9d", "\x07", "\u202e"]),
                max_size=20).map("".join)

@settings(max_examples=300, deadline=None)
@given(text=TEXT, link=TEXT, bold=st.booleans())
def test_the_app_writes_no_control_whatever_a_segment_holds(text, link, bold):

    style = Style(bold=bold, link=f"https://x.org/{link}" if link else None)
    rendered = Strip([Segment(text), Segment(text, style)]).render(Console())
    assert CONTROL.findall(OWN.sub("", rendered)) == []


def test_clean_text_renders_as_textual_renders_it():

    segments = [Segment("plain "), Segment("bold", Style(bold=True, color="red")), Segment(" link", Style(link="https://x.org"))]
    console = Console()
    assert Strip(segments).render(console) == Strip.render.original(Strip(segments), console)


class Parent(Widget):
    BINDINGS = [Binding("a", "one", "One", id="one"), Binding("b", "two", "Two", id="two")]


class Child(Parent):
    BINDINGS = [Binding("b", "three", "Three", id="three")]


def test_merged_bindings_are_a_class_s_own_and_inherited_ones_its_own_winning_a_key():
    """What the keys file's clash check walks (tui.keymap.Slots): a subclass's binding of a key replaces
    its parent's, and the parent's other keys are inherited."""
    assert [(b.key, b.action) for b in textual_private.merged_bindings(Child)] == [("a", "one"), ("b", "three")]
    assert [(b.key, b.action) for b in textual_private.merged_bindings(Parent)] == [("a", "one"), ("b", "two")]


async def test_keymap_of_gives_the_keymap_the_app_was_given():
    app = App()
    async with app.run_test():
        app.set_keymap({"one": "x"})
        assert dict(textual_private.keymap_of(app)) == {"one": "x"}
