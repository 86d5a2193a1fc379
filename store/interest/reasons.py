"""The words a reason may name: no stop words (neither English function words nor the stock
phrases of an abstract), and adjacent content words of a paper read as one phrase
("federated learning", not "federated" and "learning").

`STOP` is what the interest model leaves out of a paper's vector; `phrases` words the reasons of
store.interest.ranking's `Ranking.why`.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from functools import cache

from store.search.query import WORD  # (not through store.search.vocabulary, which imports rapidfuzz)

PROSE = frozenset("""
    non obtained obtain obtains propose proposed proposes proposing present presents presented introduce
    introduces introduced method methods approach approaches paper papers work works study studies result
    results show shows shown showing demonstrate demonstrates demonstrated achieve achieves achieved
    achieving novel new using use used uses based existing significantly significant via et al also
    however furthermore moreover respectively thus various different extensive experiments experimental
    effectiveness effective effectively outperforms outperform superior recent recently despite
    including particular particularly specifically given leads lead provide provides provided able
    remains remain yields yield considerable substantially substantial notably simple simply
""".split())
"""Words every kind of abstract uses ("we propose a novel method… results show…"): they say
nothing of what a paper is about."""


@cache
def stop_words() -> frozenset[str]:
    """English function words (scikit-learn's list) and `PROSE` (scikit-learn is imported only here,
    when the model is built)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS | PROSE


_JOINED = re.compile(r"[ -]+")
"""What may lie between the two words of a phrase: spaces or a hyphen, no punctuation."""


def words_of(text: str, fold: Callable[[str], list[str]]) -> list[tuple[re.Match[str], list[str]]]:
    """The words of `text` with the terms each counts as (`fold`)."""
    return [(m, fold(m.group())) for m in WORD.finditer(text)]


def pairs(words: list[tuple[re.Match[str], list[str]]], text: str) -> Iterator[tuple[str, str]]:
    """The two-word phrases of `text` (its `words`): adjacent words of one term each, joined by
    spaces or a hyphen, neither a stop word nor a number."""
    stop = stop_words()
    for (a, (s, *more_s)), (b, (t, *more_t)) in zip(words, words[1:]):
        if (not more_s and not more_t and s != t and s not in stop and t not in stop and not s.isdigit()
                and not t.isdigit() and _JOINED.fullmatch(text, a.end(), b.start())):
            yield s, t


def phrases(text: str, weight: Mapping[str, float], fold: Callable[[str], list[str]], count: int,
            known: Container[tuple[str, str]] = ()) -> tuple[str, ...]:
    """The `count` words or two-word phrases of `text` weighing most (by `weight`, term → how much
    it adds, positive; `fold` maps a word to its terms), best first. A phrase is two adjacent words
    (`pairs`) that both weigh, or one weighs and the phrase is `known` (seen in the starred papers:
    "federated learning" though "learning", in most papers, weighs nothing); it weighs the sum of
    its words, and is named rather than its word alone. No word is named twice."""
    words = words_of(text, fold)
    candidates: dict[tuple[str, ...], float] = {(t,): weight[t] for _, terms in words for t in terms if t in weight}
    for s, t in pairs(words, text):
        if (s in weight and t in weight) or ((s in weight or t in weight) and (s, t) in known):
            candidates[(s, t)] = weight.get(s, 0) + weight.get(t, 0)
    named: list[tuple[str, ...]] = []
    used: set[str] = set()
    for terms in sorted(candidates, key=lambda terms: (-candidates[terms], -len(terms))):
        if not used.intersection(terms):
            named.append(terms)
            used.update(terms)
            if len(named) == count:
                break
    return tuple(" ".join(terms) for terms in named)


def content(terms: Iterable[str]) -> list[bool]:
    """Which terms may stand in a paper's vector: not stop words."""
    stop = stop_words()
    return [term not in stop for term in terms]
