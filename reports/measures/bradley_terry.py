"""Bradley-Terry ratings from multi-seat matches, with 95% intervals.

A match puts `n_a` seats of bot A against `n_b` seats of bot B (the ladder's tables: one
bot alone against a field of the other). Under the Bradley-Terry / Luce choice model each
seat wins with probability proportional to exp(rating), so the A side wins with

    P(A side wins) = n_a e^θa / (n_a e^θa + n_b e^θb) = logistic(θa - θb + log(n_a / n_b)),

a logistic regression with an offset: statsmodels' binomial GLM fits it. Shared wins count
as shares (y in [0, 1]); games nobody won carry no information and are left out.

Ratings are centred (mean 0): only differences are identified. Intervals are percentile
intervals of a bootstrap over game indices: every match of one game index is resampled
together, because the ladder plays every rotation on the same game indices (common random
numbers), so the rotations of one index are not independent draws.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl

PSEUDO = 0.5            # half a win and half a loss per match kind: finite ratings when one side always wins
BOOTSTRAP = 400


def _design(a: np.ndarray, b: np.ndarray, k: int) -> np.ndarray:
    """(rows, k-1): +1 for side A's bot, -1 for side B's; bot 0 is the anchor (rating 0)."""
    x = np.zeros((len(a), k))
    x[np.arange(len(a)), a] += 1.0
    x[np.arange(len(a)), b] -= 1.0
    return x[:, 1:]


def _fit(a, b, offset, wins, trials, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Maximum likelihood ratings (anchored at bot 0) and their Fisher covariance (k x k)."""
    import statsmodels.api as sm  # start-up: statsmodels (seconds), only when ratings are fitted
    y = (wins + PSEUDO) / (trials + 2 * PSEUDO)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sm.GLM(y, _design(a, b, k), family=sm.families.Binomial(), offset=offset,
                     var_weights=trials + 2 * PSEUDO).fit()
    theta = np.concatenate([[0.0], np.asarray(res.params)])
    cov = np.zeros((k, k))
    cov[1:, 1:] = np.asarray(res.cov_params())
    return theta, cov


def _newton(a, b, offset, wins, trials, k: int, start: np.ndarray, steps: int = 25) -> np.ndarray:
    """The same fit for R bootstrap replicates at once (wins, trials: (R, kinds)), Newton's method
    from the full-sample ratings; returns (R, k) ratings anchored at bot 0."""
    x = _design(a, b, k)                                                     # (kinds, k-1)
    s, n = wins + PSEUDO, trials + 2 * PSEUDO
    beta = np.tile(start[1:], (len(s), 1))                                   # (R, k-1)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(beta @ x.T + offset)))
        grad = (s - n * p) @ x
        hess = np.einsum("rc,ci,cj->rij", n * p * (1 - p), x, x)
        step = np.linalg.solve(hess, grad[..., None])[..., 0]
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    return np.column_stack([np.zeros(len(s)), beta])


def _centre(theta: np.ndarray, cov: np.ndarray | None = None):
    k = len(theta)
    c = np.eye(k) - 1.0 / k
    return (c @ theta, None) if cov is None else (c @ theta, c @ cov @ c.T)


def fit_ratings(matches: pl.DataFrame, bots: list[str] | None = None, bootstrap: int = BOOTSTRAP,
                seed: int = 0) -> pl.DataFrame:
    """One row per bot: rating (centred log-strength), Fisher se, bootstrap 95% interval.

    `matches`: one row per game of one table: a, b (bot names), n_a, n_b (their seats),
    game (the game index; rows of one index are resampled together), y (side A's win share
    of the game's wins, in [0, 1]; null when nobody won).
    """
    m = matches.filter(pl.col("y").is_not_null())
    bots = list(bots) if bots is not None else sorted(set(m["a"].to_list()) | set(m["b"].to_list()))
    k = len(bots)
    if k < 2:
        raise ValueError("a ladder needs at least two bots")
    ix = {name: i for i, name in enumerate(bots)}
    a = np.array([ix[v] for v in m["a"].to_list()], dtype=np.int64)
    b = np.array([ix[v] for v in m["b"].to_list()], dtype=np.int64)
    n_a, n_b = m["n_a"].to_numpy().astype(float), m["n_b"].to_numpy().astype(float)
    y = m["y"].to_numpy().astype(float)
    game = m["game"].to_numpy().astype(np.int64)
    # Aggregate to one row per kind of match (a, b, n_a, n_b): the fit is the same, far smaller.
    kinds, kind = np.unique(np.column_stack([a, b, n_a, n_b]), axis=0, return_inverse=True)
    kind = kind.ravel()
    ka, kb = kinds[:, 0].astype(np.int64), kinds[:, 1].astype(np.int64)
    offset = np.log(kinds[:, 2] / kinds[:, 3])

    def fit_weighted(w):
        wins = np.bincount(kind, weights=w * y, minlength=len(kinds))
        trials = np.bincount(kind, weights=w, minlength=len(kinds))
        return _fit(ka, kb, offset, wins, trials, k)

    theta, cov = _centre(*fit_weighted(np.ones_like(y)))
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    games, gpos = np.unique(game, return_inverse=True)
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(len(games), np.full(len(games), 1.0 / len(games)), size=bootstrap)
    w = counts[:, gpos].astype(float)                                        # (R, rows)
    wins = np.stack([np.bincount(kind, weights=wr * y, minlength=len(kinds)) for wr in w]) if bootstrap else None
    trials = np.stack([np.bincount(kind, weights=wr, minlength=len(kinds)) for wr in w]) if bootstrap else None
    draws = (_newton(ka, kb, offset, wins, trials, k, theta - theta[0]) if bootstrap
             else np.empty((0, k)))
    draws = draws - draws.mean(axis=1, keepdims=True)
    lo, hi = (np.percentile(draws, [2.5, 97.5], axis=0) if bootstrap > 0
              else (theta - 1.959964 * se, theta + 1.959964 * se))
    played = np.bincount(np.concatenate([a, b]), minlength=k)
    return pl.DataFrame({
        "bot": bots, "rating": theta, "se": se, "ci_low": lo, "ci_high": hi,
        "elo": theta * 400 / math.log(10), "games": played.astype(np.int64),
    }).sort("rating", descending=True).with_row_index("rank", offset=1)


def separated(ratings: pl.DataFrame, lower: str, upper: str) -> bool:
    """True when `upper`'s interval lies wholly above `lower`'s."""
    r = {row["bot"]: row for row in ratings.iter_rows(named=True)}
    return r[upper]["ci_low"] > r[lower]["ci_high"]
