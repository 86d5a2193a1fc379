"""A display title for an abstract that has none."""
from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")
MAX_TITLE = 90


def first_sentence(text: str, limit: int = MAX_TITLE) -> str:
    """The first sentence of `text`, cut at a word boundary to at most `limit` characters."""
    flat = " ".join(text.split())
    sentence = _SENTENCE_END.split(flat, maxsplit=1)[0].rstrip(".")
    if len(sentence) <= limit:
        return sentence
    cut = sentence[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def derive_title(text: str) -> tuple[str, str]:
    """(title, name) for a bare abstract: for now its trimmed first sentence and no name."""
    return first_sentence(text), ""
