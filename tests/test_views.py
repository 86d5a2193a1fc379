"""Views and sorts over the seed list with some marks: which papers, in which order."""
from __future__ import annotations

import pytest

from store.papers.model import Paper, Triage
from store.readers import read_path
from store.search.views import SORTS, Tally, arrange, next_sort, surname


@pytest.fixture
def marked(seed_path):
    papers = read_path(seed_path).papers
    ids = [paper.id for paper in papers]
    states = {
        ids[3]: Triage(read=True, priority=2, updated=30.0),
        ids[5]: Triage(starred=True, updated=10.0),
        ids[8]: Triage(read=True, starred=True, priority=1, updated=20.0),
        ids[9]: Triage(priority=2, updated=40.0),
    }
    return papers, ids, states


def test_views_pick_papers_and_count_them(marked):
    papers, ids, states = marked
    assert [p.id for p in arrange(papers, states, "starred", "file")] == [ids[5], ids[8]]
    assert [p.id for p in arrange(papers, states, "prioritised", "file")] == [ids[3], ids[8], ids[9]]
    assert len(arrange(papers, states, "unread", "file")) == len(papers) - 2
    assert arrange(papers, states, "all", "file") == papers
    assert Tally(papers, states).counts == {"all": 19, "unread": 17, "starred": 2, "prioritised": 3}


def test_sorts_order_papers_and_ties_keep_file_order(marked):
    papers, ids, states = marked
    by = lambda sort: [p.id for p in arrange(papers, states, "all", sort)]  # noqa: E731
    assert by("priority")[:4] == [ids[8], ids[3], ids[9], ids[0]]
    assert by("starred")[:3] == [ids[5], ids[8], ids[0]]
    assert by("recent")[:5] == [ids[9], ids[3], ids[8], ids[5], ids[0]]
    assert by("file") == ids


def test_score_sort_keeps_the_rank_and_file_sort_undoes_it(marked):
    papers, ids, states = marked
    ranked = [papers[9], papers[2], papers[5]]
    assert arrange(ranked, states, "all", "score", ranked=True) == ranked
    assert arrange(ranked, states, "all", "file", ranked=True) == [papers[2], papers[5], papers[9]]
    assert arrange(ranked, states, "starred", "score", ranked=True) == [papers[5]]


def test_the_sort_cycle_offers_match_score_only_while_querying():
    cycle, sort = [], "file"
    for _ in range(12):
        sort = next_sort(sort, querying=False)
        cycle.append(sort)
    assert cycle == ["priority", "starred", "recent", "new", "interest", "suggested", "title", "author", "year", "track",
                     "session", "file"]
    assert next_sort("session", querying=True) == "score"
    assert next_sort("score", querying=False) == "file"
    assert set(SORTS) == {"file", "priority", "starred", "recent", "new", "interest", "suggested", "title", "author",
                          "year", "track", "session", "score"}


def paper(title: str, authors: tuple[str, ...] = (), year: int | None = None, track: str = "") -> Paper:
    return Paper(id=title, text=title, plain=title, title=title, authors=authors, year=year, track=track)


def test_sorts_by_title_first_author_year_and_track_put_what_lacks_the_field_last():
    alpha = paper("$\\alpha$TC-VAE: disentanglement", ("Cristian Meo", "Louis Mahon"), 2023, "poster")
    zeta = paper("Zeta functions of graphs", ("Bengio, Yoshua",), 2024, "oral")
    beta = paper("beta-VAE revisited", ("Anna van der Berg",), None, "spotlight")
    bare = paper("An abstract with nothing more")
    papers = [zeta, bare, alpha, beta]
    by = lambda sort: [p.title.split()[0] for p in arrange(papers, {}, "all", sort)]  # noqa: E731
    assert by("title") == ["$\\alpha$TC-VAE:", "An", "beta-VAE", "Zeta"]  # LaTeX does not file it under $; any case
    assert by("author") == ["Zeta", "beta-VAE", "$\\alpha$TC-VAE:", "An"]  # Bengio, Berg, Meo; no author last
    assert by("year") == ["Zeta", "$\\alpha$TC-VAE:", "An", "beta-VAE"]  # newest first, ties in list order
    assert by("track") == ["Zeta", "beta-VAE", "$\\alpha$TC-VAE:", "An"]  # oral, spotlight, poster, none


