"""The app's side of "what to read next": the collection's interest model, made when first needed.

`Interest` owns the collection's features (built the first time they are needed: not at all for a
reader who has starred fewer than `MIN_POSITIVES` papers and never asks for similar papers) and
answers the app's two questions, each asked from a worker thread: the ranking of a set of marks
(None while there are too few labels to rank) and the papers most like one. `explain` and `shortly`
word a ranking for the detail pane and the tab bar.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from store.model import Paper, Triage
from store.ranking import MIN_POSITIVES, Features, InterestModel, Ranking, labels
from store.search import SearchIndex


class Interest:
    """The interest model of one collection (see the module docstring); safe to call from any thread."""

    def __init__(self, papers: Sequence[Paper], index: Callable[[], SearchIndex]) -> None:
        self._papers = papers
        self._index = index
        self._model: InterestModel | None = None
        self._lock = threading.Lock()

    def model(self) -> InterestModel:
        """The collection's interest model (its features are built on first use, on the caller's thread)."""
        with self._lock:
            if self._model is None:
                self._model = InterestModel(Features(self._papers, self._index()))
            return self._model

    def rank(self, states: Mapping[str, Triage]) -> Ranking | None:
        """The For-you ranking of these marks, None while fewer than `MIN_POSITIVES` are positives."""
        positives, _ = labels(states)
        return self.model().rank(states) if len(positives) >= MIN_POSITIVES else None

    def similar(self, paper_id: str, k: int) -> list[str]:
        """The ids of the `k` papers most like `paper_id`, best first (blocks while features are built)."""
        return self.model().features.similar(paper_id, k)


@dataclass(frozen=True, slots=True)
class Similar:
    """A "more like this" list: the papers most like `of`, best first, and the paper the list it was
    opened from had under its cursor (`back`: where esc returns)."""

    SIZE: ClassVar[int] = 30
    of: Paper
    papers: list[Paper]
    back: str


def explain(ranking: Ranking | None, paper: Paper, marked: bool, papers: Mapping[str, Paper]) -> str:
    """What the detail pane says of a paper and the For-you order: the bucket of an unmarked paper, the
    terms of it that weigh most for and against a star, and the starred papers it is closest to."""
    if ranking is None:
        return f"For you: star {MIN_POSITIVES} papers to get suggestions"
    why = ranking.why(paper.id)
    lines = [f"For you: {'marked (the model learns from it)' if marked else ranking.bucket(paper.id).label}"]
    if why.terms_for:
        lines.append("  for: " + ", ".join(why.terms_for))
    if why.terms_against:
        lines.append("  against: " + ", ".join(why.terms_against))
    closest = [papers[pid] for pid in why.closest_starred if pid in papers]
    if closest:
        lines.append("  close to: " + "; ".join(shortly(near) for near in closest))
    return "\n".join(lines)


def shortly(paper: Paper) -> str:
    """A paper named in a few words: its method's name, else its title cut at a word."""
    if paper.name:
        return paper.name
    if len(paper.title) <= 40:
        return paper.title
    return paper.title[:40].rsplit(" ", 1)[0] + "…"
