"""A display title for an abstract that has none: the contribution it names, else its first sentence.

`derive_title(plain)` works on the display text (`Paper.plain`: markup removed, so
`**BEND**` reads `BEND`), read as far as it is shown (`store.papers.text.shown_part`). The names it
may introduce, each scored, are `store.papers.name_candidates`'. The best candidate above a threshold
gives the title "NAME — Expansion" (the expansion wherever the text spells the name out, before
it or in parentheses after it: "MOTOR (Many Outcome Time Oriented Representations)", checked by
`store.papers.acronyms.long_form`) or "NAME — appositive" ("FairTune — a framework to ..."; an
appositive of fewer than three words, "a novel", is not used), else "NAME — first sentence";
without a candidate the title is the trimmed first sentence. A title is cut to `MAX_TITLE`
characters at a word, with an ellipsis.
"""
from __future__ import annotations

import re

from store.papers.acronyms import long_form
from store.papers.model import flat as flat_text
from store.papers.name_candidates import candidates
from store.papers.text import shown_part

MAX_TITLE = 90


# Starts with the stop itself, not a lookbehind, so the regex engine skips quickly to candidates.
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z\"“(])")
_APPOSITIVE = re.compile(r"[)\"”’']?\s*(?:,|—|–|--| -|:)\s*((?:a|an|the|our)\s[^,;:.—–()]{3,120})")
_SPELLED_OUT = re.compile(r" \(([^\W\d_][^();,.]{4,80})\)")


def _shorten(text: str, limit: int = MAX_TITLE) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:-—– ") + "…"


def _sentence(flat: str) -> str:
    """The first sentence of a text with single spaces, without its full stop."""
    end = _SENTENCE_END.search(flat)
    return (flat[: end.start() + 1] if end else flat).rstrip(".")


def derive_title(text: str) -> tuple[str, str]:
    """(title, name) for an abstract without a title; `text` is its display text (`Paper.plain`).

    The name is the method, model, benchmark or dataset the abstract introduces ('' when it
    names none). The title is "NAME — what it is" when the text says ("HDGNN — Hybrid
    Directional Graph Neural Network", "FairTune — a framework to ..."), else "NAME — first
    sentence", and the trimmed first sentence alone when no name is found.
    """
    text, _ = shown_part(text)  # a name is introduced near the start; a 10 MB text is not read through
    spaced = "  " in text or "\n" in text or "\t" in text or "\r" in text
    flat = flat_text(text) if spaced else text.strip()
    found = candidates(flat)
    likely = [c for c in found if c.score >= 3]
    if not likely:
        return _shorten(_sentence(flat)), ""
    best = max(likely, key=lambda c: (c.score, -c.position))
    # "We propose Attention-based Iterative Decomposition (AID) ... In our experiments, AID shows":
    # the name may win where it is used, its expansion is where it was defined.
    expansion = best.expansion or next((c.expansion for c in found if c.name == best.name and c.expansion), "")
    spelled_out = _SPELLED_OUT.match(flat, best.end)
    if not expansion and spelled_out:
        # "MOTOR (Many Outcome Time Oriented Representations)": the expansion after the name
        words = spelled_out.group(1).split()
        letters = "".join(c.lower() for c in best.name if c.isalnum())
        if letters and long_form(letters, words) == " ".join(words):
            expansion = spelled_out.group(1)
    if expansion and expansion.casefold() != best.name.casefold():
        return _shorten(f"{best.name} — {expansion}"), best.name
    appositive = _APPOSITIVE.match(flat, best.end)
    what = appositive.group(1).strip() if appositive else ""
    if len(what.split()) < 3:  # "a novel" (", brain-inspired architecture…" cut off) says nothing
        what = _sentence(flat)
    return _shorten(f"{best.name} — {what}"), best.name
