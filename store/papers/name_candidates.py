"""Where an abstract names its contribution: the candidate names in its text, each scored.

`candidates(text)` finds, in one pass for where every rule may start (an Aho-Corasick automaton),

- an acronym in parentheses after its expansion: "Hybrid Directional Graph Neural Network (HDGNN)",
  its letters the words' initials or, failing that, letters found in order from a word start
  on ("Brownian graph neural networks (BroGNet)"; the expansion is `store.papers.acronyms`');
- a name after a contribution phrase: "we propose ToolChain*, ...", "this paper presents DreamLLM",
  "and introduce Rapper", "we propose Gen-Z—a ...", "we propose the Chain-of-Table framework",
  "We propose Collage which ..." (used again in the text);
- a name after a naming word: "called Think-on-Graph", "a strategy we refer to as “BatchPrompt”",
  "an innovative concept called *refresh learning*,";
- a name set off by an appositive: "ClimODE, a spatiotemporal ...", "our method, Magnushammer,",
  "The resulting model, Tripod, ...";
- a lowercase name set off after a generic noun: "a new prompting approach, analogical prompting,";
- the name of the code repository: "github.com/user/RobustTSF".

Each candidate is scored: introduced by a contribution phrase close before it in its sentence
(or further on, when a naming word ties it to the phrase: "we introduce a ... framework, dubbed
EfficientDM"), named by a naming word, followed by an appositive saying what it is, mentioned
again, coined (mixed case); a name that "we also/further introduce" scores lower than the
main contribution, and generic acronyms (LLMs, CNN) and background terms of the first
sentence score low. Which candidate makes the title, and what the title says of it, is
`store.papers.names`'.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

from ahocorasick_rs import AhoCorasick, Implementation

from store.papers.acronyms import QUOTES, STOP_WORDS, expansion_before

_CONTRIBUTION = re.compile(
    r"(?:[Ww]e|[Tt]his (?:paper|work|study|article|research)|[Oo]ur (?:paper|work|study|framework|method))"
    r"(?: (?:\w+ly|also|further|then|thus|therefore|first|here|hence|now))?"
    r" (?:propos|introduc|present|develop|design|construct|build|buil|creat|devis|releas|curat|establish|offer"
    r"|contribut|formulat|implement|put forward|mak|provid|describ|coin|call|nam|dub|term|refer to)\w*"
)
_CONTRIBUTION_ANCHORS = ("we ", "this ", "our ")
# "... and propose X", "by presenting X": the three verbs that introduce a contribution without a subject.
_VERB = re.compile(r"(?:[Pp]ropos|[Ii]ntroduc|[Pp]resent)(?:e|es|ed|ing|s)? ")
_VERB_ANCHORS = ("propos", "introduc", "present")
# "Our method, Magnushammer, ...", "The resulting model, Tripod, ...": a name set off after our own noun phrase.
_OWN_NOUN = re.compile(r"\b(?:[Oo]ur|[Tt]he (?:resulting|resulted|proposed))(?: [a-z][\w-]*){1,4}, (?=[^\s,]*[A-Z])")
_OWN_NOUN_ANCHORS = ("our ", "the result")  # and "the propos"
_REPOSITORY = re.compile(r"github\.com/[\w.-]+/([\w.-]+)")
_NAMING_PARTICIPLES = ("called ", "named ", "dubbed ", "termed ", "coined ")
_NAMING_ANCHORS = ("namely ", "known as ", "to as ")
_NAMING_VERBS = {"call", "name", "dub", "term", "coin"}
_ACRONYM = re.compile(r"\(([^\s()]{2,32})\)")
_WORD = re.compile(r"[^\s]+")
# possessive quantifiers: what follows a word is never part of one, and not backtracking halves the time
_APPOSITIVE_NOUN = re.compile(r", ([a-z][\w-]*+(?: [a-z][\w-]*+){0,2}+),")
_GENERIC_NOUNS = {
    "approach", "method", "framework", "technique", "algorithm", "paradigm", "strategy", "model", "benchmark",
    "dataset", "metric", "loss", "objective", "architecture", "module", "mechanism", "pipeline", "scheme",
    "principle", "concept", "procedure", "regularizer", "attack", "defense",
}
# Every rule starts at one of these strings. All are found in one pass by an Aho-Corasick automaton, 5x
# faster than a str.find scan for each: the first ones also capitalised ("We ", "Propos"), and "noun, " is
# any of the generic nouns before a comma ("method, "), with no appositive after a comma without one.
_CAPITALISED = _CONTRIBUTION_ANCHORS + _VERB_ANCHORS + _OWN_NOUN_ANCHORS[1:]
_DASHES = ("—", "–", " --")
_ANCHORS = _CAPITALISED + _NAMING_ANCHORS + _NAMING_PARTICIPLES + _DASHES + ("github.com/", "noun, ")
_ANCHOR_OF_FORM = {anchor: anchor for anchor in _ANCHORS[:-1]}
_ANCHOR_OF_FORM |= {anchor.capitalize(): anchor for anchor in _CAPITALISED}
_ANCHOR_OF_FORM |= {noun + ", ": "noun, " for noun in sorted(_GENERIC_NOUNS)}
_ANCHOR_SEARCH = AhoCorasick(list(_ANCHOR_OF_FORM), implementation=Implementation.DFA)  # the fastest to search
_ANCHOR_BY_INDEX = tuple(_ANCHOR_OF_FORM.values())
_DASH = re.compile(r"(?<=\w)[—–](?=\w)")
_NOT_APPOSITIVE = r"(?!lot\b|few\b|number\b|variety\b|set of\b)"
_NAME_APPOSITIVE = re.compile(r", an? " + _NOT_APPOSITIVE)
_NAME_DASH_APPOSITIVE = re.compile(r"(?: ?[—–]| --) ?an? " + _NOT_APPOSITIVE)
_LOWER_NAME = re.compile(r"(?:the |a |an )?([a-z][\w-]*(?: [a-z][\w-]*){0,2})(?=[,.;:)]|$)")
_VERSION = re.compile(r" ?(?:v?\d+(?:\.\d+)+|v\d+)(?![\w.])")
_NAMEY = re.compile(r"[^\W\d_][A-Z]|\d|[*+]$")
_COMPOUND = re.compile(r"[A-Z][a-z]*-(?:[a-z]+-)*[A-Z]")  # "Chain-of-Table", "Gen-Z"
_COINED = re.compile(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]")
_EDGE = QUOTES + ".,;:!?()[]{}_"  # _ from markdown emphasis the display text kept: "_ZeroFlow_"
# After a contribution phrase or a naming word the name may follow a few words of lowercase letters and
# hyphens ("we propose a simple yet effective X"), which are never names themselves: one match skips them
# (each such word with the spaces before it). `far`: 3 or more skipped; `beyond`: 9, too far to look on;
# `word`: the word after them.
_SKIPPED = r"\s*+[a-z][a-z\-]*+,?+(?!\S)"
_AFTER_TRIGGER = re.compile(
    rf"(?:{_SKIPPED}){{0,2}}(?P<far>(?:{_SKIPPED}){{1,6}}(?P<beyond>{_SKIPPED})?)?\s*(?P<word>\S+)?"
)
_CLAUSE_WORDS = {"which", "that", "and", "to", "for", "with", "based", "as", "in", "on", "by", "using", "where", "whose"}
_FURTHER = {"also", "further", "additionally", "moreover"}
_GENERIC = {
    name.casefold()
    for name in (
        "AI ML NLP CV RL DL LLM LM VLM MLLM LVLM CNN RNN GNN DNN NN MLP GAN VAE SGD GPU TPU QA VQA OOD IID "
        "MDP PDE ODE SDE KG LoRA BERT GPT ViT CLIP NeRF CoT ICL TTA FL NAS SOTA SoTA API APIs IoT HPO DNA RNA "
        "SNN DM DDPM MoE RAG RLHF DPO PPO KL MSE MAE IR OCR ASR TTS NER MT SSL SFT PEFT TD ERM BO GP GPs MCMC "
        "2D 3D 4D 1D CT MRI EEG fMRI ECG EHR US UK EU ReLU GELU DRL MARL DP GenAI LP MILP SDP IL"
    ).split()
}


class Candidate(NamedTuple):
    """A name the text may introduce: its score, where it starts, its expansion if any, where it ends."""

    score: float
    position: int
    name: str
    expansion: str
    end: int


def is_name(token: str) -> bool:
    """Whether a word looks like a coined name: CamelCase, ACRONYM, digits in letters, a trailing * or +."""
    return 2 <= len(token) <= 40 and _NAMEY.search(token) is not None and token.upper() != token.lower()


def _anchors(text: str) -> dict[str, list[int]]:
    """Where each of `_ANCHORS` is in `text`, in order."""
    found: dict[str, list[int]] = {anchor: [] for anchor in _ANCHORS}
    for index, start, _ in _ANCHOR_SEARCH.find_matches_as_indexes(text, overlapping=True):
        found[_ANCHOR_BY_INDEX[index]].append(start)  # matches come in the order of their ends
    return found


def _matched(text: str, starts: list[int], pattern: re.Pattern[str]) -> list[int]:
    """End offsets of `pattern` matched at those `starts` that start a word."""
    ends = []
    for at in starts:
        if at == 0 or not text[at - 1].isalnum():
            match = pattern.match(text, at)
            if match:
                ends.append(match.end())
    return ends


def _word_before(text: str, at: int) -> str:
    """The run of non-spaces that ends at `text[at]`."""
    return text[text.rfind(" ", 0, at) + 1 : at]


def _next_word(text: str, at: int) -> str:
    """The word after the spaces at `text[at]`, without punctuation after it."""
    rest = text[at : at + 40].split(maxsplit=1)
    return rest[0].rstrip(_EDGE) if rest else ""


def _naming(text: str, anchors: dict[str, list[int]], triggers: list[int]) -> list[int]:
    """Offsets just after each naming word: "called", "dubbed", "namely", "referred to as", "we call"."""
    ends = [
        at + len(anchor)
        for anchor in _NAMING_ANCHORS
        for at in anchors[anchor]
        if at == 0 or not text[at - 1].isalnum()
    ]
    # a participle as written, its word maybe opened by punctuation ("(called X"), not "recalled "
    ends += [
        at + len(word)
        for word in _NAMING_PARTICIPLES
        for at in anchors[word]
        if not _word_before(text, at).lstrip(_EDGE)
    ]
    ends += [end + 1 for end in triggers if _word_before(text, end) in _NAMING_VERBS]
    return sorted(ends)


def _clean(token: str) -> str:
    token = token.strip(_EDGE)
    return token[:-1] if token.endswith("'s") or token.endswith("’s") else token


class _Scorer:
    """Scores the candidates of one text; what depends on the name alone is worked out once per name."""

    def __init__(self, text: str, triggers: list[int], naming: list[int]) -> None:
        self.text, self.triggers, self.naming = text, triggers, naming
        first_end = text.find(". ")
        self.first_end = len(text) if first_end == -1 else first_end
        self.by_name: dict[str, float] = {}

    def __call__(self, name: str, position: int) -> float:
        text = self.text
        # The sentence's start, or 240 characters back when further (so no need to look further back).
        sentence_start = max(text.rfind(". ", max(0, position - 240), position), position - 240)
        score = 0.0
        # triggers and naming are sorted: the last one at or before the position is the closest
        at = bisect_right(self.naming, position) - 1
        named = at >= 0 and self.naming[at] >= position - 45
        at = bisect_right(self.triggers, position) - 1
        if at >= 0 and self.triggers[at] > sentence_start:
            # Right after "we propose" is the contribution; far into the sentence, often a part of it,
            # unless a naming word ties it to the contribution ("we introduce a ... framework, dubbed X").
            score += 3 if position - self.triggers[at] <= 60 or named else 1
            if _word_before(text, text.rfind(" ", 0, self.triggers[at] - 1)) in _FURTHER:
                score -= 1  # "we further introduce X", "we also propose": not the main contribution
        elif text.find("our ", max(sentence_start, position - 60), position) != -1 or text.find(
            "Our ", max(sentence_start, position - 60), position
        ) != -1:
            score += 2  # "our method, X", "our approach (X)"
        if named:
            score += 1 if score else 3.5
        if name not in self.by_name:
            self.by_name[name] = _name_score(text, name)
        score += self.by_name[name]
        if position < self.first_end and score < 3:
            score -= 1
        return score


def _name_score(text: str, name: str) -> float:
    """The part of a candidate's score that depends on its name only."""
    score = 0.5 * min(text.count(name) - 1, 2)
    if _COINED.search(name):
        score += 1  # "SuRe", "FairTune": mixed case is coined, all capitals is often a field's acronym
    folded = name.casefold()
    if folded in _GENERIC or (folded.endswith("s") and folded[:-1] in _GENERIC) or (
        name.endswith("s") and name[:-1].isupper() and len(name) > 2
    ):
        score -= 3
    return score


