"""The sensitivity table's entity-impact change has a paired interval.

The proof's rows carry each seat's per-game holding flags for every entity, so the largest
|holders' win rate - non-holders'| can be recomputed on any bootstrap resample of games, for
both sides with the same resample."""
import numpy as np
import polars as pl
import pytest

from experiments.lineup import run_spec
from experiments.sweep import play_chunk
from experiments.tune.proof import _per_game, _stats, paired_changes
from experiments.tune.targets import measure
from simcore.games import get_game


def _games(rs, n=1500, seed=3):
    spec = run_spec(rs, ["greedy"], 4, None, seed)
    ids = tuple(range(len(get_game("evolversi").entities(rs))))
    games, tallies = play_chunk(spec, 0, n, ids)
    return games, tallies, ids


def test_entity_impact_from_holding_flags_equals_the_target_measured_from_tallies():
    rs = get_game("evolversi").data.load()
    games, tallies, ids = _games(rs)
    from_flags = _stats(_per_game(games, ids), np.ones(games.height))["entity_impact"]
    from_tallies = measure(games, tallies, {"entity_impact": 10.0})["entity_impact"][0]
    assert from_flags == pytest.approx(from_tallies, rel=1e-9)


def test_a_planted_change_of_one_entitys_holders_is_inside_a_paired_interval_that_excludes_zero():
    # Base: seats holding entity 0 win 60% of their seat-games, others share the rest.
    # Other side: the same games, but in a planted 30% of the holders' games the holder loses
    # instead. The change of the entity's effect is known exactly from the two samples.
    rng = np.random.default_rng(7)
    n, seats = 4000, 2
    has0 = rng.random((n, seats)) < 0.3
    win = rng.integers(0, seats, n)
    share = np.eye(seats)[win]
    flip = (rng.random(n) < 0.3) & has0[np.arange(n), win]
    share_b = share.copy()
    share_b[flip] = np.eye(seats)[(win[flip] + 1) % seats]

    def frame(sh):
        cols = {"game": np.arange(n), "players": np.full(n, seats), "rounds": np.full(n, 10)}
        for s in range(seats):
            cols[f"s{s}_share"] = sh[:, s]
            cols[f"s{s}_faction"] = np.full(n, f"f{s}")
            cols[f"s{s}_has_0"] = has0[:, s]
        return pl.DataFrame(cols)

    a, b = frame(share), frame(share_b)
    change, lo, hi = paired_changes(a, b, {"entity_impact": 5.0}, seed=1, entities=(0,))["entity_impact"]
    exact = (_stats(_per_game(b, (0,)), np.ones(n))["entity_impact"]
             - _stats(_per_game(a, (0,)), np.ones(n))["entity_impact"])
    assert change == exact
    assert lo <= change <= hi
    assert hi < 0 or lo > 0, "the planted change is large: its paired interval excludes zero"
    # Pairing: the same frames on both sides give a zero change with a zero-width interval.
    same = paired_changes(a, a, {"entity_impact": 5.0}, seed=1, entities=(0,))["entity_impact"]
    assert same == (0.0, 0.0, 0.0)


def test_a_tune_run_reports_the_entity_impact_sensitivity_with_a_paired_interval(tmp_path, capsys):
    import json
    import math

    from .kit import BASE, ONE_VAR, SMALL, run, write
    cfg = write(tmp_path, BASE + ONE_VAR + "\n[targets]\nentity_impact = 40.0\n" + SMALL)
    code, _, err = run([cfg, "--out", tmp_path / "out", "--quiet"], capsys)
    assert code == 0, err
    doc = json.loads((tmp_path / "out" / "tune.json").read_text())
    rows = doc["proof"]["sensitivity"]
    assert rows, "one step up or down from the proposal is inside the bounds"
    for row in rows:
        change, lo, hi = row["change"]["entity_impact"]
        assert all(math.isfinite(x) for x in (change, lo, hi)) and lo <= change <= hi
