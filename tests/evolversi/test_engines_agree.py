"""The batch engine and the reference engine play the same games, game by game."""
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
def test_engines_agree_on_2000_games(players):
    rs = GAME_DATA.load()
    bots = (["greedy", "random"] * 3)[:players]
    assert_agree(rs, players, bots, seed=players, games=range(2000))


@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_engines_agree_with_advanced_genetics(bots):
    rs = GAME_DATA.load("advanced-genetics")
    assert_agree(rs, 4, [bots] * 4, seed=11, games=range(500))


@pytest.mark.slow
def test_engines_agree_on_100000_games():
    """25,000 seeded games per player count 2-5 (100,000 in all), checked in 2 processes."""
    from joblib import Parallel, delayed
    rs = GAME_DATA.load()
    jobs = [(players, start) for players in (2, 3, 4, 5) for start in range(0, 25_000, 2_500)]
    Parallel(n_jobs=2)(delayed(assert_agree)(rs, players, (["random", "greedy"] * 3)[:players], 1000 + players,
                                             range(start, start + 2_500)) for players, start in jobs)
