"""Array helpers of the batch engine: flat-index writes, unrolled reductions, row sorts.

Measured habits (the project's performance notes): per-(game, seat) fields are read and
written through flat indices `g * P + seat` on the raveled array (`x.reshape(-1)`), whole
rows are gathered with `take(..., axis=0)` and written through a one-element-per-row view
(`row_view`); reductions over the tiny seat and hand axes are unrolled. Every state
array is C-contiguous (checked when a run starts), so these reshapes are views.
"""
from __future__ import annotations

import math

import numpy as np


_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def row_view(arr: np.ndarray) -> np.ndarray:
    """A C-contiguous array (N, ...) as N single elements, one per row."""
    n = arr.shape[0]
    k = math.prod(arr.shape[1:])
    width = arr.dtype.itemsize * k
    return arr.reshape(n, k).view(_UINT.get(width) or np.dtype((np.void, width))).reshape(n)


def put_rows(arr: np.ndarray, idx: np.ndarray, rows) -> None:
    """arr[idx] = rows for a C-contiguous arr (N, ...) (several times faster for small rows)."""
    if len(idx):
        row_view(arr)[idx] = row_view(np.ascontiguousarray(rows, dtype=arr.dtype))


def fill_rows(arr: np.ndarray, idx: np.ndarray, value) -> None:
    """arr[idx] = value, row by row through the row view."""
    if len(idx):
        one = np.full((1,) + arr.shape[1:], value, arr.dtype)
        row_view(arr)[idx] = row_view(one)[0]


def any_cols(mask: np.ndarray) -> np.ndarray:
    """mask.any(axis=1) for a (G, K) bool array with a small K, unrolled."""
    out = mask[:, 0].copy()
    for k in range(1, mask.shape[1]):
        out |= mask[:, k]
    return out


def sum_cols(x: np.ndarray) -> np.ndarray:
    """x.sum(axis=-1) over a small trailing axis, unrolled (int64)."""
    out = x[..., 0].astype(np.int64)
    for k in range(1, x.shape[-1]):
        out += x[..., k]
    return out


def stable_argsort_rows(keys: np.ndarray, n: np.ndarray | None = None) -> np.ndarray:
    """np.argsort(keys, axis=1, kind="stable") for uint64 keys (G, w).

    One np.sort of the keys with each column index packed into their low bits (several
    times faster than argsort). Two keys that agree on all but those low bits would be
    ordered by column instead of by key: rows with such a pair (a chance of about 2**-56
    per pair) are redone with argsort, so the result is always exactly argsort's. With
    `n` (G,), columns >= n hold equal keys that sort last (padding): ties among them are
    ties by column.
    """
    G, w = keys.shape
    if w <= 1 or G == 0:
        return np.zeros((G, w), np.int64)
    bits = (w - 1).bit_length()
    low = np.uint64((1 << bits) - 1)
    packed = keys & ~low
    packed |= np.arange(w, dtype=np.uint64)
    packed.sort(axis=1)
    order = (packed & low).astype(np.int64)
    packed >>= np.uint64(bits)
    same = packed[:, 1:] == packed[:, :-1]
    if n is not None:
        same &= order[:, :-1] < n[:, None]
    if same.any():
        bad = np.flatnonzero(same.any(axis=1))
        order[bad] = np.argsort(keys[bad], axis=1, kind="stable")
    return order
