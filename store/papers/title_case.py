"""Which parts of a title a BibTeX or biblatex style would wrongly lower-case, so a citation braces
just those: `{BERT}`, `{GPT-4}`, `{PixArt}-$\\alpha$`, not the whole title.

Styles print titles in sentence case: BibTeX's `change.case$` ("t") keeps the first letter and the
one after a colon and a space, lower-cases the rest; biblatex's `\\MakeSentenceCase` likewise.
Anything in braces is kept. So what needs braces is what must keep a capital that is not first:
- a word with a capital after its first letter (acronyms, inner capitals: BERT, GPT-4, PixArt,
  LLaMA, 3D, k-NN, O'Brien), and math with a capital (`$O(n)$`);
- the method or system name before a colon (`{Refresh Learning}: a unified framework`), when it is
  more than its first word (the style keeps that word's first letter itself);
- in a title written in sentence case, a capitalised word after the first (`... for Bengali
  speech`): there a capital is a proper name. In a title written in title case (`A Unified
  Framework for Continual Learning`) a capital says nothing, and the style's sentence case is
  what the author meant; so those words are left to it, as Better BibTeX leaves a title-cased one.

The rules see the title as Unicode text, LaTeX math kept as `$...$`; `store.cite.citations` escapes and
braces the spans given here."""
from __future__ import annotations

import re

_WORD = re.compile(r"\S+")
# What may open or close a word without being part of it: quotes, brackets, sentence punctuation.
_LEADING = re.compile(r"^[\"'`(\[{“‘«]+")
_TRAILING = re.compile(r"[\"'`)\]}.,;:!?”’»]+$")
_MATH = re.compile(r"\$[^$]*\$")
_PARTS = re.compile(r"[-–/]")
_MINOR = frozenset(
    "a an and as at but by for from in into nor of on onto or over per the to toward towards up upon via vs "
    "with within without".split()
)
_NAME_WORDS = 3
"""At most this many words before a colon are a name (`Refresh Learning:`); more are a headline."""


def _inner_capital(core: str) -> bool:
    """A capital after a word's first letter (each part of a hyphenated word on its own), or in its math."""
    if "$" in core and any(char.isupper() for math in _MATH.findall(core) for char in math):
        return True
    return any(any(char.isupper() for char in part[1:]) for part in _PARTS.split(_MATH.sub("", core)))


def _capitalised(core: str) -> bool:
    return core[:1].isupper()


def protected_spans(title: str) -> list[tuple[int, int]]:
    """The (start, end) spans of `title` (one space between words) to brace, in order, adjacent
    protected words joined into one span."""
    words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(title)]
    cores = []
    for start, end, word in words:
        lead = _LEADING.match(word)
        trail = _TRAILING.search(word)
        a = start + (lead.end() if lead else 0)
        b = max(a, end - (len(trail.group()) if trail else 0))
        cores.append((a, b, title[a:b]))
    after_colon = [i > 0 and words[i - 1][2].endswith(":") for i in range(len(words))]
    # Sentence case or title case: how the words a title case would capitalise are written.
    votes = [_capitalised(core) for i, (_, _, core) in enumerate(cores)
             if i and not after_colon[i] and len(core) > 3 and core.isalpha() and core.casefold() not in _MINOR
             and not _inner_capital(core)]
    sentence_case = votes.count(True) < votes.count(False)
    protect = [bool(core) and _inner_capital(core) for _, _, core in cores]
    colon = next((i for i, (_, _, word) in enumerate(words) if word.endswith(":")), None)
    if colon is not None and 0 < colon < _NAME_WORDS and all(_capitalised(c) for _, _, c in cores[: colon + 1]):
        protect[: colon + 1] = [True] * (colon + 1)
    if sentence_case:
        for i, (_, _, core) in enumerate(cores):
            protect[i] = protect[i] or (i > 0 and not after_colon[i] and _capitalised(core))
    spans: list[tuple[int, int]] = []
    for i, (a, b, core) in enumerate(cores):
        if not protect[i] or a == b:
            continue
        joins = spans and protect[i - 1] and not words[i - 1][2].endswith(":") and title[spans[-1][1]:a] == " "
        spans[-1:] = [(spans[-1][0], b)] if joins else spans[-1:] + [(a, b)]
    return spans
