"""What to read next: an interest model learned from the marks, and "more like this".

Owns `Features` (a list's papers as vectors, store.interest.vectors: built once from their words' counts, and the
library's marked papers of other lists projected into the list's space) and the model over them:
`InterestModel.rank(states) -> Ranking` (the For-you order, a bucket per paper, why it is there) and
`Features.similar(paper_id, k)`.

The model is a linear SVM (scikit-learn's LinearSVC's; up to `SMALL_FIT` marked papers, solved in numpy without
importing scikit-learn: store.interest.svm) on both parts of a paper's vector (tf-idf and latent) trained on the
marked papers only (unmarked papers are not negatives); with one star, the likeness to it. Retraining after a mark
and reranking are a small fit and a few matrix-vector products, milliseconds at 10k papers. Constants were chosen
with bench/ranking.py.

scipy is imported inside the functions that need it, never when this module is imported: `triage list` without an
interest sort pays nothing for it; ranking imports scikit-learn only past `SMALL_FIT` marks (building features does:
store.interest.vectors); nor does ranking by features loaded from the cache (`store.interest.features_cache`) import
what counts words (store.interest.counts: ~40 ms) unless papers of other lists are projected.
"""
from __future__ import annotations

from collections.abc import Collection as Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from itertools import compress

import numpy as np

from store.interest.products import Rows, product
from store.interest.reasons import pairs, phrases, words_of
from store.interest.svm import dual
from store.interest.vectors import UNSPACED, Vectors, built, projected, terms_of
from store.papers.chunked import ids_of
from store.papers.rows import ById, lookup_of
from store.papers.model import Paper, Triage


MIN_POSITIVES = 1
"""Fewer starred papers than this and the model does not rank: one star ranks by likeness to it,
two and more train the SVM."""
TOO_FEW = "star a paper to get suggestions"
LATENT = 1.0
"""Weight of the latent cosine beside the tf-idf cosine in `Features.closeness`."""
WEAK = 0.3
"""Weight of a paper marked read with no other mark, as a negative, beside a dismissed one (1)."""


_LOOKED_UP = 10_000
"""Ids looked up one at a time at most (`Features.rows_of`): more are found by one look through all the ids."""


