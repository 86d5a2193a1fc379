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
from functools import lru_cache

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


@lru_cache(maxsize=1 << 16)
def _word(word: str) -> tuple[int, int, bool, bool, bool, bool]:
    """What the rules need of one word, kept for the words seen most (a title's words repeat across a list):
    where its core starts and ends within it (quotes, brackets and punctuation around it left out), whether
    the core has an inner capital, whether it is capitalised, whether it votes on the title's case (a plain
    word over three letters that title case would capitalise), and whether the word ends in a colon."""
    lead = _LEADING.match(word)
    trail = _TRAILING.search(word)
    a = lead.end() if lead else 0
    b = max(a, len(word) - (len(trail.group()) if trail else 0))
    core = word[a:b]
    inner = bool(core) and _inner_capital(core)
    votes = len(core) > 3 and core.isalpha() and core.casefold() not in _MINOR and not inner
    return a, b, inner, _capitalised(core), votes, word.endswith(":")


def protected_spans(title: str) -> list[tuple[int, int]]:
    """The (start, end) spans of `title` (one space between words) to brace, in order, adjacent
    protected words joined into one span."""
    if title[1:].islower():  # no capital after the first letter (most titles in a sentence-case list): nothing to brace
        return []
    words: list[tuple[int, int, bool, bool, bool]] = []  # each word's core (start, end), inner capital, capitalised, after a colon
    balance = 0  # capitalised less lower-case words among those that vote: sentence case when below 0
    colon = None  # the first word ending in a colon
    after_colon = False
    for i, match in enumerate(_WORD.finditer(title)):
        start = match.start()
        a, b, inner, capitalised, votes, ends_colon = _word(match.group())
        if i and votes and not after_colon:
            balance += 1 if capitalised else -1
        if ends_colon and colon is None:
            colon = i
        words.append((start + a, start + b, inner, capitalised, after_colon))
        after_colon = ends_colon
    # The method or system name before a colon, all its words capitalised.
    name = colon + 1 if colon is not None and 0 < colon < _NAME_WORDS and all(w[3] for w in words[: colon + 1]) else 0
    sentence_case = balance < 0
    spans: list[tuple[int, int]] = []
    protected = False  # the word before
    for i, (a, b, inner, capitalised, after) in enumerate(words):
        was, protected = protected, inner or i < name or (sentence_case and i > 0 and not after and capitalised)
        if not protected or a == b:
            continue
        if spans and was and not after and title[spans[-1][1]:a] == " ":
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))
    return spans
