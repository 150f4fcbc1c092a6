"""The sequential test's invariants (hypothesis) and its error rates on planted truths (fast version)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from reports.measures import sequential as S

DESIGN = S.Design()
means = st.floats(-0.2, 0.2)
variances = st.floats(0.01, 0.5)
counts = st.integers(S.MIN_GAMES, 200_000)


@given(counts, means, variances)
def test_a_mirrored_mean_gives_the_mirrored_decision(n, m, v):
    up, _, _ = S.decide(n, m, v, DESIGN)
    down, _, _ = S.decide(n, -m, v, DESIGN)
    mirror = {S.EFFECT_UP: S.EFFECT_DOWN, S.EFFECT_DOWN: S.EFFECT_UP, S.NO_EFFECT: S.NO_EFFECT, S.OPEN: S.OPEN}
    assert mirror[up.item()] == down.item()


@given(counts, st.floats(0.0, 0.2), st.floats(0.0, 0.2), variances)
def test_the_up_side_llr_grows_with_the_mean(n, a, b, v):
    lo, hi = sorted((a, b))
    assert S.side_llrs(n, lo, v, DESIGN)[0] <= S.side_llrs(n, hi, v, DESIGN)[0]


@given(counts, st.floats(0.0, 0.2), variances)
def test_a_mean_past_the_effect_bound_is_never_called_no_effect(n, excess, v):
    dec, _, _ = S.decide(n, DESIGN.d1 + (DESIGN.d1 - DESIGN.d0) / 2 + excess, v, DESIGN)
    assert dec.item() != S.NO_EFFECT


@given(st.integers(2, S.MIN_GAMES - 1), means, variances)
def test_no_decision_before_the_minimum_games(n, m, v):
    assert S.decide(n, m, v, DESIGN)[0].item() == S.OPEN


@given(st.lists(st.lists(st.sampled_from([-1.0, -0.5, 0.0, 0.5, 1.0]), min_size=1, max_size=40), min_size=1,
                max_size=6))
def test_chunked_tallies_equal_one_tally_of_every_game(chunks):
    t = S.Tally()
    for c in chunks:
        t = t.add(c)
    flat = np.concatenate([np.asarray(c) for c in chunks])
    assert t.n == flat.size and t.mean == pytest.approx(flat.mean())
    if flat.size > 1:
        assert t.var == pytest.approx(flat.var(ddof=1), abs=1e-12)


@given(st.integers(10, 10**6), means, variances, st.floats(100, 10**5))
def test_the_confidence_sequence_holds_the_mean_and_is_wider_than_a_fixed_interval(n, m, v, t_opt):
    lo, hi = S.confidence_sequence(n, m, v, 0.05, t_opt)
    fixed_half = 1.959963984540054 * math.sqrt(v / n)
    assert lo < m < hi
    assert hi - m > fixed_half


@given(st.floats(0.01, 0.5), st.integers(100, 10**5))
def test_the_confidence_sequence_narrows_with_more_games(v, n):
    lo1, hi1 = S.confidence_sequence(n, 0.0, v)
    lo2, hi2 = S.confidence_sequence(4 * n, 0.0, v)
    assert hi2 - lo2 < hi1 - lo1


@settings(max_examples=30)
@given(st.floats(0.1, 0.6), st.floats(-0.1, 0.1), st.floats(0.0, 0.8))
def test_planted_paired_laws_have_the_planted_mean(base, effect, corr):
    try:
        up, down = S.paired_outcomes(base, effect, corr)
    except ValueError:
        return
    assert up - down == pytest.approx(effect)


def test_a_design_with_crossed_bounds_says_what_is_wrong():
    assert S.Design(d0=0.02, d1=0.01).problems() == ["needs 0 <= d0 < d1 <= 1, got d0 = 0.02, d1 = 0.01"]
    assert S.Design().problems() == []


def test_the_confidence_sequence_covers_the_truth_at_every_look():
    """Under optional stopping: the share of runs whose sequence ever misses the mean stays <= alpha."""
    rng = np.random.default_rng(3)
    reps, looks, chunk, mu = 400, 40, 250, 0.01
    up, down = S.paired_outcomes(0.3, mu, 0.4)
    counts = rng.multinomial(chunk, [up, down, 1 - up - down], size=(reps, looks))
    total = np.cumsum(counts[..., 0] - counts[..., 1], axis=1)
    squares = np.cumsum(counts[..., 0] + counts[..., 1], axis=1)
    n = chunk * np.arange(1, looks + 1)
    var = (squares - total ** 2 / n) / (n - 1)
    lo, hi = S.confidence_sequence(n, total / n, var, 0.05, 5000)
    ever_missed = ((lo > mu) | (hi < mu)).any(axis=1).mean()
    fixed_lo, fixed_hi = total / n - 1.96 * np.sqrt(var / n), total / n + 1.96 * np.sqrt(var / n)
    fixed_missed = ((fixed_lo > mu) | (fixed_hi < mu)).any(axis=1).mean()
    assert ever_missed <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / reps)
    assert fixed_missed > ever_missed   # what the sequence protects against: repeated fixed-n looks


@pytest.mark.parametrize("effect", [0.0, S.INDIFFERENCE, S.EFFECT, -S.EFFECT, 0.05])
def test_wrong_decisions_stay_near_alpha_and_beta_on_planted_truths(effect):
    """Fast version (200 runs each, a loose bound); the slow test runs 2,000 with a tight one."""
    r = S.simulate(effect, DESIGN, reps=200, seed=11)
    bound = DESIGN.alpha if abs(effect) <= DESIGN.d0 else DESIGN.beta
    assert S.wrong_rate(r, DESIGN) <= 2 * bound + 3 * math.sqrt(bound * (1 - bound) / 200)
    assert r[S.OPEN] == 0.0


def test_the_scheduler_stops_each_check_when_decided_and_keeps_a_shared_budget():
    rng = np.random.default_rng(5)
    truths = {"none": 0.0, "big": 0.08, "edge": 0.02}
    laws = {k: S.paired_outcomes(0.25, e, 0.5) for k, e in truths.items()}
    played = []

    def play(names, start, stop):
        played.append((tuple(names), stop - start))
        return {k: rng.choice([1.0, -1.0, 0.0], size=stop - start, p=[*laws[k], 1 - sum(laws[k])]) for k in names}
    checks = {c.name: c for c in S.run_until_decided(truths, play, DESIGN)}
    assert checks["big"].decision == S.EFFECT_UP and checks["none"].decision == S.NO_EFFECT
    assert checks["big"].decided_at < checks["none"].decided_at
    assert sum(k for names, k in played if "big" in names) == checks["big"].decided_at
    spent = []
    S.run_until_decided(truths, lambda names, a, b: spent.append(len(names) * (b - a)) or play(names, a, b),
                        DESIGN, budget=4000)
    assert sum(spent) <= 4000


@given(st.lists(st.tuples(st.sampled_from([-2.0, -1.0, 0.0, 1.0, 2.0]), st.integers(0, 3)), min_size=3, max_size=60))
def test_a_ratio_tally_matches_the_delta_method_of_the_holders_effect(rows):
    num = np.array([min(max(a, -b), b) for a, b in rows])
    den = np.array([b for _, b in rows], float)
    t = S.Tally().add(num, den)
    if den.sum() == 0:
        assert math.isnan(t.mean)
        return
    r = num.sum() / den.sum()
    n = len(rows)
    assert t.mean == pytest.approx(r)
    se2 = ((num - r * den) ** 2).sum() * n / (n - 1) / den.sum() ** 2     # reports.measures.metrics.ratio_interval's
    assert t.var / n == pytest.approx(se2, abs=1e-12)


def test_a_ratio_tally_with_unit_weights_is_the_plain_tally():
    d = np.array([1.0, 0.0, -1.0, 0.5, 1.0])
    a, b = S.Tally().add(d), S.Tally().add(d, np.ones(5))
    assert (a.mean, a.var) == pytest.approx((b.mean, b.var))


def test_a_knockout_nobody_held_stops_with_nothing_to_compare():
    c = S.Check("never bought")
    c.look((np.zeros(300), np.zeros(300)), DESIGN)
    assert c.is_open                                   # too early to say
    c.look((np.zeros(300), np.zeros(300)), DESIGN)
    assert c.decision == S.NOTHING and c.decided_at == 600