class Features:
    """A list's papers as vectors, built once (seconds at 100k papers; see bench/ranking.py) and shared by every
    retrain: `x` the tf-idf rows, `z` the latent rows, `terms` the names of `x`'s columns (store.interest.vectors).
    `similar(paper_id, k)` is "more like this".

    The `own` first rows are the list's `papers` (kept as they are given: a reopened list's, made a chunk at a time, are
    not made for the features when they come from the cache); those after them, `outside` (the library's papers of
    other lists), are only learnt from: they are never ranked, suggested nor similar, and have no say in the list's
    space (its terms, idf and latent axes), into which they are projected. `vectors`: those `built` of the list's
    papers before (a long list's come from the cache: store.interest.features_cache), else they are built now."""

    def __init__(self, papers: Sequence[Paper], vectors: Vectors | None = None, outside: Sequence[Paper] = ()) -> None:
        self.papers, self.outside, self.own = papers, list(outside), len(papers)
        ids = ids_of(papers)
        self.ids: Sequence[str] = [*ids, *(p.id for p in self.outside)] if self.outside else ids
        self.id_array = np.fromiter(self.ids, dtype=object, count=len(self.ids))
        self.vectors = vectors if vectors is not None else built(papers)
        """The list's papers' (what a long list keeps)."""
        made = self.vectors
        self.x, self.terms, self.axes, self.length, self.z = made.x, made.terms, made.axes, made.length, made.z
        if self.outside:
            x, length, z = projected(made, self.outside)
            self.x, self.z, self.length = Rows(made.x, x), Rows(made.z, z), np.concatenate([made.length, length])
        self.telling = np.array([not t.isdigit() and (len(t) > 1 or bool(UNSPACED.match(t))) for t in self.terms], dtype=bool)
        """Which terms a reason may name: not bare numbers or single letters, which say nothing to a reader."""

    def __len__(self) -> int:
        return len(self.ids)

    @cached_property
    def rows_by_id(self) -> ById:
        """The papers' rows by id (`row`), made when first asked for: their ids' hashes and rows in two arrays
        (`store.papers.rows.ById` over the ids themselves: only rows are asked of it; ~8 MB and ~0.2 s at 1,000,000
        papers, where a dict of them was ~56 MB and ~0.35 s). The rows of a few papers, as a ranking or more like this
        asks, are found without it (`rows_of`)."""
        lookup = None if self.outside else lookup_of(self.papers, "id")  # (a reopened long list's, kept: nothing made)
        return ById(self.ids, self.ids, lookup).indexed()  # type: ignore[arg-type]

    def row(self, paper_id: str) -> int | None:
        """The row of the paper `paper_id` (the first, should an id repeat), None for none of these papers."""
        return self.rows_by_id.row(paper_id)

    def rows_of(self, paper_ids: Iterable[str]) -> dict[str, int]:
        """The rows of those of `paper_ids` that are papers here (the first, should an id repeat), by id: of a few,
        through `rows_by_id` once it is made, else by one look through the ids (at C speed: ~30 ms at 1,000,000
        papers, what ~20,000 look-ups cost)."""
        wanted = set(paper_ids)
        if "rows_by_id" in self.__dict__ and len(wanted) <= _LOOKED_UP:
            return {pid: row for pid in wanted if (row := self.row(pid)) is not None}
        found: dict[str, int] = {}
        for k in compress(range(len(self.ids)), map(wanted.__contains__, self.ids)):
            found.setdefault(self.ids[k], k)
        return found

    def text(self, row: int) -> str:
        """Paper `row`'s title and abstract, as its reasons are found in."""
        paper = self.papers[row] if row < self.own else self.outside[row - self.own]
        return f"{paper.title}. {paper.plain}"

    def closeness(self, row: int, others: np.ndarray | None = None) -> np.ndarray:
        """Similarity of paper `row` to each of `others` (rows; default every paper): tf-idf
        cosine plus `LATENT` times latent cosine."""
        if others is None:
            return product(self.x, self.x[row].toarray().ravel()) + LATENT * product(self.z, self.z[row])
        return (self.x[others] @ self.x[row].T).toarray().ravel() + LATENT * product(self.z[others], self.z[row])

    def similar(self, paper_id: str, k: int = 10) -> list[str]:
        """The ids of the `k` papers most like `paper_id`, best first, never itself; KeyError for
        an id not in the collection."""
        row = self.rows_of((paper_id,))[paper_id]
        sim = self.closeness(row)[: self.own]
        if row < self.own:
            sim[row] = -np.inf
        k = min(k, self.own - (row < self.own))
        if k <= 0:
            return []
        top = np.argpartition(-sim, k - 1)[:k]
        return [self.ids[i] for i in top[np.lexsort((top, -sim[top]))]]


class Bucket(Enum):
    """How a paper stands with the model, as a row shows it: a glyph, not a number."""

    STAR = ("↑", "likely star")
    UNSURE = ("·", "unsure")
    SKIP = ("↓", "likely skip")

    @property
    def glyph(self) -> str:
        return self.value[0]

    @property
    def label(self) -> str:
        return self.value[1]


_BUCKETS = (Bucket.STAR, Bucket.UNSURE, Bucket.SKIP)


@dataclass(frozen=True, slots=True)
class Why:
    """Why a paper is where the For-you order puts it: the terms of the paper that weigh most for
    and against it (best first) and the starred papers it is closest to."""

    terms_for: tuple[str, ...]
    terms_against: tuple[str, ...]
    closest_starred: tuple[str, ...]


def labels(states: Mapping[str, Triage], dismissed: Container[str] = ()) -> tuple[list[str], dict[str, float]]:
    """The positives (starred, or priority 1–2) and the negatives with their weights (dismissed 1,
    read with no other mark `WEAK`) among `states`; unmarked papers are neither."""
    positives, negatives = [], {}
    for pid, state in states.items():
        if state.starred or 1 <= state.priority <= 2:
            positives.append(pid)
        elif pid in dismissed or getattr(state, "dismissed", False):
            negatives[pid] = 1.0
        elif state.read and not (state.priority or state.note or state.tags):
            negatives[pid] = WEAK
    negatives |= {pid: 1.0 for pid in dismissed if pid not in states}
    return positives, negatives


