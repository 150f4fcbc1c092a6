"""Every game that records trajectories: turning them on changes no row, and both
engines record the same standing after every round of every game."""
import numpy as np
import pytest

from experiments.lineup import run_spec
from simcore.games import GAMES, get_game
from simcore.runner import run_chunk

from .kit import four_or_nearest, mixed_bots

RECORDING = [g for g in GAMES if get_game(g).standing_label is not None]


@pytest.mark.parametrize("game", RECORDING)
def test_turning_trajectories_on_adds_the_standing_columns_and_changes_nothing_else(game):
    rs = get_game(game).data.load()
    players = four_or_nearest(game)
    bots = ",".join(b.name for b in mixed_bots(game, players))
    on, _ = run_chunk(run_spec(rs, bots, players, None, 9, trajectories=True), 0, 200)
    off, _ = run_chunk(run_spec(rs, bots, players, None, 9), 0, 200)
    assert [c for c in on.columns if c not in off.columns] == [f"s{s}_standing" for s in range(players)]
    assert on.select(off.columns).equals(off)


@pytest.mark.parametrize("game", RECORDING)
def test_both_engines_record_the_same_standing_round_by_round(game):
    g = get_game(game)
    rs = g.data.load()
    players = four_or_nearest(game)
    bots = mixed_bots(game, players)
    out = g.play_batch(rs, players, bots, 21, np.arange(40), trajectories=True)
    for k in range(40):
        ref = g.play_one(rs, players, bots, 21, k, trajectories=True)
        r = int(np.asarray(out["rounds"])[k])
        assert r == int(ref["rounds"])
        assert (np.asarray(out["standing"])[k, :r] == np.asarray(ref["standing"])[:r]).all(), f"{game} game {k}"
