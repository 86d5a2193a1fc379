"""An acronym's long form: the words before "(HDGNN)" that it abbreviates.

`expansion_before(text, start, acronym)` reads the clause before an acronym in parentheses:
the shortest run of words whose initials (word starts, starts after hyphens, capitals, digits)
cover the acronym's letters in order, or failing that `long_form`, the letters found in order
from a word start on ("Brownian graph neural networks (BroGNet)"), else a run of capitalised
words. `long_form(letters, words)` also tells whether words spelled out after a name are its
long form ("MOTOR (Many Outcome Time Oriented Representations)").

Used by the name finder (`store.papers.name_candidates`) and the title it gives (`store.papers.names`); which
acronym is a contribution's name is theirs to say.
"""
from __future__ import annotations

QUOTES = "\"'“”‘’`«»"
"""Stripped from the words of a clause (and, by the name finder, from around a name)."""
STOP_WORDS = {"a", "an", "the", "of", "for", "and", "or", "to", "in", "on", "with", "via", "by", "from", "as", "at"}
"""Words a long form does not start with; the name finder takes "in our case, X" (one before "our")
for no name of ours."""


def _initials(word: str) -> str:
    """The letters of `word` an acronym is made from: its start, starts after hyphens, capitals, digits."""
    out = [word[0]]
    for before, char in zip(word, word[1:]):
        if char.isupper() or char.isdigit() or (before in "-/" and char.isalpha()):
            out.append(char)
    return "".join(out).lower()


def _covers(acronym: str, letters: str) -> int:
    """How many of `acronym`'s letters appear in order in `letters`."""
    found, at = 0, 0
    for char in acronym:
        at = letters.find(char, at)
        if at == -1:
            break
        found, at = found + 1, at + 1
    return found


def expansion_before(text: str, start: int, acronym: str) -> str:
    """The words before `text[start]` that `acronym` abbreviates, or ''."""
    clause = text[max(0, start - 160) : start]
    for stop in ".;:,(":
        clause = clause[clause.rfind(stop) + 1 :]
    words = [w for w in (w.strip(QUOTES) for w in clause.split()[-12:]) if w]
    letters = "".join(c.lower() for c in acronym if c.isalnum())
    if not letters or not words:
        return ""
    best, best_cover, initials, done = "", 0.0, "", 0
    for k in range(1, len(words) + 1):
        first = words[-k]
        if first.lower() in STOP_WORDS or first[0].lower() != letters[0]:
            continue
        # the initials of words[-k:]: those of the last `done` words are known already
        initials = "".join(_initials(word) for word in words[-k : len(words) - done]) + initials
        done = k
        cover = _covers(letters, initials) / len(letters)
        if cover > best_cover:
            best, best_cover = " ".join(words[-k:]), cover
            if cover == 1:
                break  # no longer run of words can cover more
    if best_cover >= 0.75:
        return best
    loose = long_form(letters, words)
    if loose:
        return loose
    capitalised = []
    for word in reversed(words):
        if not word[0].isupper():
            break
        capitalised.insert(0, word)
    return " ".join(capitalised) if len(capitalised) >= 2 else ""


def long_form(letters: str, words: list[str]) -> str:
    """The shortest tail of `words` holding `letters` in order, the first at a word start, else ''.

    The letters may come from anywhere in a word ("Brownian graph neural networks (BroGNet)",
    "Dual Structured Exploration with Mixup (DREAM)"): Schwartz & Hearst's test for an acronym's
    long form, tried after the stricter test on initials. Long forms of more than
    min(len + 5, 2 len) words are not looked at, as they proposed.
    """
    for k in range(1, min(len(words), len(letters) + 5, 2 * len(letters)) + 1):
        if words[-k].lower() in STOP_WORDS or words[-k][0].lower() != letters[0]:
            continue
        phrase = " ".join(words[-k:]).lower()
        at = len(phrase)
        for char in reversed(letters[1:]):
            at = phrase.rfind(char, 1, at)
            if at == -1:
                break
        else:
            return " ".join(words[-k:])
    return ""
