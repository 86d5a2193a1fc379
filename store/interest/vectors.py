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

from store.interest.products import blocks
from store.interest.reasons import content
from store.interest.spool import Spool
from store.papers.model import Paper

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

    from store.interest.counts import Counts

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
    100,000. A `BLOCK` of papers at a time (their counts, their tf-idf rows, their latent rows), what a long list's
    blocks make put aside on disk (store.interest.spool: at 1,000,000 papers, made whole, they held ~7-9 GB at once),
    the arrays returned views of it: the same vectors as made whole, to the bit (each row's sums are its own)."""
    from scipy import sparse
    from sklearn.decomposition import TruncatedSVD

    from store.interest.counts import BLOCK, counted  # (here: vectors loaded from the cache count no word)

    n = len(papers)
    on_disk = n > BLOCK
    with Spool(on_disk) as spool, Spool(on_disk) as data, Spool(on_disk) as columns, Spool(on_disk) as latent:
        counts = counted(papers, spool)
        to_terms, names = _to_terms(counts.words)
        df = np.zeros(len(names), np.int64)
        tfs = []  # (each block's term counts, put aside again: made once)
        for k in range(counts.blocks):
            tf = _block_counts(counts, k, to_terms)
            df += np.bincount(tf.indices, minlength=len(names))
            tfs.append((tf.shape, spool.put(tf.data), spool.put(tf.indices), spool.put(tf.indptr)))
        keep = df >= (2 if n >= 1000 else 1)
        if n >= 10:
            keep &= df <= n // 2
        named = np.array(names, dtype=object)
        del names
        keep &= np.array(content(named), dtype=bool)
        terms: list[str] = named[keep].tolist()
        del named
        idf = np.log((1 + n) / (1 + df[keep])) + 1
        column = np.cumsum(keep) - 1  # (a kept term's column among the kept)
        # The latent space, fitted on a sample (seeded: the same collection gives the same vectors).
        sample = np.sort(np.random.default_rng(0).choice(n, SAMPLE, replace=False)) if n > SAMPLE else np.arange(n)
        sampled, indptr = [], [np.zeros(1, np.int64)]
        for k, (shape, *places) in enumerate(tfs):
            tf = sparse.csr_matrix(tuple(map(spool.get, places)), shape=shape)
            rows = _weighted(_kept(tf, keep, column), idf)
            data.put(rows.data)
            columns.put(rows.indices.astype(np.int32))
            indptr.append(rows.indptr[1:].astype(np.int64) + indptr[-1][-1])
            sampled.append(rows[sample[(sample >= k * BLOCK) & (sample < (k + 1) * BLOCK)] - k * BLOCK])
        spool.close()
        bounds = np.concatenate(indptr)
        index = np.int32 if max(int(bounds[-1]), n, len(terms)) < 1 << 31 else np.int64
        x = sparse.csr_matrix((data.whole(np.float32), columns.whole(np.int32).astype(index, copy=False),
                               bounds.astype(index)), shape=(n, len(terms)))
        dims = min(DIMENSIONS, len(terms) - 1, n // 10)  # a short list has no latent topics to find
        if dims >= 2:
            fitted = sparse.vstack(sampled, format="csr") if len(sampled) > 1 else sampled[0]
            axes = TruncatedSVD(dims, n_iter=4, random_state=0).fit(fitted).components_.astype(np.float32)  # dims × terms
        else:
            axes = np.zeros((1, len(terms)), np.float32)
        lengths = []
        for rows in blocks(x, BLOCK):  # (each block's pages let go of: the rows are read again from the file)
            length, z = _latent(rows, axes)
            lengths.append(length)
            latent.put(z.ravel())
        length = np.concatenate(lengths) if lengths else np.zeros(0, np.float32)
        return Vectors(x, terms, idf, axes, length, latent.whole(np.float32).reshape(n, len(axes)))


def projected(space: Vectors, papers: Sequence[Paper]) -> tuple[csr_matrix, np.ndarray, np.ndarray]:
    """The rows of `papers` in `space` (`x`, `length`, `z`, as `Vectors` holds them): their words counted, those of
    the space's terms weighed by its idf (the others left out) and normalised, then put on its latent axes."""
    from scipy import sparse

    from store.interest.counts import counted

    with Spool(False) as spool:
        counts = counted(papers, spool)
        to_terms, _ = _to_terms(counts.words, {term: k for k, term in enumerate(space.terms)})
        tf = sparse.vstack([_block_counts(counts, k, to_terms) for k in range(counts.blocks)], format="csr")
    x = _weighted(tf, space.idf)
    length, z = _latent(x, space.axes)
    return x, length, z


def _to_terms(words: list[str], columns: dict[str, int] | None = None) -> tuple[csr_matrix, list[str]]:
    """The terms each of `words` counts as (a word's case variants join, unspaced script splits into bigrams), as a
    matrix (a row a word, a column a term), and the terms' names: `columns`' (a term not among them left out), else
    every term of the words, in the order first met."""
    from scipy import sparse

    term_ids: dict[str, int] = {} if columns is None else columns
    rows, cols = [], []
    for w, word in enumerate(words):
        for term in terms_of(word):
            column = term_ids.setdefault(term, len(term_ids)) if columns is None else columns.get(term)
            if column is not None:
                rows.append(w)
                cols.append(column)
    matrix = sparse.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)), shape=(len(words), len(term_ids)))
    return matrix, list(term_ids)


def _block_counts(counts: Counts, k: int, to_terms: csr_matrix) -> csr_matrix:
    """How many times each term is in each paper of block `k` of `counts` (a row a paper), duplicates summed."""
    from scipy import sparse

    from store.interest.counts import BLOCK

    rows, ids, times = counts.block(k)
    size = min(BLOCK, counts.papers - k * BLOCK)
    tf = sparse.csr_matrix((times, (rows, ids)), shape=(size, len(counts.words))) @ to_terms
    tf.sum_duplicates()
    return tf


def _kept(tf: csr_matrix, keep: np.ndarray, column: np.ndarray) -> csr_matrix:
    """The counts `tf` of the terms `keep` holds, each in its `column` among them (in order: each row's stay sorted)."""
    from scipy import sparse

    held = keep[tf.indices]
    indptr = np.concatenate([np.zeros(1, np.int64), np.cumsum(held)])[tf.indptr]  # (the counts held before each row)
    return sparse.csr_matrix((tf.data[held], column[tf.indices[held]], indptr), shape=(tf.shape[0], int(keep.sum())))


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
