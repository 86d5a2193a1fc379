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
from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import accumulate

# What may open or close a word without being part of it: quotes, brackets, sentence punctuation.
_LEADING = re.compile(r"^[\"'`(\[{“‘«]+")
_TRAILING = re.compile(r"[\"'`)\]}.,;:!?”’»]+$")
_MATH = re.compile(r"\$[^$]*\$")
_PARTS = re.compile(r"[-–/]")
_MINOR = frozenset(
    "a an and as at but by for from in into nor of on onto or over per the to toward towards up upon via vs "
    "with within without".split()
)


def _inner_capital(core: str) -> bool:
    """A capital after a word's first letter (each part of a hyphenated word on its own), or in its math."""
    if "$" in core and any(char.isupper() for math in _MATH.findall(core) for char in math):
        return True
    return any(any(char.isupper() for char in part[1:]) for part in _PARTS.split(_MATH.sub("", core)))


def _capitalised(core: str) -> bool:
    return core[:1].isupper()


# A word's facts, the bits of its letter (`_letter`); and of its place in a title (first, after a colon, in the name).
_INNER, _CAPITAL, _VOTES, _COLON, _LEAD, _TRAIL, _FIRST, _AFTER, _NAMED = (1 << bit for bit in range(9))
_START = "\x00"
"""What marks a title's first word among the words of many (no title `inert` made holds it)."""


def _class(test: Callable[[int], bool]) -> str:
    """The letters of the words whose facts pass `test`, as a regular expression's character class."""
    return "[" + re.escape("".join(chr(0x100 + bits) for bits in range(1 << 9) if test(bits))) + "]"


def _run_letter(bits: int) -> str:
    """A protected word's letter for `_RUN`: whether it may be braced with the word before (`p`, `T`: nothing
    before its core, nor is it a title's first word or the first after a colon) and with the word after (`p`, `L`:
    nothing after its core)."""
    return "pTLB"[bool(bits & (_LEAD | _FIRST | _AFTER)) * 2 + bool(bits & _TRAIL)]


def _table(letter: Callable[[int], str | None]) -> dict[int, str | None]:
    return str.maketrans({chr(0x100 + bits): letter(bits) for bits in range(1 << 9)})


_AFTER_COLON = re.compile(f"(?<={_class(lambda bits: bits & _COLON)}){_class(lambda bits: not bits & _FIRST)}")
_NAME = re.compile(_class(lambda bits: bits & _FIRST and bits & _CAPITAL and not bits & _COLON)
                   + _class(lambda bits: not bits & _FIRST and bits & _CAPITAL and not bits & _COLON) + "?"
                   + _class(lambda bits: not bits & _FIRST and bits & _CAPITAL and bits & _COLON))
"""The method or system name before a colon: a title's first two or three words, all capitalised, the last with the
colon (`Refresh Learning:`); more are a headline (a capital on a first word the style keeps itself)."""
_VOTE = _table(lambda bits: "|" if bits & _FIRST else ("+" if bits & _CAPITAL else "-") if bits & _VOTES and not bits & _AFTER
               else None)
"""A title's first word as `|`, then its capitalised and its lower-case words that vote on its case."""
_PROTECTED = [_table(lambda bits, sentence=sentence: _run_letter(bits) if bits & (_INNER | _NAMED) or (
    sentence and bits & _CAPITAL and not bits & (_FIRST | _AFTER)) else ".") for sentence in (False, True)]
"""Each word's `_RUN` letter, or `.` for a word left alone: in a title in title case, then in one in sentence case."""
_RUN = re.compile("[pL]p*[pT]|[pLTB]")
"""Protected words braced together: each but the last with nothing after its core, each but the first nothing before."""


@lru_cache(maxsize=1 << 16)
def _core(word: str) -> tuple[int, int]:
    """Where a word's core starts and ends within it: quotes, brackets and punctuation around it left out."""
    if word[:1] == _START:
        a, b = _core(word[1:])
        return a + 1, b + 1
    lead = _LEADING.match(word)
    trail = _TRAILING.search(word)
    a = lead.end() if lead else 0
    return a, max(a, len(word) - (len(trail.group()) if trail else 0))


@lru_cache(maxsize=1 << 16)
def _letter(word: str) -> str:
    """What the rules need of one word, as one letter (its bits: `_INNER` ...), kept for the words seen most (a
    title's words repeat across a list): whether its core has an inner capital, whether it is capitalised, whether
    it votes on the title's case (a plain word over three letters that title case would capitalise), whether the
    word ends in a colon, whether something comes before or after its core, and whether it starts a title."""
    if word[:1] == _START:
        return chr(ord(_letter(word[1:])) + _FIRST)
    a, b = _core(word)
    core = word[a:b]
    inner = bool(core) and _inner_capital(core)
    votes = len(core) > 3 and core.isalpha() and core.casefold() not in _MINOR and not inner
    return chr(0x100 + (_INNER * inner | _CAPITAL * _capitalised(core) | _VOTES * votes | _COLON * word.endswith(":")
                        | _LEAD * (a > 0) | _TRAIL * (b < len(word))))


def _named(name: re.Match[str]) -> str:
    return "".join(chr(ord(letter) + _NAMED) for letter in name.group())


def protected_spans_of(titles: Sequence[str]) -> list[list[tuple[int, int]]]:
    """For each of `titles` (its words one space apart, as `store.cite.bibtex_values` makes it), the (start, end) spans
    to brace, in order, adjacent protected words joined into one span; worked out for all of them together: the
    titles' words as one string of their letters (`_letter`), which the rules read with string methods and regular
    expressions, not word by word."""
    spans: list[list[tuple[int, int]]] = [[] for _ in titles]
    # No capital after the first letter (most titles in a sentence-case list): nothing to brace.
    todo = [k for k, title in enumerate(titles) if title and not title[1:].islower()]
    if not todo:
        return spans
    text = _START + f" {_START}".join([titles[k] for k in todo])
    words = text.split(" ")
    shape = "".join(map(_letter, words))
    if ":" in text:
        shape = _AFTER_COLON.sub(lambda letter: chr(ord(letter.group()) + _AFTER), shape)
        shape = _NAME.sub(_named, shape)
    sentence = [votes.count("-") > votes.count("+") for votes in shape.translate(_VOTE).split("|")[1:]]
    firsts = list(accumulate([titles[k].count(" ") + 1 for k in todo], initial=0))  # each title's first word
    ends = list(accumulate(map(len, words), initial=0))  # (word g starts at ends[g] + g in `text`)
    cases = [shape.translate(table) for table in _PROTECTED]
    marks = "".join([cases[case][a:b] for a, b, case in zip(firsts, firsts[1:], sentence)])  # (each title's by its case)
    for run in _RUN.finditer(marks):
        first, last = run.start(), run.end() - 1
        n = bisect_right(firsts, first) - 1
        at = ends[firsts[n]] + firsts[n] + 1  # (where the title starts in `text`, after its mark)
        spans[todo[n]].append((ends[first] + first + _core(words[first])[0] - at, ends[last] + last + _core(words[last])[1] - at))
    return spans
