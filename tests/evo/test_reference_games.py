"""Whole games on the Evo reference engine: every player count and bot ends at the
meteorite, replays word for word, and continues from its JSON state as the same game."""
import json

import numpy as np
import pytest

from simcore.games.evo import reference
from simcore.games.evo.adapter import GAME
from strategies.registry import make_bots

from .reference_kit import play, policies, ruleset


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_game_ends_at_the_meteorite_after_9_to_11_rounds(players, bot):
    rs = ruleset()
    for k in range(3):
        log = []
        out = play(rs, players, bot, seed=3, game=k, log=log, trajectories=True)
        assert out["end_reason"] == 0 and 9 <= out["rounds"] <= 11
        assert log[-1 - players].startswith("The meteorite")
        assert all(x >= 0 for x in out["score"])
        assert len(out["standing"]) == 11 and out["standing"][out["rounds"] - 1] == out["score"]
        best = max(zip(out["score"], out["dinosaurs"]))
        assert out["winner"] == [(m, d) == best for m, d in zip(out["score"], out["dinosaurs"])]


def test_the_same_seed_replays_the_same_log():
    rs = ruleset()
    logs = [[], []]
    for log in logs:
        play(rs, 4, ["greedy", "random", "greedy", "random"], seed=7, game=2, log=log)
    assert logs[0] == logs[1] and len(logs[0]) > 50


def test_other_games_of_the_run_differ():
    rs = ruleset()
    outs = [play(rs, 3, "random", seed=1, game=k) for k in range(6)]
    assert len({json.dumps(o, sort_keys=True) for o in outs}) > 1


@pytest.mark.parametrize("until", ["phase", "round"])
def test_a_game_continued_from_json_states_is_the_same_game(until):
    rs = ruleset()
    for k, bot in [(0, "random"), (1, "greedy")]:
        whole = play(rs, 4, bot, seed=11, game=k)
        state = reference.new_state(rs, 4, policies(rs, 4, bot), 11, k)
        outcome = None
        while outcome is None:
            state = json.loads(json.dumps(state))
            state, outcome = reference.run_state(rs, state, policies(rs, 4, bot), 11, k, until)
        for key in ("score", "winner", "rounds", "dinosaurs", "sector"):
            assert outcome[key] == whole[key], key
        assert state["trajectory"] == [list(r) for r in play(rs, 4, bot, 11, k, trajectories=True)
                                       ["standing"][:whole["rounds"]]]


def test_the_adapter_plays_one_game_with_bot_objects():
    rs = ruleset()
    bots = make_bots("evo", "greedy,random", 2)
    out = GAME.play_one(rs, 2, bots, 5, 0, trajectories=True)
    assert out["acquired"].shape == (2, len(GAME.entities(rs)))
    assert out["standing"].shape == (11, 2)
    assert set(out["extra"]) >= {"sector", "attacks", "kills", "births", "climate_deaths", "events",
                                 "s0_dinosaurs", "s1_dinosaurs"}
    assert np.asarray(out["winner"]).dtype == bool
