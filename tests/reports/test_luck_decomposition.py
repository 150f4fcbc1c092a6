"""Luck against skill (reports.measures.luck): the hand-worked table of docs/metrics.md, and planted truths.

A planted table is y = bot effect + deal effect + noise with chosen variances: the
decomposition must give back the planted shares within its 95% intervals.
"""
from __future__ import annotations

import numpy as np
import pytest

from reports.measures import luck as L


def planted_gaussian(rng, games=3000, seats=4, alpha=(0.3, -0.3), sd_deal=0.4, sd_noise=0.2):
    """y (G, S, 2) and the planted shares (bot, deal, rest)."""
    alpha = np.asarray(alpha)
    y = alpha[None, None, :] + rng.normal(0, sd_deal, (games, seats, 1)) + rng.normal(0, sd_noise, (games, seats, 2))
    parts = np.array([np.mean((alpha - alpha.mean()) ** 2), sd_deal ** 2, sd_noise ** 2])
    return y, parts / parts.sum()


def planted_wins(rng, games=3000, seats=4, alpha=(0.15, -0.15), deal=(-0.2, 0.2)):
    """0/1 outcomes: P(win) = 0.4 + alpha_bot + beta_deal, beta uniform over `deal`.
    Truth: bot part var(alpha), deal part var(beta), rest E[p(1-p)] (the coin of the win)."""
    alpha, deal = np.asarray(alpha), np.asarray(deal)
    p = 0.4 + alpha[None, None, :] + rng.choice(deal, (games, seats, 1))
    y = (rng.random((games, seats, 2)) < p).astype(float)
    p_all = 0.4 + alpha[None, :] + deal[:, None]               # every (deal level, bot) equally likely
    parts = np.array([np.mean((alpha - alpha.mean()) ** 2), np.var(deal), np.mean(p_all * (1 - p_all))])
    return y, parts / parts.sum()


def _inside(result, truth):
    return [result["shares"][c][1] <= t <= result["shares"][c][2] for c, t in zip(L.COMPONENTS, truth)]


def test_hand_worked_table_of_the_docs():
    # four deals, bot A then bot B: (1, 0), (1, 0), (1, 1), (0, 0)
    y = np.array([[1, 0], [1, 0], [1, 1], [0, 0]], float)[:, None, :]
    r = L.decompose(y, ["A", "B"], bootstrap=50)
    comp = {c: r["components"][c][0] for c in L.COMPONENTS}
    assert comp["bot"] == pytest.approx(1 / 24)
    assert comp["deal"] == pytest.approx(1 / 12)
    assert comp["rest"] == pytest.approx(1 / 6)
    assert [r["shares"][c][0] for c in L.COMPONENTS] == pytest.approx([1 / 7, 2 / 7, 4 / 7])
    assert r["difference"][0] == pytest.approx(0.5)


def test_planted_gaussian_shares_inside_their_intervals():
    y, truth = planted_gaussian(np.random.default_rng(3))
    r = L.decompose(y, ["strong", "weak"], bootstrap=400, seed=1)
    assert all(_inside(r, truth)), (r["shares"], truth)
    assert sum(r["shares"][c][0] for c in L.COMPONENTS) == pytest.approx(1.0)


def test_planted_win_outcomes_shares_inside_their_intervals():
    y, truth = planted_wins(np.random.default_rng(5))
    r = L.decompose(y, ["strong", "weak"], bootstrap=400, seed=2)
    assert all(_inside(r, truth)), (r["shares"], truth)
    assert r["difference"][1] < 0.3 < r["difference"][2]


def test_bot_that_changes_nothing_gets_no_skill_share():
    y, truth = planted_gaussian(np.random.default_rng(7), alpha=(0.0, 0.0))
    r = L.decompose(y, ["a", "b"], bootstrap=300)
    assert truth[0] == 0 and r["shares"]["bot"][1] == 0.0      # the interval reaches 0 (estimates clip at 0)
    assert r["shares"]["deal"][1] > 0.7


def test_outcome_fixed_by_the_bot_is_all_skill():
    y = np.broadcast_to(np.array([1.0, 0.0]), (500, 3, 2)).copy()
    r = L.decompose(y, ["a", "b"], bootstrap=100)
    assert r["shares"]["bot"][0] == pytest.approx(1.0)
    assert r["shares"]["deal"][0] == pytest.approx(0.0, abs=1e-12)


def test_deals_nobody_won_are_dropped_under_every_bot():
    y, _ = planted_gaussian(np.random.default_rng(9), games=200, seats=2)
    y[:10, 0, 1] = np.nan
    r = L.decompose(y, ["a", "b"], bootstrap=50)
    assert r["deals"] == 390 and r["dropped"] == 10
    kept = L.decompose(y[10:], ["a", "b"], bootstrap=50)
    assert not np.isnan(r["shares"]["bot"][0]) and kept["deals"] == 380


def test_same_seed_same_intervals():
    y, _ = planted_gaussian(np.random.default_rng(11), games=300)
    assert L.decompose(y, ["a", "b"], bootstrap=200, seed=4) == L.decompose(y, ["a", "b"], bootstrap=200, seed=4)


@pytest.mark.slow
def test_planted_shares_covered_in_most_replicates():
    """Coverage: over 20 replicates, each planted share inside its 95% interval at least 17 times."""
    rng = np.random.default_rng(2026)
    hits = np.zeros(3, int)
    for rep in range(20):
        y, truth = planted_wins(rng, games=1500)
        hits += _inside(L.decompose(y, ["a", "b"], bootstrap=400, seed=rep), truth)
    assert (hits >= 17).all(), hits
