"""simcore.rng's hash chain compiled with numba, for the compiled engines and bots: the same
numbers, bit for bit (rng.py stays the one definition of the streams and their constants).

`mix` and `add` are one-liners, inlined by numba into their callers; `key3` and `below` are
compiled once and left to LLVM. None is cached on its own: its code is compiled into its
callers' caches, whose folders are keyed by this file too (simcore/jit.py: CORE_SOURCES).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .rng import _C1, _C2, _GOLDEN


@njit(inline="always")
def mix(z):
    """splitmix64 finaliser (wrapping uint64 arithmetic), as rng._mix."""
    z = np.uint64(z) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _C1
    z = (z ^ (z >> np.uint64(27))) * _C2
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def add(h, a):
    """Extend hash h by one address part, as rng.key does."""
    return mix(h ^ np.uint64(a))


@njit(nogil=True)
def key3(seed, game, stream):
    """The hash of (seed, game, stream), as rng.key: extend it with `add` for each address part."""
    h = mix(np.uint64(seed))
    h = mix(h ^ np.uint64(game))
    return mix(h ^ np.uint64(stream))


@njit(nogil=True)
def below(h, n):
    """An integer uniform in [0, n) from hash h (n >= 1), as rng.below."""
    return np.int64(((np.uint64(h) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
