"""Abstract text for display and search: links found, control characters made inert."""
from __future__ import annotations

import re

_URL = re.compile(r"https?://[^\s<>\"'`]+")
_TRAILING = ".,;:!?)]}*_'\""


def find_links(text: str) -> tuple[str, ...]:
    """URLs in `text`, in order, without trailing punctuation, each once."""
    seen: dict[str, None] = {}
    for match in _URL.finditer(text):
        url = match.group().rstrip(_TRAILING)
        if url.count("(") > url.count(")") and match.group()[len(url) : len(url) + 1] == ")":
            url += ")"
        seen.setdefault(url, None)
    return tuple(seen)


_CONTROL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def inert(text: str) -> str:
    """`text` with terminal escape sequences and control characters removed (tabs and newlines kept)."""
    return _CONTROL.sub("", text)
