"""Search over the seed: what each query element finds, in which order, and where it matched."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from store.papers.model import Paper, Triage
from store.search.engine import Engine
from store.readers import read_path
from store.search.highlight import context

REFRESH, HDGNN, LLM_KICK, TOOLCHAIN, PSIS, CDRL, SCL = (
    "7d72a49aaf", "3d09c6c056", "105a096a2f", "0af57f21b8", "feead361c8", "b0630d65dd", "38521038a2")
AUGMENT, FUNCTION_VECTORS, FAIRTUNE, KOLA = "f34362b76a", "cc913c6f01", "2d6a618095", "64859981a7"
CRITICAL, BATCH, ZEROTH = "f3d370254f", "905739258d", "55c495c509"
RASP, ANALOGICAL = "04783b2bf6", "0d26461475"


@pytest.fixture(scope="module")
def seed():
    from tests.conftest import SEED

    return read_path(SEED).papers


@pytest.fixture(scope="module")
def index(seed):
    return Engine.of(seed)


def ids(index, query, states=None):
    return index.search(query, states).ids


def test_typos_are_forgiven(index):
    assert ids(index, "difusion recovry") == [CDRL]


def test_a_word_being_typed_matches_as_a_prefix(index):
    assert ids(index, "contrast") == [SCL, KOLA, AUGMENT]  # SCL has "contrastive" in its title
    assert ids(index, "hdg") == [HDGNN]


def test_every_word_must_match(index):
    assert ids(index, "critical learning periods") == [CRITICAL]
    assert ids(index, "zeroth order") == [ZEROTH]
    assert ids(index, "contrastive zeroth") == []


def test_a_word_with_a_hyphen_needs_both_halves(index):
    assert ids(index, "self-supervised") == [AUGMENT]


def test_exact_word_is_a_literal_substring(index):
    assert set(ids(index, "'github")) == {HDGNN, LLM_KICK, FAIRTUNE, BATCH}
    assert ids(index, "'github.com/ajy112") == [HDGNN]
    assert ids(index, "'githbu") == []  # no typo tolerance in a literal


def test_phrase_matches_the_display_text_not_the_markdown_source(index):
    # the source writes **K**nowledge-**I**ntensive **C**ompressed
    assert ids(index, '"Knowledge-Intensive Compressed"') == [LLM_KICK]
    assert ids(index, '"knowledge-intensive   compressed llm"') == [LLM_KICK]


def test_phrase_matches_words_in_sequence(index):
    found = ids(index, '"language models"')
    assert LLM_KICK in found and AUGMENT not in found
    assert ids(index, '"models language"') == []


def test_negation_removes_papers(index):
    with_llm = set(ids(index, "llm"))
    language = set(ids(index, "language"))
    assert set(ids(index, "language !llm")) == language - with_llm
    assert ids(index, "language !llm") == [ANALOGICAL, RASP, AUGMENT]
    assert set(ids(index, 'language !"large language"')) < language


def test_bar_matches_either(index):
    assert ids(index, "hdgnn | fairtune") == [HDGNN, FAIRTUNE]
    assert set(ids(index, "hdgnn | fairtune | nothingatall")) == {HDGNN, FAIRTUNE}


def test_smart_case(index):
    assert ids(index, "GitHub") == []  # the seed writes github.com
    assert set(ids(index, "github")) == {HDGNN, LLM_KICK, FAIRTUNE, BATCH}
    assert ids(index, "Llm") == []
    assert set(ids(index, "LLM")) <= set(ids(index, "llm"))


def test_title_matches_rank_above_body_matches(index):
    assert ids(index, "llm") == [LLM_KICK, KOLA, TOOLCHAIN, BATCH, FUNCTION_VECTORS]
    found = index.search("knowledge")
    assert found.ids[:2] == [KOLA, LLM_KICK]  # KoLA says "knowledge" more often
    assert [bool(hit.title_spans) for hit in found] == [True, True] + [False] * (len(found) - 2)
    assert ids(index, "graph neural") == [HDGNN]


def test_paper_qualifiers(index):
    assert ids(index, "has:code") == [HDGNN, LLM_KICK, FAIRTUNE, BATCH]
    assert len(ids(index, "-has:code")) == 15
    assert len(ids(index, "venue:iclr year:2024")) == 19
    assert ids(index, "venue:neurips") == ids(index, "year<2024") == []


def test_state_qualifiers(index, seed):
    states = {
        SCL: Triage(read=True, priority=2, tags=("todo",)),
        CDRL: Triage(starred=True, priority=1, note="compare with DRL"),
        HDGNN: Triage(read=True, note="  "),
    }
    assert ids(index, "is:read", states) == [HDGNN, SCL]
    assert ids(index, "is:unread", states) == [p.id for p in seed if p.id not in (HDGNN, SCL)]
    assert ids(index, "-is:read", states) == ids(index, "is:unread", states)
    assert ids(index, "is:starred", states) == [CDRL]
    assert ids(index, "p:1", states) == [CDRL]
    assert ids(index, "p<=2", states) == [CDRL, SCL]
    assert len(ids(index, "p:0", states)) == 17
    assert ids(index, "has:note", states) == [CDRL]
    assert ids(index, "tag:TODO", states) == ids(index, "has:tag", states) == [SCL]
    assert ids(index, "is:starred | is:read", states) == [HDGNN, CDRL, SCL]
    assert ids(index, "contrastive is:read", states) == [SCL]


def test_is_dismissed_finds_the_papers_marked_not_for_me(index, seed):
    states = {KOLA: Triage(dismissed=True), SCL: Triage(read=True, dismissed=True), CDRL: Triage(starred=True)}
    assert ids(index, "is:dismissed", states) == [SCL, KOLA]
    assert ids(index, "is:d", states) == [SCL, KOLA]  # a unique beginning, like is:s
    assert ids(index, "-is:dismissed", states) == [p.id for p in seed if p.id not in (SCL, KOLA)]
    # is:unread is what the Unread view shows (the rows with a •): not read and not dismissed; -is:read is the read mark alone
    assert ids(index, "is:unread", states) == [p.id for p in seed if p.id not in (SCL, KOLA)]
    assert ids(index, "-is:read", states) == [p.id for p in seed if p.id != SCL]
    assert ids(index, "is:dismissed -is:read", states) == [KOLA]
    assert ids(index, "is:dismissed") == []


def test_ties_keep_file_order(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("TEST 2024\n\nalpha beta gamma delta.\n\nzeta eta theta.\n\ngamma beta alpha delta.\n", encoding="utf-8")
    papers = read_path(path).papers
    index = Engine.of(papers)
    assert index.search("beta").ids == [papers[0].id, papers[2].id]
    assert index.search("").ids == [p.id for p in papers]


def test_a_malformed_query_still_gives_results_and_a_hint(index):
    found = index.search("difusion foo:bar")
    assert found.ids == [CDRL]
    assert found.query.hint.startswith("unknown qualifier foo:")


def test_a_query_not_understood_matches_nothing_not_everything(index):
    starred = {CDRL: Triage(starred=True)}
    for text in ("is:stared", "auther:bengio", "p<=9", "!is:stared", "-auther:bengio"):
        found = index.search(text, starred)
        assert found.ids == [], text
        assert found.query.hint and found.query.filters
    assert index.search("is:stared").query.hint == "is: needs one of read, unread, starred, dismissed, new, updated"
    assert index.search("p<=9").query.hint == "p<= needs a number from 0 to 5"
    assert index.search("auther:bengio").query.hint.startswith("unknown qualifier auther:")


def test_a_part_not_understood_never_widens_an_or_group(index):
    assert ids(index, "hdgnn | is:stared") == ids(index, "is:stared | hdgnn") == [HDGNN]
    assert ids(index, "contrast is:stared | hdgnn") == []  # contrast and hdgnn: no paper has both


def test_a_dash_before_a_word_or_phrase_negates_it(index):
    everything = set(ids(index, ""))
    assert set(ids(index, "-llm")) == everything - set(ids(index, "llm")) != everything
    for dash, bang in (("language -llm", "language !llm"), ('-"language models"', '!"language models"'),
                       ("-'github", "!'github")):
        assert ids(index, dash) == ids(index, bang)
        assert ids(index, dash) != ids(index, dash.replace("-", ""))  # not the papers with it
    assert ids(index, "self-supervised") == [AUGMENT]  # inside a word a dash is part of it


def test_a_lone_dash_is_ignored(index):
    assert ids(index, "llm -") == ids(index, "llm --") == ids(index, "llm")
    assert not index.search("-").query.filters and len(index.search("-")) == len(ids(index, ""))


def test_spans_point_at_the_matched_words(index):
    hit = index.search("difusion recovry 'drl")[0]
    marked = {hit.paper.plain[s:e].lower() for s, e in hit.text_spans}
    assert {"diffusion", "recovery", "drl"} <= marked
    hit = index.search("contrast")[0]
    assert [hit.paper.title[s:e] for s, e in hit.title_spans] == ["contrast"]  # the typed prefix only


def test_context_is_a_window_around_the_densest_matches():
    text = "Intro words here. " * 10 + "We study diffusion recovery likelihood for EBMs. " + "Tail words. " * 10
    spans = [(text.index("diffusion"), text.index("diffusion") + 9), (text.index("recovery"), text.index("recovery") + 8)]
    window, inside = context(text, spans, 60)
    assert window.startswith("…") and window.endswith("…") and len(window) <= 60
    assert [window[s:e] for s, e in inside] == ["diffusion", "recovery"]
    assert context("short text", [], 60) == ("short text", ())


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("lmnagrphdifuso :!'\"|-<>=p1 is:read")) | st.characters(), max_size=30))
def test_search_never_raises_and_ranks_best_first(index, text):
    found = index.search(text)
    scores = [hit.score for hit in found]
    assert scores == sorted(scores, reverse=True)
    assert len(set(found.ids)) == len(found)


def test_the_real_iclr_list(corpora):
    papers = read_path(corpora / "iclr-2024-abstracts.txt").papers
    index = Engine.of(papers)
    cdrl = next(p.id for p in papers if "cooperative diffusion recovery likelihood (CDRL)" in p.plain)
    assert index.search("difusion recovry").ids[0] == cdrl
    kick = index.search('"Knowledge-Intensive Compressed"').ids
    assert len(kick) == 1 and "LLM-KICK" in next(p.plain for p in papers if p.id == kick[0])
    graph = index.search("graph").ids
    assert len(graph) > 100 and not set(graph) & set(index.search("-graph").ids)
    assert index.search("-graph").ids == index.search("!graph").ids
    assert len(index.search("-graph")) == len(papers) - len(graph)
    for text in ("is:stared", "auther:bengio", "p<=9"):
        assert len(index.search(text)) == 0


def paper(pid, text, title=""):
    return Paper(id=pid, text=text, plain=text, title=title)


def test_words_are_found_across_scripts_accents_and_punctuation():
    papers = [paper("a", "Café—au-lait naïve Bayes"), paper("b", "cafe\u0301 Привет мир 深度学习"),
              paper("c", "Œuvre_complete x²")]
    index = Engine.of(papers)
    assert ids(index, "café") == ["a"]  # the em dash ends the word
    assert ids(index, "cafe\u0301") == ["b"]  # a combining accent stays in its word
    assert ids(index, "привет") == ["b"] and ids(index, "深度学习") == ["b"]
    assert ids(index, "œuvre_complete") == ["c"] and ids(index, "x²") == ["c"]


def test_a_word_in_every_batch_of_a_long_list_is_found_in_file_order():
    papers = [paper(str(i), f"paper number {i} " + ("rare finding" if i % 997 == 0 else "common")) for i in range(3000)]
    assert ids(Engine.of(papers), "rare") == [str(i) for i in range(0, 3000, 997)]


def test_long_words_a_weak_hash_would_confuse_are_told_apart():
    # Thue–Morse words: any polynomial hash mod 2**64 gives these two the same value.
    thue = "".join("ab"[bin(i).count("1") % 2] for i in range(2048))
    morse = thue.translate(str.maketrans("ab", "ba"))
    index = Engine.of([paper("a", f"first {thue}"), paper("b", f"second {morse}")])
    assert ids(index, thue) == ["a"]
    assert ids(index, morse) == ["b"]


def test_is_new_matches_the_papers_the_caller_names_new_and_none_by_default(index):
    first, second = index.papers[1].id, index.papers[3].id
    assert [p.id for p in index.search("is:new", {}, new={first, second, "gone"}).papers] == [first, second]
    assert len(index.search("-is:new", {}, new={first}).papers) == len(index.papers) - 1
    assert len(index.search("is:new", {}).papers) == 0