def _own_nouns(text: str, anchors: dict[str, list[int]]) -> list[int]:
    """Ends of "Our method, " before a name: the matches `_OWN_NOUN.finditer` gives, tried only at its anchors."""
    ends, resume = [], 0
    proposed = [at - 4 for at in anchors["propos"] if at >= 4 and text[at - 4 : at].lower() == "the "]
    for at in sorted(anchors["our "] + anchors["the result"] + proposed):
        match = _OWN_NOUN.match(text, at) if at >= resume else None
        if match:
            resume = match.end()  # finditer's matches do not overlap
            # not "In our experiments, AID shows" nor "(in our case, GPT-4)"
            if _word_before(text, at - 1).lower() not in STOP_WORDS:
                ends.append(match.end())
    return ends


def _dash_appositives(text: str, anchors: dict[str, list[int]]) -> list[re.Match[str]]:
    """The matches of `_NAME_DASH_APPOSITIVE.finditer(text)`, tried only at dashes.

    The pattern has no literal start, so a regex scan tries it at every character (~60 µs).
    """
    dashes = sorted(at for dash in _DASHES for at in anchors[dash])
    matches: list[re.Match[str]] = []
    resume = 0
    for dash in dashes:
        # " —" matches from its space, else from the dash (also when the space ends the match before)
        for at in (dash - 1, dash) if dash and text[dash - 1] == " " else (dash,):
            match = _NAME_DASH_APPOSITIVE.match(text, at) if at >= resume else None
            if match:
                matches.append(match)
                resume = match.end()  # finditer's matches do not overlap
                break
    return matches


