"""The per-game random streams: addressed, batch-independent, separate for chance and bots."""
import numpy as np
from hypothesis import given, settings, strategies as st

from simcore import rng


@settings(deadline=None)   # timing is not what these check (a loaded CI machine)
@given(st.integers(0, 2**63), st.lists(st.integers(0, 2**40), min_size=1, max_size=50),
       st.integers(0, 1000), st.integers(0, 1000))
def test_key_of_a_game_is_the_same_alone_or_in_any_batch(seed, games, a, b):
    batch = rng.key(seed, np.array(games, dtype=np.int64), rng.CHANCE, a, b)
    alone = [int(rng.key(seed, g, rng.CHANCE, a, b)) for g in games]
    assert batch.tolist() == alone


def test_chance_and_bot_streams_differ():
    g = np.arange(1000)
    assert (rng.key(7, g, rng.CHANCE, 1) != rng.key(7, g, rng.BOT, 1)).all()


def test_below_is_uniform_enough():
    h = rng.key(3, np.arange(60_000), rng.BOT, 9)
    counts = np.bincount(rng.below(h, 6), minlength=6)
    expected = 10_000
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 20.5, counts  # 5 d.o.f., p ~ 0.001


@settings(deadline=None)   # timing is not what these check (a loaded CI machine)
@given(st.lists(st.integers(0, 500), min_size=1, max_size=30, unique=True), st.randoms())
def test_shuffle_depends_only_on_the_set_of_uids(uids, rnd):
    other = list(uids)
    rnd.shuffle(other)
    assert rng.shuffle_order(5, 11, rng.CHANCE, uids, 6, 2) == rng.shuffle_order(5, 11, rng.CHANCE, other, 6, 2)
    assert sorted(rng.shuffle_order(5, 11, rng.CHANCE, uids, 6, 2)) == sorted(uids)


@settings(deadline=None)   # timing is not what these check (a loaded CI machine)
@given(st.integers(-2**63, 2**64 - 1), st.integers(0, 2**40), st.sampled_from([rng.CHANCE, rng.BOT]),
       st.lists(st.integers(0, 2**63), max_size=5), st.integers(1, 2**32 - 1))
def test_one_game_fast_path_is_the_array_chain_bit_for_bit(seed, game, stream, address, n):
    """key/below on plain ints (the reference engines' path) equal the numpy array path."""
    one = rng.key(seed, game, stream, *address)
    arr = rng.key(seed, np.array([game, 0]), stream, *[np.array([a, a]) for a in address])[0]
    assert one.dtype == np.uint64 and int(one) == int(arr)
    assert rng.below(one, n) == rng.below(np.array([arr]), n)[0]
    assert rng.randint(seed, game, stream, n, *address) == rng.below(np.array([arr]), n)[0]


def test_the_cached_head_of_an_address_gives_the_uncached_chain():
    """_head (lru-cached) is reached with a repeated head and with an unhashable one (an
    array element): both give the numpy chain's key."""
    for address in [(3, 1, 4), (3, 1, 5), (3, 1, 4), (3, np.array(1), 4), (np.int64(3), 1, 4)]:
        one = rng.key(9, 2, rng.BOT, *address)
        arr = rng.key(9, np.array([2]), rng.BOT, *[np.asarray(a) for a in address])[0]
        assert int(one) == int(arr), address
