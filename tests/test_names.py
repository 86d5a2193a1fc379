"""Titles for bare abstracts: the contribution's name when the abstract names one."""
from __future__ import annotations

from store.readers import read_path
from store.papers.names import derive_title
from store.papers.text import display

SEED_NAMES = {
    "refresh learning", "HDGNN", "LLM-KICK", "ToolChain*", "MDM", "CDRL", "FV", "RASP-Generalization", "FairTune",
    "KoLA", "AbdomenAtlas 1.1", "BatchPrompt", "OMNI", "analogical prompting", "DSD",
}


def test_at_least_14_seed_abstracts_are_titled_by_their_name(seed_path):
    papers = read_path(seed_path).papers
    named = {p.name for p in papers if p.name and p.title.startswith(p.name)}
    assert named == SEED_NAMES
    titles = {p.name: p.title for p in papers}
    assert titles["HDGNN"] == "HDGNN — Hybrid Directional Graph Neural Network"
    assert titles["KoLA"] == "KoLA — Knowledge-oriented LLM Assessment benchmark"
    assert titles["FairTune"].startswith("FairTune — a framework to optimise the choice of PEFT parameters")


def test_patterns_of_naming():
    cases = {
        "Prior work is slow. We present SOTOPIA, an open-ended environment to simulate social interactions.":
            ("SOTOPIA — an open-ended environment to simulate social interactions", "SOTOPIA"),
        "Agents are hard. To this end, we introduce a novel approach called Think-on-Graph (ToG), where agents search.":
            ("ToG — Think-on-Graph", "ToG"),
        "Prompts cost tokens. We batch them, a strategy we refer to as “BatchPrompt”. BatchPrompt is fast.":
            ("BatchPrompt — Prompts cost tokens", "BatchPrompt"),
        "Large language models (LLMs) are big. LLMs are used widely by everyone.": (
            "Large language models (LLMs) are big", ""),
        # hyphenated names: set off by a dash, or said to be ours by a generic noun
        "Prompting is brittle. To fix it, we propose Gen-Z—a generative prompting framework for text.":
            ("Gen-Z — a generative prompting framework for text", "Gen-Z"),
        "Tables are hard. We propose the Chain-of-Table framework, where tables evolve in the chain.":
            ("Chain-of-Table — Tables are hard", "Chain-of-Table"),
        # set off by a spaced hyphen; an appositive cut short at its comma says nothing: the first sentence does
        "Editing knowledge is slow. This paper presents Larimar - a novel, brain-inspired architecture.":
            ("Larimar — Editing knowledge is slow", "Larimar"),
        # a capitalised word right after the verb, used again, and a clause after it; not "Bayesian optimization"
        "Training is costly. We propose Collage which uses low precision. Collage is fast.":
            ("Collage — Training is costly", "Collage"),
        "Tuning is costly. We propose Bayesian optimization with priors. Bayesian optimization is fast.":
            ("Tuning is costly", ""),
        # what "we also/further introduce" names is not the main contribution
        "Tools help. We introduce ToolLLM, a tool-use framework. We further introduce ToolBench, a dataset for tools.":
            ("ToolLLM — a tool-use framework", "ToolLLM"),
    }
    for text, expected in cases.items():
        assert derive_title(display(text).plain) == expected


def test_without_a_name_the_title_is_the_trimmed_first_sentence():
    text = "Critical learning periods are periods early in development where temporary sensory deficits can have a permanent effect. More."
    title, name = derive_title(text)
    assert name == "" and len(title) <= 90 and title.endswith("…")
    assert title == "Critical learning periods are periods early in development where temporary sensory…"
    assert derive_title("") == ("", "")