def test_the_new_sorts_on_the_iclr_list_follow_its_fields(corpora):
    papers = read_path(corpora / "iclr-2024-papers.jsonl").papers
    by_track = arrange(papers, {}, "all", "track")
    tracks = [p.track for p in by_track]
    assert tracks == sorted(tracks, key=["oral", "spotlight", "poster"].index) and tracks[0] == "oral"
    by_author = [surname(p.authors[0]).casefold() for p in arrange(papers, {}, "all", "author") if p.authors]
    assert by_author == sorted(by_author) and len(by_author) > 2000


def test_the_unread_view_leaves_out_dismissed_papers_read_or_not(marked):
    papers, ids, states = marked
    states = {**states, ids[0]: Triage(dismissed=True), ids[3]: Triage(read=True, dismissed=True, priority=2)}
    unread = [p.id for p in arrange(papers, states, "unread", "file")]
    assert ids[0] not in unread and ids[3] not in unread and ids[8] not in unread and len(unread) == 16
    assert arrange(papers, states, "all", "file") == papers  # All shows them (marked in the row)
    assert [p.id for p in arrange(papers, states, "prioritised", "file")] == [ids[3], ids[8], ids[9]]
    tally = Tally(papers, states)
    assert tally.counts == {"all": 19, "unread": 16, "starred": 2, "prioritised": 3}
    assert tally.read == 2  # the progress bar counts papers read, not those dismissed
    tally.change({ids[0]: (states[ids[0]], Triage()),  # undismissed: to read again
                  ids[1]: (Triage(), Triage(dismissed=True)),
                  ids[5]: (states[ids[5]], Triage(starred=True, read=True, dismissed=True))})
    assert tally.counts == {"all": 19, "unread": 15, "starred": 2, "prioritised": 3} and tally.read == 3
    assert tally.counts == Tally(papers, {**states, ids[0]: Triage(), ids[1]: Triage(dismissed=True),
                                          ids[5]: Triage(starred=True, read=True, dismissed=True)}).counts


def test_a_tally_follows_changed_marks_of_its_papers_only(marked):
    papers, ids, states = marked
    tally = Tally(papers[:6], states)
    assert tally.counts == {"all": 6, "unread": 5, "starred": 1, "prioritised": 1}
    tally.change({ids[0]: (Triage(), Triage(read=True, starred=True))})
    tally.change({ids[3]: (states[ids[3]], Triage()), ids[10]: (Triage(), Triage(starred=True))})
    assert tally.counts == {"all": 6, "unread": 5, "starred": 2, "prioritised": 0}


def test_each_view_of_a_long_ranked_list_keeps_its_order_and_the_papers_its_marks_show(corpora):
    """The hits of a query (best first, not file order) on the ICLR list, a seventh of its papers marked
    every way, and a blank state kept for some (a mark taken off): each view keeps the papers a paper's
    own marks put in it, in the hits' order."""
    papers = read_path(corpora / "iclr-2024-papers.jsonl").papers
    hits = papers[::-3]
    kinds = [Triage(read=True), Triage(starred=True), Triage(priority=3), Triage(dismissed=True),
             Triage(read=True, starred=True, priority=1), Triage()]
    states = {paper.id: kinds[k // 3 % len(kinds)] for k, paper in enumerate(papers[::7])}
    shown = {
        "unread": lambda state: not (state.read or state.dismissed),
        "starred": lambda state: state.starred,
        "prioritised": lambda state: state.priority > 0,
    }
    for view, shows in shown.items():
        expected = [paper for paper in hits if shows(states.get(paper.id, Triage()))]
        assert 0 < len(expected) < len(hits)
        assert arrange(hits, states, view, "score", ranked=True) == expected
        assert arrange(hits, {}, view, "score", ranked=True) == (hits if view == "unread" else [])