class InterestModel:
    """The interest model of one collection. `rank(states)` is a pure function of the marks (it
    changes nothing and may run in any thread): call it after each mark off the UI thread."""

    def __init__(self, features: Features) -> None:
        self.features = features

    def rank(self, states: Mapping[str, Triage], dismissed: Container[str] = ()) -> Ranking:
        """The For-you ranking the marks in `states` (and the ids in `dismissed`) give."""
        f = self.features
        positives, negatives = labels(states, dismissed)
        rows = f.rows_of([*states, *dismissed])
        pos = np.array(sorted(rows[p] for p in positives if p in rows), dtype=np.intp)
        neg = {rows[p]: w for p, w in negatives.items() if p in rows}
        marked = np.zeros(len(f), bool)
        marked[list(rows.values())] = True
        if len(pos) < MIN_POSITIVES:
            return Ranking(f, None, np.zeros(len(f), np.float32), pos, marked, 0.0, TOO_FEW)
        model = _fit(f, pos, np.array(list(neg), dtype=np.intp), np.array(list(neg.values())))
        scores = model.scores(f)
        spread = float(np.std(scores)) or 1.0  # standardised: scores of one ranking and the next compare
        rate = (len(pos) + PRIOR_WEIGHT * PRIOR_RATE) / (len(pos) + len(neg) + PRIOR_WEIGHT)
        return Ranking(f, model.scaled(1 / spread), scores / spread, pos, marked, rate, "")


PRIOR_RATE = 0.1
"""The share of a list a reader is taken to star before their marks say (what the buckets follow)."""
PRIOR_WEIGHT = 20
LIKELY_SHARE = 0.2
"""Likely stars: at most this share of the stars the rate expects among the unmarked papers…"""
LIKELY_CAP = 0.02
"""…and of the unmarked papers (2%: 45 of the ICLR list's 2,260)…"""
LIKELY_SCORE = 3.0
"""…and only those scoring this many standard deviations of the scores: with these, about 6 in 10
likely stars of bench/ranking.py's held-out runs are of the reader's topic (at 1 star, about half)."""
"""How many marks that prior counts as: 3 stars and nothing read give a rate of 0.22, not 1."""
NEIGHBOURS = 5
"""With one star, how many of the papers nearest it join it in the likeness the order follows."""
SVM_C = 0.1
"""The SVM's regularisation (few labels: strong)."""
SVM_LATENT = 1.0
"""Scale of the latent part of a paper's vector beside its tf-idf part, for the SVM."""
SMALL_FIT = 1000
"""At most this many marked papers (every list's), the SVM is solved in numpy (store.interest.svm: ~0.1 s at 1,000, no
import of scikit-learn: ~0.55 s of each CLI call); more, by scikit-learn's LinearSVC, whose solver (liblinear) grows
with the papers where the numpy one grows with their cube (4,000 marked papers: 0.05 s against 3.7 s). The same
model either way (tests/test_ranking.py)."""


@dataclass(frozen=True, slots=True)
class _Linear:
    """A linear model of a paper's two parts: its score is x·terms + z·latent."""

    terms: np.ndarray
    latent: np.ndarray

    def scores(self, f: Features) -> np.ndarray:
        return product(f.x, self.terms) + product(f.z, self.latent)

    def scaled(self, by: float) -> _Linear:
        return _Linear(self.terms * by, self.latent * by)

    def parts(self, f: Features, row: int) -> tuple[np.ndarray, np.ndarray]:
        """The terms of paper `row` and what each adds to its score (the latent part, being
        linear in the tf-idf row before normalising, is shared out over the terms too)."""
        x = f.x[row]
        through_latent = np.einsum("ij,i->j", f.axes[:, x.indices], self.latent) / f.length[row]
        return x.indices, x.data * (self.terms[x.indices] + through_latent)


