"""Evolversi's script bots with a fallback (`script:then=greedy|random`, the rollout bot's
forcing bot): both engine faces play the script, then the base bot, alike."""
import numpy as np
import pytest

from simcore.errors import UserError
from simcore.games import get_game
from strategies.registry import Bot, make_bots
from tests.games.kit import outcome_row

G = get_game("evolversi")
RS = G.data.load()


def _forcing(base, choices=()):
    return Bot("evolversi", f"script:then={base}", (("choices", tuple(choices)), ("then", base)), "script")


@pytest.mark.parametrize("base", ["greedy", "random"])
def test_empty_script_then_base_plays_as_the_base(base):
    plain = G.play_batch(RS, 4, make_bots("evolversi", base, 4), 3, np.arange(30))
    forced = G.play_batch(RS, 4, [_forcing(base)] + list(make_bots("evolversi", base, 3)), 3, np.arange(30))
    assert all(outcome_row(plain, k) == outcome_row(forced, k) for k in range(30))


@pytest.mark.parametrize("base", ["greedy", "random"])
def test_script_then_base_engines_agree_and_the_script_changes_the_game(base):
    """Every game of the batch replays its own copy of the choices (here the seat's first
    decision, its round-1 PLACE), then plays as the base."""
    choices = ({"kind": "PLACE", "option": 4},)
    bots = [_forcing(base, choices)] + list(make_bots("evolversi", base, 3))
    batch = G.play_batch(RS, 4, bots, 3, np.arange(12))
    for k in range(12):
        assert outcome_row(G.play_one(RS, 4, bots, 3, k)) == outcome_row(batch, k)
    plain = G.play_batch(RS, 4, make_bots("evolversi", base, 4), 3, np.arange(12))
    assert sum(outcome_row(plain, k) != outcome_row(batch, k) for k in range(12)) >= 3


def test_script_falls_back_only_to_known_bots():
    with pytest.raises(UserError, match="falls back to one of greedy, random"):
        make_bots("evolversi", "script:then=rollout", 4)[0].batch_policy(RS)
