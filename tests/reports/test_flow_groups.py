"""Seat and faction versions of the flow metrics (reports/measures/flow_groups.py): hand-worked cases
(docs/metrics.md, "Per seat and per faction"), the pooling invariants, and a planted seat effect."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reports.measures import flow, flow_groups


def games(*cases):
    """Games of equal length and player count: each case (seat standings per round..., winners)."""
    standing = np.array([np.array(seats, float).T for seats, _ in cases])     # (G, R, P)
    winner = np.zeros(standing.shape[::2], bool)
    for g, (_, w) in enumerate(cases):
        winner[g, list(w)] = True
    return standing, np.full(len(cases), standing.shape[1]), winner


# Three two-seat games of four rounds (halfway round 2), the docs' worked example:
#   game 1: A leads throughout and wins                      A 1,2,3,4  B 0,1,2,3
#   game 2: A leads at halfway, B comes back from last, wins A 2,3,4,5  B 1,2,6,7
#   game 3: B leads at halfway and wins                      A 0,1,2,3  B 1,2,3,4
WORKED = games(([[1, 2, 3, 4], [0, 1, 2, 3]], [0]),
               ([[2, 3, 4, 5], [1, 2, 6, 7]], [1]),
               ([[0, 1, 2, 3], [1, 2, 3, 4]], [1]))


def row(t, group):
    return t.filter(t["group"] == str(group)).row(0, named=True)


def test_the_seat_table_of_the_worked_example():
    t = flow_groups.table(*WORKED, flow_groups.seat_groups(3, 2))
    a, b = row(t, 0), row(t, 1)
    assert (a["seat_games"], a["leads"], a["wins"]) == (3, 2, 1.0)
    assert a["runaway"] == pytest.approx(1 / 3) and a["leader_wins"] == pytest.approx(1 / 2)
    assert b["runaway"] == pytest.approx(1 / 3) and b["leader_wins"] == pytest.approx(1.0)
    assert a["comeback"] == 0 and b["comeback"] == pytest.approx(1 / 3)
    # decisiveness of the games each seat won: A's game 1 (1/4), B's games 2 (3/4) and 3 (1/4)
    assert a["decisiveness"] == pytest.approx(1 / 4) and b["decisiveness"] == pytest.approx(1 / 2)
    # drama: B was 1 behind in game 2 (rounds 1, 2), never in game 3
    assert a["drama"] == 0 and b["drama"] == pytest.approx(1 / 2)
    assert a["runaway_lo"] <= a["runaway"] <= a["runaway_hi"]


def test_a_faction_table_groups_seats_by_what_they_play():
    # the same games with the animals swapped in game 3: "fox" is A, B, B; "owl" is B, A, A
    group = np.array([["fox", "owl"], ["fox", "owl"], ["owl", "fox"]])
    t = flow_groups.table(*WORKED, group)
    fox, owl = row(t, "fox"), row(t, "owl")
    assert fox["wins"] == 2 and owl["wins"] == 1          # winners: game 1 fox (seat 0), 2 owl, 3 fox (seat 1)
    # halfway leaders: game 1 seat 0 (fox, won), game 2 seat 0 (fox, lost), game 3 seat 1 (fox, won)
    assert fox["leads"] == 3 and fox["runaway"] == pytest.approx(2 / 3) and owl["runaway"] == 0
    assert owl["comeback"] == pytest.approx(1 / 3)


def test_a_shared_win_gives_each_winner_its_share_of_the_runaway():
    # seat 0 alone on top at halfway, seats 0 and 1 share the win
    standing, rounds, winner = games(([[2, 3], [1, 3], [0, 0]], [0, 1]))
    t = flow_groups.table(standing, rounds, winner, flow_groups.seat_groups(1, 3))
    assert row(t, 0)["runaway"] == pytest.approx(0.5) and row(t, 1)["runaway"] == 0


def test_a_planted_seat_edge_is_flagged_and_an_even_game_is_not():
    rng = np.random.default_rng(3)
    G, R, P = 3000, 6, 4

    def play(edge):
        steps = rng.integers(0, 4, size=(G, R, P)).astype(float)
        steps[:, :, 0] += edge                         # seat 0 gains `edge` more every round
        standing = steps.cumsum(axis=1)
        final = standing[:, -1] + rng.random((G, P))   # ties broken at random
        return standing, np.full(G, R), final == final.max(axis=1, keepdims=True)

    planted = flow_groups.table(*play(0.6), flow_groups.seat_groups(G, P))
    assert row(planted, 0)["runaway_flag"] and row(planted, 0)["runaway_diff_lo"] > 0
    assert (planted["runaway_diff"].to_numpy()[1:] < 0).all()
    even = flow_groups.table(*play(0.0), flow_groups.seat_groups(G, P))
    assert not even["runaway_flag"].any()
    assert (even["runaway_diff_lo"] < 0).all() and (even["runaway_diff_hi"] > 0).all()


cases = st.integers(1, 6).flatmap(lambda R: st.integers(2, 4).flatmap(lambda P: st.tuples(
    st.just(R), st.just(P), st.lists(st.tuples(
        st.lists(st.lists(st.integers(0, 3), min_size=P, max_size=P), min_size=R, max_size=R),
        st.lists(st.booleans(), min_size=P, max_size=P), st.integers(1, R),
        st.lists(st.sampled_from("abc"), min_size=P, max_size=P)), min_size=1, max_size=8))))


@settings(max_examples=200, deadline=None)
@given(cases)
def test_group_versions_pooled_with_their_shares_give_the_overall_metric(case):
    R, P, gs = case
    standing = np.array([np.cumsum(np.array(s, float), axis=0) for s, _, _, _ in gs])
    winner = np.array([w for _, w, _, _ in gs])
    rounds = np.array([r for _, _, r, _ in gs])
    G = len(gs)
    whole = flow_groups.pooled(standing, rounds, winner)
    for group in (flow_groups.seat_groups(G, P), np.array([f for _, _, _, f in gs])):
        t = flow_groups.table(standing, rounds, winner, group)
        n = t["seat_games"].to_numpy()
        assert n.sum() == G * P
        assert (t["runaway"].to_numpy() * n).sum() == pytest.approx(whole["runaway"].sum())
        assert (t["comeback"].to_numpy() * n).sum() == pytest.approx(flow.comeback(standing, rounds, winner).sum())
        assert (t["win_rate"].to_numpy() * n).sum() == pytest.approx(winner.any(axis=1).sum())
        w = t["wins"].to_numpy()
        decided = ~np.isnan(whole["decisiveness"])
        for name in ("decisiveness", "drama"):
            has = w > 0
            pooled = (np.nan_to_num(t[name].to_numpy()) * w)[has].sum()
            # every game with a winner counts once: its win shares sum to 1
            assert pooled == pytest.approx(whole[name][decided].sum())