def _fit(f: Features, pos: np.ndarray, neg: np.ndarray, neg_weight: np.ndarray) -> _Linear:
    """The model the labels give: a linear SVM on [tf-idf, latent], classes balanced; with one
    positive (too little to learn from: bench/ranking.py's few-stars table) or without negatives
    (nothing to tell the positives from), the similarity to their centroid (tf-idf and latent: a
    short list has no latent part)."""
    if len(pos) < 2 or not len(neg):
        terms, latent = np.asarray(f.x[pos].mean(axis=0), dtype=np.float32).ravel(), f.z[pos].mean(axis=0)
        if len(pos) == 1:  # one star: the papers nearest it join it (pseudo-relevance feedback)
            near = product(f.x, terms) + product(f.z, latent)
            near[pos] = -np.inf
            near = np.argpartition(-near, NEIGHBOURS)[:NEIGHBOURS] if len(f) > NEIGHBOURS + 1 else np.flatnonzero(np.isfinite(near))
            terms = terms + np.asarray(f.x[near].mean(axis=0), dtype=np.float32).ravel()
            latent = latent + f.z[near].mean(axis=0)
        return _Linear(terms, latent)
    rows = np.concatenate([pos, neg])
    x, z = f.x[rows], SVM_LATENT * f.z[rows].astype(np.float64)  # (the SVM's vectors: [tf-idf, latent])
    weight = np.concatenate([np.ones(len(pos)), neg_weight])
    if len(rows) <= SMALL_FIT:
        beta = dual((x @ x.T).toarray() + z @ z.T, np.arange(len(rows)) < len(pos), weight, SVM_C)
        return _Linear((x.T @ beta).astype(np.float32), SVM_LATENT * (z.T @ beta).astype(np.float32))
    from scipy import sparse
    from sklearn.svm import LinearSVC

    target = np.concatenate([np.ones(len(pos)), np.zeros(len(neg))])
    svc = LinearSVC(C=SVM_C, class_weight="balanced", random_state=0)
    coef = svc.fit(sparse.hstack([x, sparse.csr_matrix(z)]).tocsr(), target, sample_weight=weight).coef_.ravel()
    terms = len(f.terms)
    return _Linear(coef[:terms].astype(np.float32), SVM_LATENT * coef[terms:].astype(np.float32))