def candidates(text: str) -> list[Candidate]:
    """Every candidate name in `text` (a display text, its whitespace runs made single spaces), scored."""
    anchors = _anchors(text)
    ends = [end for anchor in _CONTRIBUTION_ANCHORS for end in _matched(text, anchors[anchor], _CONTRIBUTION)]
    ends += [end for anchor in _VERB_ANCHORS for end in _matched(text, anchors[anchor], _VERB)]
    triggers = sorted(set(ends + _own_nouns(text, anchors)))
    naming = _naming(text, anchors, triggers)
    score = _Scorer(text, triggers, naming)
    found: list[Candidate] = []
    spans: list[tuple[int, int]] = []

    def add(name: str, position: int, expansion: str, base: float, end: int) -> None:
        total = base + score(name, position)
        if _NAME_APPOSITIVE.match(text, end):
            total += 1  # "Consistent4D, a novel approach for ...": the text says what the name is
        found.append(Candidate(total, position, name, expansion, end))

    for match in _ACRONYM.finditer(text):
        name = _clean(match.group(1))
        if not is_name(name) or name.isdigit():
            continue
        # An acronym that cannot reach the threshold even with an expansion is not worth expanding.
        if score(name, match.start()) + 2 < 3:
            continue
        expansion = expansion_before(text, match.start(), name)
        begin = match.start() - len(expansion) - 1 if expansion else match.start()
        spans.append((begin, match.end()))
        add(name, begin, expansion, 2 if expansion else 0.5, match.end())

    for end in triggers + naming:
        window = text[end : end + 160]
        after_naming = end in naming
        if after_naming:
            lower = _LOWER_NAME.match(window.lstrip(" " + QUOTES))
            if lower and not window.lstrip(" " + QUOTES).startswith(lower.group(0) + " ("):
                offset = end + window.index(lower.group(1))
                add(lower.group(1), offset, "", 1, offset + len(lower.group(1)))
                continue
        if "—" in window or "–" in window:
            window = _DASH.sub(" ", window)
        after = _AFTER_TRIGGER.match(window)
        raw = after["word"]
        if after["beyond"] or raw is None:
            continue
        token = _clean(raw)
        if not token:
            continue
        named = is_name(token)
        if not named and not token[0].isupper():
            continue  # cannot be a name, whatever follows
        position = end + after.start("word") + raw.find(token[0])
        # no name inside an acronym's expansion: neither this word nor a skipped one may start in one
        if spans and any(a <= position and b > end for a, b in spans) and any(
            a <= start < b
            for start in [end + word.start() for word in _WORD.finditer(window, 0, after.start("word"))] + [position]
            for a, b in spans
        ):
            continue
        # from the text, not `window`: an em dash turned to a space there may set the word off ("Gen-Z—a")
        following = text[end + after.end("word") : end + after.end("word") + 3]
        next_word = _next_word(window, after.end("word"))
        set_off = (
            raw[-1] in ",:—–(" + QUOTES or following.startswith((" (", " —", " –", " --", " - ", "—", ","))
            # "we propose the Chain-of-Table framework": a capitalised compound that a generic noun says is ours
            or (_COMPOUND.match(token) is not None and next_word in _GENERIC_NOUNS)
            # "We propose Collage which …", "we present Transolver based on …": a (capitalised) word right after
            # the verb, then a word that starts a clause (not "Bayesian optimization"), and the name used again
            or (not window[: after.start("word")].strip() and next_word in _CLAUSE_WORDS and text.count(token) > 1)
        )
        if named or set_off or after_naming:
            version = _VERSION.match(window, after.end("word")) if raw == token else None
            if version:
                token += version.group()
            add(token, position, "", 1 if after["far"] else 2.5, position + len(token))

    appositives = list(_NAME_APPOSITIVE.finditer(text))
    if anchors["—"] or anchors["–"] or any(text.startswith(" -- ", at) for at in anchors[" --"]):
        appositives += _dash_appositives(text, anchors)
    for match in appositives:
        start = max(text.rfind(" ", 0, match.start()), text.rfind("—", 0, match.start())) + 1
        token = _clean(text[start : match.start()])
        if start < 2 or text[start - 2] in ".!?" or (spans and any(a <= start < b for a, b in spans)):
            continue
        if is_name(token) or (token[:1].isupper() and text.count(token) > 1):
            add(token, start, "", 2.5 if is_name(token) else 1.5, start + len(token))

    if anchors["github.com/"]:
        for match in _REPOSITORY.finditer(text):
            repository = match.group(1).removesuffix(".git").rstrip(".")
            if is_name(repository) and not repository.isdigit():
                add(repository, match.start(1), "", 3, match.start(1) + len(repository))

    for match in _APPOSITIVE_NOUN.finditer(text) if anchors["noun, "] else ():
        if _word_before(text, match.start()) in _GENERIC_NOUNS:
            add(match.group(1), match.start(1), "", 0.5, match.end(1))
    return found
