"""The query language: every element parses to what the README promises; nothing raises."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from store.search.query import MAX_CHARS, MAX_TERMS, Qualifier, Term, parse


def test_words_are_fuzzy_terms_that_all_must_match():
    assert parse("difusion  recovry").groups == ((Term("difusion"),), (Term("recovry"),))


def test_quotes_make_phrases_and_a_leading_apostrophe_an_exact_word():
    query = parse("\"Knowledge-Intensive   Compressed\" 'kick")
    assert query.groups == ((Term("Knowledge-Intensive Compressed", "phrase"),), (Term("kick", "exact"),))
    assert not query.problems


def test_bang_negates_words_phrases_and_qualifiers():
    query = parse('!graph !"language model" !is:read')
    assert query.groups == (
        (Term("graph", negated=True),), (Term("language model", "phrase", negated=True),),
        (Qualifier("is", ":", "read", negated=True),),
    )


def test_bar_joins_the_atoms_on_each_side_into_one_group():
    query = parse("llm a|b | c is:read")
    assert query.groups == ((Term("llm"),), (Term("a"), Term("b"), Term("c")), (Qualifier("is", ":", "read"),))


def test_qualifiers_and_their_negation():
    query = parse("is:unread -is:starred p:1 p<=2 has:note has:code tag:ToRead venue:ICLR year:2024 year>=2023")
    assert [atom for (atom,) in query.groups] == [
        Qualifier("is", ":", "unread"), Qualifier("is", ":", "starred", negated=True), Qualifier("p", ":", 1),
        Qualifier("p", "<=", 2), Qualifier("has", ":", "note"), Qualifier("has", ":", "code"),
        Qualifier("tag", ":", "toread"), Qualifier("venue", ":", "iclr"), Qualifier("year", ":", 2024),
        Qualifier("year", ">=", 2023),
    ]
    assert not query.problems


def test_a_unique_prefix_of_a_qualifier_value_is_enough():
    assert parse("is:st has:c").groups == ((Qualifier("is", ":", "starred"),), (Qualifier("has", ":", "code"),))


def test_smart_case():
    assert Term("GitHub").case_sensitive
    assert not Term("github").case_sensitive


def test_a_dash_before_a_word_or_quote_negates_as_a_bang_does():
    for dash, bang in (("-graph", "!graph"), ('-"language model"', '!"language model"'), ("-'kick", "!'kick"),
                       ("-is:read", "!is:read"), ("llm -Graph | -tree", "llm !Graph | !tree")):
        assert parse(dash).groups == parse(bang).groups
    assert parse("-graph").groups == ((Term("graph", negated=True),),)


def test_a_dash_inside_a_word_or_before_a_number_is_text_and_a_url_is_text():
    query = parse("https://github.com/ajy112/HDGNN self-supervised -1 x-")
    assert query.groups == ((Term("https://github.com/ajy112/HDGNN"),), (Term("self-supervised"),), (Term("-1"),), (Term("x-"),))
    assert not query.problems


def test_malformed_queries_keep_what_they_can_and_say_what_is_wrong():
    assert parse('graph "neural net').hint == "unclosed quote"
    assert parse('graph "neural net').groups == ((Term("graph"),), (Term("neural net", "phrase"),))
    unknown = parse("foo:bar graph")
    assert unknown.groups == ((Term("graph"),),)
    assert unknown.hint.startswith("unknown qualifier foo:")
    assert parse("p:9").hint == "p: needs a number from 0 to 5"
    assert parse("is:maybe").hint == "is: needs one of read, unread, starred, dismissed, new, updated"
    assert parse("tag:").hint == "tag: needs a value"
    assert parse("venue<iclr").hint == "venue: takes no comparison, write venue:VALUE"
    assert parse("| graph").hint == parse("graph |").hint == "| needs a term on each side"


def test_typing_a_lone_bang_dash_or_apostrophe_is_not_an_error_and_not_a_filter():
    for text in ("", "  ", "!", "'", "-", "--", "—", "graph !", "graph '", "graph -", "graph --"):
        query = parse(text)
        assert not query.problems
        assert query.groups in ((), ((Term("graph"),),))
        assert query.filters == ("graph" in text)


def test_a_part_not_understood_is_left_out_but_still_filters():
    for text in ("is:stared", "auther:bengio", "p<=9", "!is:stared", "-year:soon", "is:stared | p:9"):
        query = parse(text)
        assert query.groups == () and query.dropped and query.filters and query.hint, text
    assert not parse("graph").dropped and not parse('"language model').dropped  # an unclosed phrase still runs


def test_a_part_not_understood_in_an_or_group_leaves_the_rest_of_the_group():
    for text in ("graph | is:stared", "is:stared | graph"):
        query = parse(text)
        assert query.groups == ((Term("graph"),),)
        assert query.hint == "is: needs one of read, unread, starred, dismissed, new, updated"  # no complaint about the bar
    assert parse("llm is:stared | graph").groups == ((Term("llm"),), (Term("graph"),))
    assert parse("llm | is:stared | graph").groups == ((Term("llm"), Term("graph")),)


@settings(max_examples=400)
@given(st.text(alphabet=st.sampled_from(list("ab :!'\"|-<>=pisyhtgvenrcod0129\t")) | st.characters(), max_size=40))
def test_the_parser_never_raises(text):
    query = parse(text)
    assert query.text == text
    assert all(group for group in query.groups)


def test_identical_terms_and_groups_are_kept_once():
    assert parse("|".join(["a"] * 500)).groups == ((Term("a"),),)
    assert parse("graph graph a|b|a A").groups == ((Term("graph"),), (Term("a"), Term("b")), (Term("A"),))
    assert not parse("graph|graph graph").problems


def test_a_query_over_the_caps_is_refused_and_matches_nothing():
    long = parse("graph " * (MAX_CHARS // 6 + 1))
    assert long.groups == () and long.dropped and long.filters
    assert long.hint == f"too long: {len('graph ' * (MAX_CHARS // 6 + 1)):,} characters (at most {MAX_CHARS:,})"
    many = parse(" | ".join(f"w{k}" for k in range(MAX_TERMS + 1)))
    assert many.groups == () and many.dropped
    assert many.hint == f"too long: {MAX_TERMS + 1} terms (at most {MAX_TERMS})"
    at_cap = parse(" | ".join(f"w{k}" for k in range(MAX_TERMS)))
    assert len(at_cap.groups[0]) == MAX_TERMS and not at_cap.problems
    for words in ("-".join(["a"] * (MAX_TERMS + 1)), '"' + " ".join(["a"] * (MAX_TERMS + 1)) + '"',
                  'author:"' + " ".join(["a"] * (MAX_TERMS + 1)) + '"'):  # each word of a term is looked up
        assert parse(words).hint == f"too long: {MAX_TERMS + 1} terms (at most {MAX_TERMS})"


def test_upper_case_and_or_not_are_operators_as_in_scopus_and_pubmed():
    assert parse("llm AND agent").groups == parse("llm agent").groups
    assert parse("llm OR agent").groups == parse("llm | agent").groups
    assert parse("NOT graph").groups == parse("-graph").groups
    assert parse('diffusion AND NOT "language model" OR is:read').groups == parse('diffusion -"language model" | is:read').groups
    assert not parse("llm AND agent OR NOT graph").problems


def test_lower_case_and_or_not_stay_words():
    assert parse("rock and roll or not").groups == ((Term("rock"),), (Term("and"),), (Term("roll"),), (Term("or"),), (Term("not"),))
    assert parse('"AND" \'OR').groups == ((Term("AND", "phrase"),), (Term("OR", "exact"),))


def test_an_operator_without_its_terms_says_so():
    assert parse("llm OR").hint == "OR needs a term on each side"
    assert parse("AND llm").hint == "AND needs a term on each side"
    assert parse("llm NOT").hint == "NOT needs a term after it"
    assert parse("llm NOT").groups == ((Term("llm"),),)
