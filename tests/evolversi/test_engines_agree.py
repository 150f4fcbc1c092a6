"""Evolversi specifics of engine agreement (the outcome itself is checked for every game in tests/games)."""
import numpy as np
import pytest

from evolversi_kit import play_batch, play_one
from simcore.games.evolversi.schema import GAME_DATA

FIELDS = ("position", "winner", "rounds", "end_reason", "animal", "fury", "tokens", "fourth_round")


def assert_agree(rs, players, bots, seed, games):
    batch = play_batch(rs, players, bots, seed, np.asarray(games, dtype=np.int64))
    for i, g in enumerate(games):
        ref = play_one(rs, players, bots, seed, int(g))
        for f in FIELDS:
            b = np.asarray(batch[f][i]).tolist()
            r = np.asarray(ref[f]).tolist()
            assert b == r, f"game {g} ({players}p, {bots}): {f} batch {b} != reference {r}"
        assert np.asarray(batch["bought"][i]).tolist() == np.asarray(ref["bought"]).tolist(), f"game {g}: bought"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engines_agree_on_fury_and_tokens_too(players):
    """Beyond the shared suite's outcome (tests/games): each seat's Fury and tokens at the end."""
    rs = GAME_DATA.load()
    bots = (["greedy", "random"] * 3)[:players]
    assert_agree(rs, players, bots, seed=players, games=range(500))
