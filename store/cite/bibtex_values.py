"""Text as BibTeX field values that LaTeX prints, and a LaTeX decoder reads back, as the same text:
special characters escaped (Unicode kept: the file is UTF-8), inline math kept, braces that do not
pair written as macros; identifiers and addresses verbatim; and a title braced only where a style
would lower-case it wrongly (`store.papers.title_case`)."""
from __future__ import annotations

import re
from collections.abc import Sequence

from store.papers.inert import inert
from store.papers.title_case import protected_spans_of

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\string^",
    "`": r"\textasciigrave{}",
}
_SPECIAL_RE = re.compile("|".join(re.escape(c) for c in _SPECIAL))
# Ligatures LaTeX would form: `--` (dash) and `''` (closing quote); an empty group keeps them apart.
_LIGATURE = re.compile(r"-(?=-)|'(?=')")
# Inline math such as `$\geq 50$` or `$x^2$` is kept as LaTeX; a `$` in prose ("$5 and $10") is not math.
_MATH = re.compile(r"(?<!\\)\$([^$%]*[\\^_][^$%]*)(?<!\\)\$")
# What `_escaped` changes at all: a special character or a ligature (most titles and names have neither).
_TO_ESCAPE = re.compile("[" + re.escape("".join(_SPECIAL)) + "]|--|''")


def _paired(text: str) -> bool:
    """Whether the braces of `text` pair up in order, each `}` closing an earlier `{`. BibTeX counts
    every brace, escaped or not: a `\\}` without its `\\{` ends a braced value early."""
    if "{" not in text and "}" not in text:
        return True
    depth = 0
    for char in text:
        if char == "{" or char == "}":
            depth += 1 if char == "{" else -1
            if depth < 0:
                return False
    return depth == 0


def balanced(text: str) -> bool:
    """Braces paired and no trailing backslash: safe inside a braced value."""
    return _paired(text) and not re.search(r"(?<!\\)(?:\\\\)*\\$", text)


def _plain_math(text: str) -> bool:
    """Math a LaTeX decoder keeps as it is: braces balanced, backslashes only start macro names."""
    return not re.search(r"\\(?![A-Za-z])", text) and balanced(text)


# Braces that do not pair up (see `_paired`) are written as macros; `\\{ \\}` only in pairs.
_LONE_BRACE = {"{": r"\ensuremath{\lbrace}", "}": r"\ensuremath{\rbrace}"}


def _escape_prose(text: str, paired: bool | None = None) -> str:
    """`text` escaped; its braces as `\\{ \\}` when they pair up (in `text`, or as `paired` says)."""
    special = _SPECIAL if (_paired(text) if paired is None else paired) else {**_SPECIAL, **_LONE_BRACE}
    return _LIGATURE.sub(r"\g<0>{}", _SPECIAL_RE.sub(lambda m: special[m.group()], text))


def latex_escape(text: str, math: bool = True) -> str:
    """`text` as a BibTeX field value that LaTeX prints, and a LaTeX decoder reads back, as the same text.

    Whitespace is collapsed and control characters removed; Unicode is kept (the file is UTF-8).
    With `math`, inline math with balanced braces is kept as math (text from JSON, CSV or an
    abstract); without, every `$` is a dollar sign (text a BibTeX reader already decoded).
    """
    return _escaped(" ".join(inert(text).split()), math)


def _escaped(flat: str, math: bool = True, paired: bool | None = None) -> str:
    """`latex_escape` of text already inert and spaced as it is to be written (a part of a title:
    `paired` says whether the braces of the whole pair up)."""
    if not _TO_ESCAPE.search(flat):
        return flat
    out: list[str] = []
    last = 0
    for match in _MATH.finditer(flat) if math else ():
        if not _plain_math(match.group(1)):
            continue
        out.append(_escape_prose(flat[last : match.start()], paired))
        out.append(match.group())
        last = match.end()
    out.append(_escape_prose(flat[last:], paired))
    return "".join(out)


def title_value(title: str) -> str:
    """`title` as a BibTeX title: escaped as `latex_escape` does, with braces around only what a
    style would wrongly lower-case (`store.papers.title_case`): `{BERT} for {Bengali} speech`."""
    return title_values([title])[0]


def title_values(titles: Sequence[str]) -> list[str]:
    """`title_value` of each of `titles`, the parts to brace found for all of them together (`protected_spans_of`)."""
    flats = [" ".join(inert(title).split()) for title in titles]
    return [_braced(flat, spans) if spans else _escaped(flat) for flat, spans in zip(flats, protected_spans_of(flats))]


def _braced(flat: str, spans: Sequence[tuple[int, int]]) -> str:
    """`flat` (a title inert and spaced) escaped, with `spans` of it in braces."""
    paired = _paired(flat)
    out: list[str] = []
    last = 0
    for start, end in spans:
        out += [_escaped(flat[last:start], paired=paired), "{", _escaped(flat[start:end], paired=paired), "}"]
        last = end
    out.append(_escaped(flat[last:], paired=paired))
    return "".join(out)


def verbatim(value: str) -> str:
    """A URL or identifier as a field value: kept as is (braces and backslashes percent-encoded
    when they would unbalance the value)."""
    if value.isprintable() and "{" not in value and "}" not in value and "\\" not in value:  # (most: nothing to do)
        return value.strip()
    flat = inert(value).strip()
    return flat if balanced(flat) else flat.replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D")
