"""Helpers for the batch engine's tests: a game played turn by turn on the flat array."""
from __future__ import annotations

import numpy as np

from simcore.games.capybara import state as S
from simcore.games.capybara.rules import _pack
from simcore.games.capybara.schema import GAME_DATA
from strategies.registry import Bot


def ruleset(variant="default"):
    return GAME_DATA.load(variant)


def policies(rs, names):
    return [Bot("capybara", n).batch_policy(rs) for n in names]


def view(rk, g, field, shape):
    at = int(rk[field])
    return g[at:at + int(np.prod(shape))].reshape(shape)


def turns(rs, names, seed, game):
    """Yield (rk, g) after setup and after every turn of one game."""
    from simcore.games.capybara.turn import play_turn, setup
    rk, g, u, pol = _pack(rs, len(names), policies(rs, names), seed)
    setup(g, rk, u, pol, game)
    yield rk, g
    while not g[S.G_ENDED]:
        assert g[S.G_TURN] < rk[S.R_MAX_TURNS]
        play_turn(g, rk, u, pol)
        assert g[S.G_ERR] == 0
        yield rk, g
