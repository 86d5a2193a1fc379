"""The engine's documents hold a text's words as SearchIndex finds them, found in one pass of a regex
(store.search.engine.documents' `spelled`)."""
from __future__ import annotations

import re
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from store.search.engine.documents import lowered, spelled
from store.search.query import WORD

_TEXT = st.text(alphabet=st.one_of(st.sampled_from("aZ9_ ,.-()'\"\t\n\x0b\x1c\x01é\u0301İß\u00a0ΣΑ²"),
                                   st.characters(max_codepoint=0x7f), st.characters()), max_size=60)
_KIND = re.compile(r"(?P<word>[\w\u0300-\u036f])|(?P<space>\s)|(?P<other>.)", re.DOTALL)


_ASCII = st.text(alphabet=st.sampled_from("aZ9_ ,.-()'\"\t\n\x01\x1c"), max_size=60)
"""ASCII texts, whose gaps `spelled` finds by a table rather than the regex `lowered` uses."""


@settings(max_examples=800)
@given(st.one_of(_TEXT, _ASCII))
def test_a_text_is_spelled_as_its_lowered_words_and_its_words_as_written(text):
    lowered_words, written = spelled(text)
    assert lowered_words == lowered(text)
    assert written.split() == WORD.findall(text)


def test_lower_casing_keeps_what_each_character_is():
    """What lets `spelled` lower-case a text once its gaps are found: no character lower-cased becomes another
    kind (a word's, a space, another), in the Unicode of this Python."""
    changed = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).lower() != chr(code)]
    assert changed
    for char in changed:
        assert {_KIND.fullmatch(c).lastgroup for c in char.lower()} == {_KIND.fullmatch(char).lastgroup}, char
