"""Error rates of the sequential check on planted truths: 2,000 runs per effect, three pairings.

A wrong decision is "effect" when |effect| <= d0 (bounded by alpha) and "no effect" or the
wrong sign when |effect| >= d1 (bounded by beta); each rate must stay within its bound plus
three Monte Carlo standard errors, and no run may end open at the cap.
"""
from __future__ import annotations

import math

import pytest

from reports.measures import sequential as S

pytestmark = pytest.mark.slow
REPS = 2000


@pytest.mark.parametrize("base, corr, changed", [(0.25, 0.5, None), (0.25, 0.8, None), (0.5, 0.0, None),
                                                 (None, None, 0.04), (None, None, 0.1)])
def test_wrong_decisions_within_alpha_and_beta_plus_monte_carlo_error(base, corr, changed):
    """Correlated wins, and sparse changes (a knockout that changes 4% or 10% of the games)."""
    design = S.Design()
    effects = [e for e in S.PLANTED if e != (S.INDIFFERENCE + S.EFFECT) / 2 and (changed is None or abs(e) <= changed)]
    for r in S.error_rates(design, effects, REPS, base, corr, seed=101, changed=changed):
        bound = design.alpha if abs(r["effect"]) <= design.d0 else design.beta
        assert r["wrong"] <= bound + 3 * math.sqrt(bound * (1 - bound) / REPS), r
        assert r[S.OPEN] == 0.0, r


def test_stricter_rates_are_kept_too():
    design = S.Design(alpha=0.01, beta=0.1)
    for r in S.error_rates(design, (S.INDIFFERENCE, S.EFFECT), REPS, seed=202):
        bound = design.alpha if abs(r["effect"]) <= design.d0 else design.beta
        assert r["wrong"] <= bound + 3 * math.sqrt(bound * (1 - bound) / REPS), r


def test_a_clear_effect_or_none_is_decided_in_fewer_games_than_the_fixed_count():
    for r in S.error_rates(S.Design(), (0.0, 0.05), REPS, seed=303):
        assert r["mean_games"] < r["fixed_games"] / 1.5, r
