"""Control variates: the part of the luck that a value fixed before the data explains, removed without bias.

A seat's result y in a game partly reflects what it was dealt (e.g. which animal it drew). With a
value v of each seat's deal fixed before the data (from a pilot run on another seed), the
control c = v(seat) - mean of v over the game's seats has mean zero whenever the deal is
exchangeable between seats (every seat draws from the same pool), whatever v is. So

    estimate = mean(y - b c)

is unbiased for every fixed coefficient b, and its variance is var(y - b c) / n instead of
var(y) / n. b is the pilot's slope cov(y, c) / var(c), also fixed before the data. The
variance reduction factor var(y) / var(y - b c) is how many times fewer games the same
precision needs; below MIN_FACTOR the control is not worth using (`use`).
"""
from __future__ import annotations

import math

import numpy as np

from .stats import Z95

MIN_FACTOR = 1.05      # a control is used when it saves at least 5% of the games


def seat_control(values) -> np.ndarray:
    """(games, seats) deal values -> controls with mean zero over each game's seats."""
    v = np.asarray(values, dtype=float)
    return v - v.mean(axis=1, keepdims=True)


def coefficient(y, c) -> float:
    """The pilot's slope of y on c (0 when c does not vary)."""
    y, c = np.asarray(y, float).ravel(), np.asarray(c, float).ravel()
    vc = c.var()
    return float(((c - c.mean()) * (y - y.mean())).mean() / vc) if vc > 0 else 0.0


def adjusted_mean(y, c, b: float, z: float = Z95) -> dict:
    """Mean of y with and without the control (b fixed before the data), intervals and the factor."""
    y, c = np.asarray(y, float).ravel(), np.asarray(c, float).ravel()
    n = y.size
    adj = y - b * c
    v_raw, v_adj = y.var(ddof=1), adj.var(ddof=1)
    factor = v_raw / v_adj if v_adj > 0 else math.inf
    out = {"n": n, "raw": float(y.mean()), "adjusted": float(adj.mean()),
           "raw_half": z * math.sqrt(v_raw / n), "adjusted_half": z * math.sqrt(v_adj / n),
           "factor": float(factor), "use": bool(factor >= MIN_FACTOR)}
    return out
