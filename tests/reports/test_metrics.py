"""Metrics on hand-made frames: shared wins, mixed player counts, ranking by bound, ablations."""
from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from reports.measures import metrics as M


def games_frame(point: int, winners: list[list[float]], rounds: list[int], factions: list[list[str]],
                scores: list[list[int]] | None = None, stalled: list[bool] | None = None, **extra) -> pl.DataFrame:
    n, p = len(winners), len(winners[0])
    stalled = stalled or [False] * n
    scores = scores or [[0] * p for _ in range(n)]
    cols = {"point": [point] * n, "game": list(range(n)), "players": [p] * n, "rounds": rounds,
            "end_reason": ["stalled" if s else "track" for s in stalled]}
    for s in range(p):
        cols[f"s{s}_bot"] = ["greedy"] * n
        cols[f"s{s}_faction"] = [f[s] for f in factions]
        cols[f"s{s}_score"] = [sc[s] for sc in scores]
        cols[f"s{s}_win"] = [w[s] > 0 for w in winners]
        cols[f"s{s}_share"] = [float(w[s]) for w in winners]
    cols.update(extra)
    return pl.DataFrame(cols)


@pytest.fixture
def small():
    return games_frame(0, [[1, 0], [0.5, 0.5], [0, 1], [0, 0]], [5, 9, 12, 60],
                       [["Panda", "Orca"], ["Orca", "Panda"], ["Panda", "Orca"], ["Orca", "Panda"]],
                       scores=[[20, 17], [20, 20], [3, 20], [8, 9]], stalled=[False, False, False, True])


def test_shared_wins_count_as_shares(small):
    seats = M.seat_win_rates(small)
    assert seats["wins"].to_list() == [1.5, 1.5]
    assert seats["win_rate"].to_list() == [0.375, 0.375]
    assert seats["fair"].to_list() == [0.5, 0.5]
    fac = M.faction_win_rates(small)
    assert dict(zip(fac["faction"], fac["wins"])) == {"Orca": 1.5, "Panda": 1.5}
    assert (fac["ci_low"] <= fac["win_rate"]).all() and (fac["win_rate"] <= fac["ci_high"]).all()


def test_balance_length_stalls_and_margin(small):
    assert M.balance(small)["balance"][0] == pytest.approx(1.0)
    length = M.game_length(small, target=(8, 15)).row(0, named=True)
    assert length["mean_rounds"] == pytest.approx(21.5)
    assert length["in_target"] == pytest.approx(0.5)
    assert length["stall_rate"] == pytest.approx(0.25)
    assert length["completion_rate"] == pytest.approx(0.75)
    margin = M.score_margin(small).row(0, named=True)
    assert margin["mean_margin"] == pytest.approx((3 + 0 + 17 + 1) / 4)
    ends = M.end_reasons(small)
    assert dict(zip(ends["end_reason"], ends["count"])) == {"stalled": 1, "track": 3}


def test_points_with_different_player_counts():
    three = games_frame(0, [[1, 0, 0]] * 6, [10] * 6, [["A", "B", "C"]] * 6)
    two = games_frame(1, [[0, 1]] * 4, [8] * 4, [["A", "B"]] * 4)
    both = pl.concat([three, two], how="diagonal_relaxed")
    seats = M.seat_win_rates(both)
    assert seats.filter(pl.col("point") == 0)["games"].to_list() == [6, 6, 6]
    assert seats.filter(pl.col("point") == 1)["win_rate"].to_list() == [0.0, 1.0]
    assert M.balance(both).filter(pl.col("point") == 0)["best"][0] == "A"
    assert M.score_margin(both).height == 2


def test_entities_are_ranked_by_the_interval_bound_not_the_estimate():
    games = games_frame(0, [[1, 0, 0, 0]] * 1000, [10] * 1000, [["A", "B", "C", "D"]] * 1000)
    # seat-games: 4000, win shares 1000 (25%). "Sure": +10 pp over 1500 seat-games;
    # "Lucky": +45 pp over 8 seat-games (huge estimate, wide interval); "Dud": no effect.
    tallies = pl.DataFrame({
        "point": [0, 0, 0], "entity_kind": ["card"] * 3, "entity": ["Sure", "Lucky", "Dud"], "entity_id": [1, 2, 3],
        "seat": [0, 0, 0], "games": [1500, 8, 1000], "count": [1500, 8, 1000], "wins": [1500 * 0.31, 8 * 0.7, 250.0]})
    impact = M.entity_impact(tallies, games)
    assert impact["entity"].to_list() == ["Sure", "Lucky", "Dud"]
    sure, lucky, dud = impact.iter_rows(named=True)
    assert lucky["effect"] > sure["effect"]
    assert sure["flagged"] and sure["ci_low"] > 0 and not dud["flagged"]
    assert sure["family"] == 3
    wide = M.diff_interval(1500 * 0.31, 1500, 1000 - 1500 * 0.31, 2500)  # the 95% interval, uncorrected
    assert sure["ci_high"] - sure["ci_low"] > wide[2] - wide[1]          # Bonferroni widens it


def test_ablation_effect_is_paired_by_game():
    n = 400
    rng = np.random.default_rng(3)
    holds = rng.random(n) < 0.5
    base_share = np.where(holds, 1.0, 0.0)            # holder of card 7 always wins in the base games
    abl_share = np.where(holds, rng.random(n) < 0.5, 0.0).astype(float)   # without it: half the time
    other = 1 - base_share
    base = games_frame(0, [[a, b] for a, b in zip(base_share, other)], [10] * n, [["A", "B"]] * n,
                       s0_has_7=holds.tolist(), s1_has_7=[False] * n)
    abl = games_frame(1, [[a, 1 - a] for a in abl_share], [11] * n, [["A", "B"]] * n)
    points = [{"index": 0, "ablated": None, "base": None, "players": 2, "tracked": {"Card": [7]}},
              {"index": 1, "ablated": "Card", "base": 0, "players": 2}]
    res = M.ablation_effects(pl.concat([base, abl], how="diagonal_relaxed"), points).row(0, named=True)
    assert res["holders"] == holds.sum()
    assert res["effect"] == pytest.approx(1 - abl_share[holds].mean())
    assert res["ci_low"] > 0.3 and res["flagged"]
    assert res["rounds_delta"] == pytest.approx(1.0)


def test_paired_difference_between_points():
    a = games_frame(0, [[1, 0]] * 10, [10] * 10, [["A", "B"]] * 10)
    b = games_frame(1, [[0, 1]] * 5 + [[1, 0]] * 5, [12] * 10, [["A", "B"]] * 10)
    d = M.paired_difference(pl.concat([a, b]), 0, 1, "s0_share")
    assert d["difference"] == pytest.approx(-0.5) and d["games"] == 10
    assert not math.isnan(d["ci_low"])
