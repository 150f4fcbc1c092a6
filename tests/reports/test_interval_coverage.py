"""Interval coverage: statistics tests of the interval code, on simulated data with known truth."""
from __future__ import annotations

import numpy as np

from reports.measures.metrics import diff_interval, ratio_interval
from reports.measures.stats import mean_interval, wilson

REPS = 4000


def test_wilson_covers_a_known_coin_rate_95_percent_of_the_time():
    rng = np.random.default_rng(20240917)
    for p, n in ((0.5, 100), (0.3, 400), (0.1, 1000), (0.25, 2000)):
        heads = rng.binomial(n, p, size=REPS)
        _, lo, hi = wilson(heads, np.full(REPS, n))
        coverage = np.mean((lo <= p) & (p <= hi))
        assert 0.93 <= coverage <= 0.97, (p, n, coverage)


def test_difference_of_two_rates_covers_the_true_gap():
    rng = np.random.default_rng(7)
    p1, p2, n1, n2 = 0.32, 0.25, 800, 2400
    s1, s2 = rng.binomial(n1, p1, REPS), rng.binomial(n2, p2, REPS)
    _, lo, hi = diff_interval(s1, n1, s2, n2)
    coverage = np.mean((lo <= p1 - p2) & (p1 - p2 <= hi))
    assert 0.93 <= coverage <= 0.97, coverage


def test_paired_mean_and_clustered_ratio_cover_the_truth():
    rng = np.random.default_rng(11)
    hits_mean = hits_ratio = 0
    for _ in range(1500):
        d = rng.normal(0.2, 1.0, size=300)
        _, lo, hi = mean_interval(d)
        hits_mean += lo <= 0.2 <= hi
        holders = rng.integers(0, 3, size=300)                  # 0-2 acquirers per game
        effect = rng.binomial(1, 0.6, size=(300, 2)) - rng.binomial(1, 0.4, size=(300, 2))
        num = np.where(np.arange(2) < holders[:, None], effect, 0).sum(axis=1)
        _, lo, hi = ratio_interval(num, holders)
        hits_ratio += lo <= 0.2 <= hi
    assert 0.93 <= hits_mean / 1500 <= 0.97
    assert 0.93 <= hits_ratio / 1500 <= 0.97


def test_wilson_interval_holds_its_own_estimate_even_with_no_wins():
    """Wilson's interval always contains p; float rounding put 0 wins of 3 at lo = 5.6e-17 > 0,
    and the report's error bars (rate - lo) then crashed matplotlib on a 3-game run."""
    n = np.repeat(np.arange(1, 60), np.arange(2, 61))
    s = np.concatenate([np.arange(k + 1) for k in range(1, 60)])
    p, lo, hi = wilson(s, n)
    assert ((lo <= p) & (p <= hi)).all()
    assert wilson(0, 3)[1] == 0.0 and wilson(3, 3)[2] == 1.0
