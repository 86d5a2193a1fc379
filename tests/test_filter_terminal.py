"""The installed `triage` in tmux: `/`, a query with typos, the match on screen, esc back to all."""
from __future__ import annotations

import pytest

from tests.tmux import Tmux, triage_command

ZEROTH = "55c495c509"  # the seed's last paper


@pytest.fixture
def term(tmp_path):
    """The installed app in tmux, on its last paper (a key typed as it starts is kept until it can apply)."""
    term = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'}")
    try:
        term.send("G")
        term.wait_for(lambda s: "19 shown" in s and ZEROTH in s)
        yield term
    finally:
        term.kill()


def test_typing_a_query_filters_the_list_in_a_real_terminal(term):
    term.send("/")
    term.send("-l", "difusion recovry")  # at once: the keys right after / must reach the query
    # the header's "1 of 19 shown" can come a moment before the detail pane shows the match
    term.wait_for(lambda s: "1 of 19" in s and "CDRL — cooperative diffusion recovery likelihood" in s and "HDGNN" not in s)
    term.send("Escape")
    term.wait_for(lambda s: "19 of 19 shown" in s and "HDGNN" in s and "1 of 19" not in s)  # ("1 of 19 shown" holds "19 shown")
    term.quit()


def detail_shows(screen: str, title: str) -> bool:
    """Whether the right-hand pane (the paper under the cursor) starts a line with `title`."""
    return any(line.split("▕", 1)[1].strip().startswith(title) for line in screen.splitlines() if "▕" in line)


def test_keys_typed_right_after_enter_move_the_list_not_the_query(term):
    term.send("/")
    term.send("-l", "llm")
    term.wait_for(lambda s: "5 of 19" in s)
    term.send("Enter", "j")  # at once, as a fast typist does: the j is for the list
    screen = term.wait_for(lambda s: "5 of 19" in s and detail_shows(s, "KoLA — Knowledge-oriented LLM Assessment"))
    assert "llmj" not in screen
    term.quit()


def filter_line(screen: str) -> str:
    """The query as the filter bar shows it."""
    return next(line for line in screen.splitlines() if line.startswith(" / ")).split("  ")[0].strip()


def test_editing_keys_typed_at_once_apply_in_the_order_typed(term):
    term.send("/")
    # Each group arrives in one read, as from a fast typist: a bound key (backspace, ←, ctrl+w)
    # between characters must act where it was typed, not after the characters that follow it.
    for keys, query in ((("x", "y", "BSpace", "a", "b", "c"), "/ xabc"), (("C-u", "x", "y", "z", "Left", "a", "b", "c"), "/ xyabcz"),
                        (("End", "C-w", "g", "r", "a", "p", "h"), "/ graph")):
        term.send(*keys)
        term.wait_for(lambda s, query=query: filter_line(s) == query)
    term.send("Enter")
    term.quit()


def test_a_query_not_understood_shows_its_hint_and_no_papers_in_a_real_terminal(term):
    term.send("/")
    term.send("-l", "is:stared")
    # the count, the hint and the empty list come in one frame, which tmux may take in more than one read
    screen = term.wait_for(lambda s: "0 of 19" in s and "is: needs one of read, unread, starred" in s and "No papers" in s)
    assert ZEROTH not in screen and "HDGNN" not in screen
    term.send("Enter")
    term.quit()


def test_a_dash_before_a_word_negates_it_in_a_real_terminal(term):
    term.send("/")
    term.send("-l", "--", "-graph")  # as !graph: every paper but the two about graphs
    term.wait_for(lambda s: "17 of 19" in s and "HDGNN" not in s)  # the count and the rows: one frame, maybe two reads
    term.send("Enter")
    term.quit()

