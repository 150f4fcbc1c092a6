"""The batch engine's compiled random streams are bit-identical to simcore/rng.py: keys,
below, shuffles (setup piles, the gene draw) and the die roll address of contract 2."""
import numpy as np
import pytest

from simcore import rng
from simcore.games.evo.batch_phases import chance
from simcore.games.evo.codes import K_DIE, K_DRAW
from simcore.games.evo.decisions import add, below, key3, shuffle
from simcore.games.evo.state import G_GAME

SEEDS = [0, 1, 12345, 2**63 + 17, 2**64 - 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_key_chain_and_below_match_rng(seed):
    for game in (0, 3, 99_999):
        for address in ((1,), (K_DIE, 4, 0), (3, 2, 17, 5)):
            want = rng.key(seed, game, rng.BOT, *address)
            h = key3(np.uint64(seed), game, rng.BOT)
            for a in address:
                h = add(np.uint64(h), a)
            assert np.uint64(h) == want
            for n in (1, 2, 6, 21, 97):
                assert below(np.uint64(h), n) == rng.below(want, n)


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_matches_shuffle_order(seed):
    for game in (0, 7):
        uids = list(range(0, 48, 1)) if game else [2, 5, 9, 11, 30]
        want = rng.shuffle_order(seed, game, rng.CHANCE, uids, K_DRAW, 3)
        g = np.zeros(96, np.int64)
        g[G_GAME] = game
        g[40:40 + len(uids)] = uids
        u = np.zeros(64, np.uint64)
        u[0] = np.uint64(seed)
        shuffle(g, u, np.uint64(add(np.uint64(chance(u, g, K_DRAW)), 3)), 40, len(uids))
        assert g[40:40 + len(uids)].tolist() == want


def test_die_roll_address_is_the_contracts():
    """The n-th roll of round r: below(key(seed, game, CHANCE, K_DIE, r, n), F)."""
    from simcore.games.evo.decisions import roll
    from simcore.games.evo.schema import GAME_DATA
    from simcore.games.evo.state import G_ROLLS, G_ROUND, R_F, new_packed
    rs = GAME_DATA.load()
    pk = new_packed(rs, 3, 2024)
    pk.g[G_GAME], pk.g[G_ROUND] = 11, 4
    F = int(pk.rk[R_F])
    got = [roll(pk.g, pk.rk, pk.u) for _ in range(6)]
    want = [rng.randint(2024, 11, rng.CHANCE, F, K_DIE, 4, n) for n in range(6)]
    assert got == want and pk.g[G_ROLLS] == 6
