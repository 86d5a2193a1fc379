"""Products over a list's feature rows (store.interest.ranking's `Features`): `Rows`, the list's rows and below them
those of papers projected beside them, as one matrix; `product`, a matrix of rows times a vector a block of rows at
a time (`blocks`), each block's pages let go of once multiplied (a long list's rows are views of its cache entry mapped:
store.interest.features_cache, store.common.paged)."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from store.common.paged import let_go, pieces

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

BLOCK = 65_536
"""Sparse rows multiplied at a time by `product` (of 2,700,000 papers' tf-idf rows, ~55 MB; dense rows go a piece of
store.common.paged's at a time)."""


def product(matrix: np.ndarray | csr_matrix | Rows, vector: np.ndarray) -> np.ndarray:
    """matrix @ vector a block of rows at a time, each block's pages let go of once multiplied (a long list's
    features are views of its cache entry mapped: a ranking read all 3 GB of the whole arXiv's, and held them:
    store.common.paged), without BLAS threads (on a busy machine they make it ten times slower)."""
    if isinstance(matrix, Rows):
        return matrix @ vector
    if isinstance(matrix, np.ndarray):
        return np.concatenate([np.einsum("ij,j->i", block, vector) for block in pieces(matrix)] or [np.zeros(0, vector.dtype)])
    out = [block @ vector for block in blocks(matrix)]
    return np.concatenate(out) if out else np.zeros(0, np.result_type(matrix.dtype, vector.dtype))


def blocks(matrix: csr_matrix, size: int = BLOCK) -> Iterator[csr_matrix]:
    """The sparse rows `matrix` `size` rows at a time (views of its arrays, not copies), each block's pages let go of
    once the next is asked for (`let_go`)."""
    from scipy import sparse

    data, indices, bounds = matrix.data, matrix.indices, matrix.indptr
    for first in range(0, matrix.shape[0], size):
        last = min(first + size, matrix.shape[0])
        start, stop = int(bounds[first]), int(bounds[last])
        yield sparse.csr_matrix((data[start:stop], indices[start:stop], bounds[first : last + 1] - start),
                                shape=(last - first, matrix.shape[1]))
        let_go(data[start:stop])
        let_go(indices[start:stop])


class Rows:
    """The rows of a list's papers (`own`: tf-idf, sparse, or latent, dense) and below them those of the papers
    projected beside them (`other`), as one matrix without a copy of the list's (which, at 100,000 papers, took longer
    than the projection: ~0.15 s of CPU for the tf-idf rows): `rows[k]`, `rows[ks]` (stacked in that order) and
    `rows @ vector`."""

    def __init__(self, own: csr_matrix | np.ndarray, other: csr_matrix | np.ndarray) -> None:
        self.own, self.other, self.split = own, other, own.shape[0]

    def __matmul__(self, vector: np.ndarray) -> np.ndarray:
        return np.concatenate([product(part, vector) for part in (self.own, self.other)])

    def __getitem__(self, rows: int | np.integer | Sequence[int] | np.ndarray) -> csr_matrix | np.ndarray:
        if isinstance(rows, (int, np.integer)):
            return self.own[rows] if rows < self.split else self.other[rows - self.split]
        rows = np.asarray(rows, dtype=np.intp)
        inside = rows < self.split
        if inside.all():
            return self.own[rows]
        parts = [self.own[rows[inside]], self.other[rows[~inside] - self.split]]
        if isinstance(self.own, np.ndarray):
            stacked = np.concatenate(parts)
        else:
            from scipy import sparse

            stacked = sparse.vstack(parts, format="csr")
        return stacked[np.argsort(np.concatenate([np.flatnonzero(inside), np.flatnonzero(~inside)]), kind="stable")]
