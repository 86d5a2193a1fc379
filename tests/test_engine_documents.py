"""The engine's documents hold a text's words as SearchIndex finds them, whichever way they are found
(store.search.engine.documents: `spelled`, one regex pass for ASCII text)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from store.search.engine.documents import lowered, spelled
from store.search.query import WORD

_TEXT = st.text(alphabet=st.one_of(st.sampled_from("aZ9_ ,.-()'\"\t\n\x0b\x1c\x01é\u0301İß\u00a0Σ²"),
                                   st.characters(max_codepoint=0x7f), st.characters()), max_size=60)


@settings(max_examples=500)
@given(_TEXT)
def test_a_text_is_spelled_as_its_lowered_words_and_its_distinct_words_as_written(text):
    lowered_words, written = spelled(text)
    assert lowered_words == lowered(text)
    assert sorted(written.split()) == sorted(set(WORD.findall(text)))
