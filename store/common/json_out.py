"""JSON as the program writes it, in every file and output: the one `dumps` that list, similar, set,
export, backups, device files in a sync folder and the database itself go through.

Letters stay as they are (not `\\uXXXX`), but the Unicode line breaks JSON allows raw inside a string
(U+2028, U+2029, and U+0085) are escaped: a consumer that splits lines as Python's `str.splitlines`
or JavaScript does would otherwise cut a record of JSON Lines in two. (json escapes every other
character `splitlines` breaks at; these three occur only inside strings, so escaping them is safe.)
"""
from __future__ import annotations

import json
from typing import Any

_ENCODERS = {sort: json.JSONEncoder(ensure_ascii=False, sort_keys=sort) for sort in (False, True)}
_BREAKS = (("\u2028", "\\u2028"), ("\u2029", "\\u2029"), ("\x85", "\\u0085"))


def dumps(value: Any, sort_keys: bool = False) -> str:
    """`value` as one line of JSON, letters as they are, Unicode line breaks escaped."""
    text = _ENCODERS[sort_keys].encode(value)
    for char, escaped in _BREAKS:
        if char in text:
            text = text.replace(char, escaped)
    return text
