"""Interval statistics used by every metric. 95% by default."""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

Z95 = 1.959963984540054


def wilson(successes, n, z: float = Z95):
    """Wilson score interval for a binomial proportion; vectorised. Returns (p, lo, hi).

    `successes` may be fractional (shared wins count as shares); n = 0 gives nan.
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = s / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the interval holds p; min/max only undo rounding (0 wins of 3 gave lo = 5.6e-17 > p)
    return p, np.minimum(np.clip(centre - half, 0, 1), p), np.maximum(np.clip(centre + half, 0, 1), p)


def mean_interval(values, z: float = Z95):
    """Mean with a normal-approximation interval (for paired differences, lengths)."""
    v = np.asarray(values, dtype=float)
    n = v.size
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(v.mean())
    if n < 2:
        return m, math.nan, math.nan
    se = float(v.std(ddof=1)) / math.sqrt(n)
    return m, m - z * se, m + z * se


def z_for_family(k: int, alpha: float = 0.05) -> float:
    """Two-sided z for a Bonferroni-controlled family of k comparisons."""
    k = max(int(k), 1)
    return NormalDist().inv_cdf(1 - alpha / (2 * k))