class Ranking:
    """What `InterestModel.rank` gives: `order` (every paper id of the list: the unmarked papers most likely
    to be starred first, then the marked ones), `bucket(id)`, `why(id)`, `suggested` and, when
    there are too few labels to rank, a `status` message (then `order` keeps file order, the
    unmarked papers first)."""

    def __init__(self, f: Features, model: _Linear | None, scores: np.ndarray, starred: np.ndarray,
                 marked: np.ndarray, rate: float, status: str) -> None:
        self._f, self._model, self._starred = f, model, starred
        self.status = status
        """Empty when ranked; else what the reader should do to get a ranking."""
        self.scores = scores
        """Each paper's score in file order, the list's then the others' (higher: more likely starred); zeros
        when not ranked."""
        by_score = np.argsort(-self.scores[: f.own], kind="stable")  # ties (and no ranking) keep file order
        self._unmarked = by_score[~marked[by_score]]
        self._order, self._marked = np.concatenate([self._unmarked, by_score[marked[by_score]]]), np.flatnonzero(marked[: f.own])
        self.order: list[str] = f.id_array[self._order].tolist()
        # Buckets from the rate the reader stars at: about that share of the unmarked papers would be
        # starred (the line `suggested` walks from); past three times that share, a star is unlikely.
        # Likely stars are the few at the top that are mostly right (see `LIKELY_SHARE`).
        unmarked = len(self._unmarked)
        expected = int(np.ceil(rate * unmarked))
        self._line = self.scores[self._unmarked[expected - 1]] if 0 < expected <= unmarked else np.inf
        self._low = self.scores[self._unmarked[3 * expected]] if 0 < 3 * expected < unmarked else -np.inf
        likely = int(np.ceil(min(LIKELY_SHARE * expected, LIKELY_CAP * unmarked)))
        self._high = max(self.scores[self._unmarked[likely - 1]], LIKELY_SCORE) if 0 < likely <= unmarked else np.inf

    @cached_property
    def suggested(self) -> list[str]:
        """The unmarked papers whose mark would teach the model most: the most uncertain first,
        those nearest the line above which the rate the reader stars at expects stars (active learning)."""
        return self._f.id_array[self.rows(suggested=True)[: len(self._unmarked)]].tolist()

    def rows(self, suggested: bool = False) -> list[int]:
        """The list's papers (their places in it) in `order`, or in `suggested` order and then the marked ones in the
        list's order: the whole list sorted by `places` (`suggested_places`) without a look-up a paper."""
        if not suggested:
            return self._order.tolist()
        unmarked = self._unmarked
        if np.isfinite(self._line):
            unmarked = unmarked[np.argsort(np.abs(self.scores[unmarked] - self._line), kind="stable")]
        return np.concatenate([unmarked, self._marked]).tolist()

    @cached_property
    def _starred_pairs(self) -> set[tuple[str, str]]:
        """The two-word phrases of the starred papers (what a reason may name as a phrase)."""
        f = self._f
        return {pair for row in self._starred for pair in pairs(words_of(f.text(row), terms_of), f.text(row))}

    @cached_property
    def places(self) -> dict[str, int]:
        """Paper id → its place in `order` (what a sort by it needs)."""
        return {paper_id: place for place, paper_id in enumerate(self.order)}

    @cached_property
    def suggested_places(self) -> dict[str, int]:
        """Paper id → its place in `suggested` (marked papers have none)."""
        return {paper_id: place for place, paper_id in enumerate(self.suggested)}

    def prepare(self) -> None:
        """Make now, on the caller's thread, what `why`, `bucket` and `score` look up (each paper's row: ~0.35 s at
        1,000,000 papers; the starred papers' phrases), so that the app's UI thread, which asks them of a paper at a
        time, never waits for it (`Features.rows_by_id` is made when first asked for: a command ranking once needs none)."""
        _ = self._f.rows_by_id, self._starred_pairs if self._model is not None else None

    def score(self, paper_id: str) -> float:
        """The score of the paper `paper_id`; KeyError for none of the papers ranked."""
        row = self._f.row(paper_id)
        if row is None:
            raise KeyError(paper_id)
        return float(self.scores[row])

    def bucket(self, paper_id: str) -> Bucket:
        """Likely star, unsure or likely skip; unsure for every paper while there is a status."""
        return self.buckets([paper_id])[0]

    def buckets(self, paper_ids: Sequence[str]) -> list[Bucket]:
        """The `bucket` of each of `paper_ids`, found together (a list's 100,000 in a few milliseconds); unsure for a
        paper the ranking was not made over (one a fetch or reload brought in since: the next ranking has it)."""
        if self.status:
            return [Bucket.UNSURE] * len(paper_ids)
        found = self._f.rows_of(paper_ids)
        rows = np.fromiter((found.get(pid, -1) for pid in paper_ids), np.intp, len(paper_ids))
        scores = self.scores[rows]
        kinds = np.where(rows < 0, 1, np.where(scores >= self._high, 0, np.where(scores <= self._low, 2, 1))).tolist()
        return [_BUCKETS[kind] for kind in kinds]

    def why(self, paper_id: str, terms: int = 5, papers: int = 3) -> Why:
        """The `terms` words or two-word phrases of the paper weighing most for and against it
        (store.interest.reasons) and the `papers` starred papers closest to it (never itself: of this list or
        of the others learnt from); all empty while there is a status, or for a paper the ranking was not made over."""
        f, row = self._f, self._f.row(paper_id)
        if self._model is None or row is None:
            return Why((), (), ())
        indices, part = self._model.parts(f, row)
        text = f.text(row)
        weights = {f.terms[i]: w for i, w in zip(indices, part) if f.telling[i]}
        against = {t for t, w in weights.items() if w < 0}
        known = {pair for pair in self._starred_pairs if not against.intersection(pair)}
        terms_for = phrases(text, {t: w for t, w in weights.items() if w > 0}, terms_of, terms, known)
        terms_against = phrases(text, {t: -w for t, w in weights.items() if w < 0}, terms_of, terms)
        starred = self._starred[self._starred != row]
        near = f.closeness(row, starred)
        closest = tuple(f.ids[starred[k]] for k in np.argsort(-near, kind="stable")[:papers])
        return Why(terms_for, terms_against, closest)
