"""Game-flow metrics (reports/measures/flow.py) on small hand-worked trajectories, and their invariants.

Each case is worked in docs/metrics.md; standings are after rounds 1..R, one list per seat.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reports.measures import flow


def one(*seats, winner, rounds=None):
    """A single game: seats' standings per round -> (standing (1, R, P), rounds (1,), winner (1, P))."""
    standing = np.array(seats, dtype=float).T[None]          # (1, R, P)
    w = np.zeros((1, len(seats)), bool)
    w[0, list(winner)] = True
    r = np.array([rounds or standing.shape[1]])
    return standing, r, w


def metrics(*seats, winner, rounds=None):
    return flow.per_game(*one(*seats, winner=winner, rounds=rounds)).row(0, named=True)


def test_a_game_led_throughout_has_no_lead_change_and_is_decided_at_once():
    m = metrics([1, 2, 3], [0, 1, 2], winner=[0])
    assert m["lead_changes"] == 0
    assert m["decisiveness"] == pytest.approx(1 / 3)
    assert m["drama"] == 0 and not m["comeback"] and not m["late_swap"]


def test_a_last_round_swap_is_one_lead_change_decided_at_the_end():
    m = metrics([2, 3, 4], [1, 2, 5], winner=[1])
    assert m["lead_changes"] == 1
    assert m["decisiveness"] == 1.0
    assert m["drama"] == 1
    assert m["late_swap"]
    assert m["comeback"]                 # last (alone) after the halfway round 2, and won


def test_a_comeback_from_last_with_three_players():
    m = metrics([3, 4, 5, 6], [2, 3, 4, 5], [1, 2, 6, 8], winner=[2])
    assert m["comeback"] and m["lead_changes"] == 1
    assert m["decisiveness"] == pytest.approx(3 / 4)
    assert m["drama"] == 2 and not m["late_swap"]


def test_a_tie_at_the_top_neither_takes_nor_changes_the_lead():
    standing, rounds, _ = one([1, 2, 2, 3], [1, 1, 2, 1], winner=[0])
    assert flow.lead_holder(standing, rounds).tolist() == [[flow.NO_LEADER, 0, 0, 0]]
    assert flow.lead_changes(standing, rounds).tolist() == [0]


def test_rounds_after_a_game_ended_are_ignored():
    a = metrics([1, 3, 0, 0], [2, 1, 99, 99], winner=[0], rounds=2)
    b = metrics([1, 3], [2, 1], winner=[0])
    assert a == {**b, "rounds": 2}


def test_the_runaway_curve_counts_sole_leaders_and_their_win_shares():
    # game 1: seat 0 leads both rounds and wins; game 2: seat 0 leads round 1, seat 1 round 2, seat 1 wins
    standing = np.array([[[2, 1], [3, 1]], [[2, 1], [2, 3]]], float)
    curve = flow.runaway_curve(standing, np.array([2, 2]), np.array([[1, 0], [0, 1]], bool))
    assert curve["games"].to_list() == [2, 2]
    assert curve["p_win"].to_list() == [0.5, 1.0]
    assert curve["fair_share"].to_list() == [0.5, 0.5]


def test_a_shared_win_gives_the_leader_its_share():
    standing = np.array([[[2, 1, 0]]], float)
    leads, won = flow.leader_wins(standing, np.array([1]), np.array([[1, 1, 0]], bool))
    assert leads.tolist() == [[True]] and won.tolist() == [[0.5]]


def test_summary_gives_each_metric_an_interval_around_its_estimate():
    rng = np.random.default_rng(0)
    standing = rng.integers(0, 10, size=(400, 6, 3)).cumsum(axis=1).astype(float)
    final = standing[:, -1]
    winner = final == final.max(axis=1, keepdims=True)
    s = flow.summary(standing, np.full(400, 6), winner)
    assert set(s["metric"]) == {"lead_changes", "decisiveness", "drama", "comeback", "late_swap"}
    assert (s["lo"] <= s["value"]).all() and (s["value"] <= s["hi"]).all()


games = st.integers(1, 6).flatmap(lambda R: st.integers(2, 4).flatmap(lambda P: st.tuples(
    st.just(R), st.just(P),
    st.lists(st.lists(st.integers(0, 5), min_size=P, max_size=P), min_size=R, max_size=R))))


@settings(max_examples=300, deadline=None)
@given(games)
def test_decisiveness_is_a_share_of_the_game_and_lead_changes_fit_in_it(case):
    R, P, rows = case
    standing = np.array(rows, float).cumsum(axis=0)[None]
    final = standing[0, -1]
    winner = (final == final.max())[None]
    rounds = np.array([R])
    d = flow.decisiveness(standing, rounds, winner)[0]
    assert 0 < d <= 1
    assert 0 <= flow.lead_changes(standing, rounds)[0] <= R - 1
    assert flow.drama(standing, rounds, winner)[0] >= 0


@settings(max_examples=200, deadline=None)
@given(games)
def test_one_seat_strictly_ahead_throughout_means_no_lead_change_and_no_drama(case):
    R, P, rows = case
    standing = np.array(rows, float).cumsum(axis=0)
    standing[:, 0] = standing.max(axis=1) + 1          # seat 0 strictly ahead every round
    standing = standing[None]
    winner = np.zeros((1, P), bool)
    winner[0, 0] = True
    rounds = np.array([R])
    assert flow.lead_changes(standing, rounds)[0] == 0
    assert flow.drama(standing, rounds, winner)[0] == 0
    assert flow.decisiveness(standing, rounds, winner)[0] == pytest.approx(1 / R)
    assert not flow.late_swap(standing, rounds, winner)[0]
