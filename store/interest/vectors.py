"""A list's papers as vectors (what store.interest.ranking's `Features` are made of), and other papers put in the
same space.

A paper's vector is sublinear tf-idf over its words (case folded, stop words out: see store.interest.reasons; a run
of CJK or other unspaced script counts as its character bigrams, so such text has terms too), L2-normalised,
together with a dense latent-semantic vector (a truncated SVD of those tf-idf rows, fitted on a sample of the list)
that lets papers sharing no word but sharing a topic meet. `built(papers)` makes the space of a list's papers and
their vectors (seconds at 100,000: a long list's are kept, store.interest.features_cache); `projected(space, papers)`
puts other papers (the library's marked papers of other lists) in that space, with its terms, idf and latent axes:
milliseconds for a few hundred, so a mark in another list never makes a list's vectors again. A paper projected
into a space has the very vector it would have there as one of the list's papers.

scipy and scikit-learn are imported inside the functions that need them; what counts words (store.interest.counts:
~40 ms) only when words are counted (not for vectors loaded from the cache).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from store.interest.reasons import content
from store.papers.model import Paper

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

DIMENSIONS = 64
"""Size of the latent-semantic part of a paper's vector."""
SAMPLE = 8000
"""Papers the latent space is fitted on; the rest are projected into it (the fit is the slow part)."""
UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf"
                      r"\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
"""Scripts written without spaces between words (Thai, Lao, Myanmar, Khmer, kana, CJK), and Hangul,
whose spaced words carry their particles."""


def terms_of(word: str) -> list[str]:
    """The terms a counted word (store.interest.counts) counts as: itself case folded, or, when it holds unspaced
    script, its character bigrams (a single character alone)."""
    folded = unicodedata.normalize("NFC", word).casefold()
    if not UNSPACED.search(folded):
        return [folded]
    return [folded] if len(folded) == 1 else [folded[k : k + 2] for k in range(len(folded) - 1)]


@dataclass(frozen=True, slots=True)
class Vectors:
    """A list's space and its papers in it: `x` the tf-idf rows (a row per paper, L2-normalised), `terms` the names of
    its columns and `idf` their weights, `axes` the latent space (dimensions × terms), `length` each paper's latent
    vector's length before normalising (what `why` divides by) and `z` the latent rows. `built` makes them; a long
    list's are kept in the cache (store.interest.features_cache)."""

    x: csr_matrix
    terms: list[str]
    idf: np.ndarray
    axes: np.ndarray
    length: np.ndarray
    z: np.ndarray


def built(papers: Sequence[Paper]) -> Vectors:
    """The space of `papers` and their vectors in it (from their words' counts, store.interest.counts): seconds at
    100,000."""
    from sklearn.decomposition import TruncatedSVD

    n = len(papers)
    tf, term_ids = _term_counts(papers)
    tf = tf.tocsc()
    tf.sum_duplicates()
    df = np.diff(tf.indptr)
    keep = df >= (2 if n >= 1000 else 1)
    if n >= 10:
        keep &= df <= n // 2
    names = np.array(list(term_ids), dtype=object)
    keep &= np.array(content(names), dtype=bool)
    tf = tf[:, keep].tocsr()
    terms: list[str] = names[keep].tolist()
    idf = np.log((1 + n) / (1 + df[keep])) + 1
    x = _weighted(tf, idf)
    # The latent space, fitted on a sample (seeded: the same collection gives the same vectors).
    dims = min(DIMENSIONS, len(terms) - 1, n // 10)  # a short list has no latent topics to find
    if dims >= 2:
        rng = np.random.default_rng(0)
        sample = x[np.sort(rng.choice(n, SAMPLE, replace=False))] if n > SAMPLE else x
        svd = TruncatedSVD(dims, n_iter=4, random_state=0).fit(sample)
        axes = svd.components_.astype(np.float32)  # dims × terms
    else:
        axes = np.zeros((1, len(terms)), np.float32)
    length, z = _latent(x, axes)
    return Vectors(x, terms, idf, axes, length, z)


def projected(space: Vectors, papers: Sequence[Paper]) -> tuple[csr_matrix, np.ndarray, np.ndarray]:
    """The rows of `papers` in `space` (`x`, `length`, `z`, as `Vectors` holds them): their words counted, those of
    the space's terms weighed by its idf (the others left out) and normalised, then put on its latent axes."""
    column = {term: k for k, term in enumerate(space.terms)}
    tf, _ = _term_counts(papers, column)
    tf.sum_duplicates()
    x = _weighted(tf, space.idf)
    length, z = _latent(x, space.axes)
    return x, length, z


def _term_counts(papers: Sequence[Paper], columns: dict[str, int] | None = None) -> tuple[csr_matrix, dict[str, int]]:
    """How many times each term is in each of `papers` (a row a paper; a word's case variants join, unspaced script
    splits into bigrams), and the terms' columns: `columns`' (a term not among them left out), else every term the
    papers have, in the order first met."""
    from scipy import sparse

    from store.interest.counts import counted  # (here: vectors loaded from the cache count no word, nor import what counts)

    words, of_paper, of_word, times = counted(papers)
    counts = sparse.csr_matrix((times, (of_paper, of_word)), shape=(len(papers), len(words)))
    del of_paper, of_word, times  # (~200 MB at 100,000 papers, let go of before the rest is made)
    term_ids: dict[str, int] = {} if columns is None else columns
    rows, cols = [], []
    for w, word in enumerate(words):
        for term in terms_of(word):
            column = term_ids.setdefault(term, len(term_ids)) if columns is None else columns.get(term)
            if column is not None:
                rows.append(w)
                cols.append(column)
    to_terms = sparse.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)), shape=(len(words), len(term_ids)))
    return counts @ to_terms, term_ids


def _weighted(tf: csr_matrix, idf: np.ndarray) -> csr_matrix:
    """The tf-idf rows of the term counts `tf` (duplicates summed): sublinear, weighed by `idf`, L2-normalised."""
    from scipy import sparse

    tf.data = 1 + np.log(tf.data)
    weighted = (tf @ sparse.diags(idf)).astype(np.float32).tocsr()
    norms = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
    return (sparse.diags(1 / np.maximum(norms, 1e-9)) @ weighted).astype(np.float32).tocsr()


def _latent(x: csr_matrix, axes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each of the tf-idf rows `x`'s latent vector's length before normalising, and the normalised latent rows."""
    raw = np.ascontiguousarray(x @ axes.T, dtype=np.float32)
    length = np.linalg.norm(raw, axis=1) + 1e-9
    return length, raw / length[:, None]
