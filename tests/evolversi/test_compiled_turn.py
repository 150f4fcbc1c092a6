"""Phase 3 compiled whole (simcore/games/evolversi/turn.py) plays the same games as the
numpy phase 3 it replaces for the bots with a compiled form (random, greedy): every
outcome array equal, game by game, in the default game and with Advanced Genetics'
reactions."""
from __future__ import annotations

import numpy as np
import pytest
from evolversi_kit import batch_policies

from simcore.games.evolversi import rules
from simcore.games.evolversi.schema import GAME_DATA

LINEUPS = [(["greedy"] * 4, 4), (["random"] * 3, 3), (["greedy", "random"], 2),
           (["random", "greedy", "random", "greedy", "random"], 5)]


def _play(rs, names, players, seed, games, compiled):
    """The batch played with phase 3 compiled (asserting it was) or forced to numpy."""
    policies = batch_policies(rs, names, players)
    real = rules.compiled_turn
    used = []

    def recorded(run, bots):
        used.append(real(run, bots) if compiled else None)
        return used[-1]
    rules.compiled_turn = recorded
    try:
        out = rules.play_batch(rs, players, policies, seed, games)
    finally:
        rules.compiled_turn = real
    assert used and all((u is not None) is compiled for u in used), "the compiled phase 3 did not play"
    return out


@pytest.mark.parametrize("variant", ["default", "advanced-genetics"])
@pytest.mark.parametrize("names,players", LINEUPS)
def test_compiled_phase_3_plays_the_numpy_games(variant, names, players):
    rs = GAME_DATA.load(variant)
    games = np.arange(300, dtype=np.int64)
    want = _play(rs, names, players, 11, games, compiled=False)
    got = _play(rs, names, players, 11, games, compiled=True)
    assert want.keys() == got.keys()
    for k in want:
        assert np.array_equal(want[k], got[k]), k


def test_a_bot_without_a_compiled_form_plays_the_numpy_phase_3():
    rs = GAME_DATA.load()
    from simcore.games.evolversi.run import Run
    from simcore.games.evolversi.state import empty_state, tables_for
    tb = tables_for(rs, 4)
    for names, compiled in ((["greedy"] * 4, True), (["greedy", "greedy+favor:Rapina", "random", "greedy"], False)):
        policies = batch_policies(rs, names, 4)
        run = Run(rs, tb, empty_state(rs, tb, np.arange(2)), policies, 0)
        assert (rules.compiled_turn(run, policies) is not None) is compiled
