"""Control variates on a planted truth: unbiased whatever the coefficient, and narrower where the deal matters."""
from __future__ import annotations

import math

import numpy as np

from reports.measures.control import adjusted_mean, coefficient, seat_control

SEATS, GAMES, REPS = 4, 2000, 300
EDGE = np.array([0.06, 0.0, -0.02, -0.04])           # the planted seat effects
STRENGTH = np.array([0.3, 0.1, 0.0, -0.1, -0.1, -0.2])  # what each of 6 animals adds


def _games(rng, n):
    animals = np.stack([rng.permutation(6)[:SEATS] for _ in range(n)])   # drawn without replacement
    y = 0.25 + EDGE + STRENGTH[animals] + rng.normal(0, 0.15, (n, SEATS))
    return animals, y


def test_the_adjusted_seat_mean_is_unbiased_and_its_variance_smaller():
    rng = np.random.default_rng(8)
    pilot_animals, pilot_y = _games(rng, 1000)
    value = np.array([pilot_y[pilot_animals == a].mean() for a in range(6)])    # fixed before the data
    b = coefficient(pilot_y, seat_control(value[pilot_animals]))
    truth = 0.25 + EDGE + STRENGTH.mean()
    raw, adj, factors = [], [], []
    for _ in range(REPS):
        animals, y = _games(rng, GAMES)
        c = seat_control(value[animals])
        rows = [adjusted_mean(y[:, s], c[:, s], b) for s in range(SEATS)]
        raw.append([r["raw"] for r in rows])
        adj.append([r["adjusted"] for r in rows])
        factors.append(rows[0]["factor"])
    raw, adj = np.array(raw), np.array(adj)
    se = adj.std(axis=0) / math.sqrt(REPS)
    assert np.all(np.abs(adj.mean(axis=0) - truth) < 4 * se)        # unbiased
    assert np.all(np.abs(raw.mean(axis=0) - truth) < 4 * raw.std(axis=0) / math.sqrt(REPS))
    measured = raw.var(axis=0) / adj.var(axis=0)
    assert np.all(measured > 1.5) and abs(np.mean(factors) - measured.mean()) < 0.25 * measured.mean()


def test_a_wrong_value_keeps_the_estimate_unbiased_and_is_not_used():
    rng = np.random.default_rng(9)
    junk = rng.normal(0, 1, 6)                     # a value that knows nothing
    animals, y = _games(rng, 20_000)
    c = seat_control(junk[animals])
    r = adjusted_mean(y[:, 0], c[:, 0], b=0.05)
    assert abs(r["adjusted"] - r["raw"]) < 2 * r["raw_half"]
    assert not r["use"] and r["factor"] < 1
