"""Counter-based random streams: one per game, addressed, never stored.

A draw is a pure function of (run seed, game index, stream, address...): a splitmix64
hash chain. Nothing is sequential, so game k of seed s is the same game in a batch of 1
or of 1,000,000, in any chunk, on any worker. The batch engine hashes whole arrays of
game indices at once; the reference engine hashes one game (a length-1 array or a plain
int). Both get identical numbers for the same address.

Streams: CHANCE (shuffles, setup) and BOT (decisions) are separate, so changing a bot
never changes the deals; SEARCH is a search bot's own (its determinizations and
continuations: strategies/rollout.py), so searching never moves the game's draws.

Addresses are small non-negative integers (kind codes, seat, round, counters, card uids).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

CHANCE = 1
BOT = 2
SEARCH = 3

_M64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser over a uint64 array (wrapping arithmetic)."""
    z = z + _GOLDEN
    z = (z ^ (z >> _S30)) * _C1
    z = (z ^ (z >> _S27)) * _C2
    return z ^ (z >> _S31)


_INT = (int, np.integer)
_G, _K1, _K2 = int(_GOLDEN), int(_C1), int(_C2)


def _mix_int(z: int) -> int:
    """_mix on one Python int (the reference engines hash one game at a time: no array overhead)."""
    z = (z + _G) & _M64
    z = ((z ^ (z >> 30)) * _K1) & _M64
    z = ((z ^ (z >> 27)) * _K2) & _M64
    return z ^ (z >> 31)


@lru_cache(maxsize=1024)
def _prefix(seed: int, game: int, stream: int) -> int:
    """The first three links of key's chain for one game (a reference engine asks for thousands
    of keys of the same game and stream: computed once)."""
    return _mix_int(_mix_int(_mix_int(seed) ^ game) ^ stream)


def _plain(a) -> bool:
    return isinstance(a, _INT) and a >= 0


@lru_cache(maxsize=4096)
def _head(seed: int, game: int, stream: int, head: tuple) -> tuple[int, int]:
    """key's chain for one game through `head` (all of an address but its last element), as
    far as it stays plain non-negative ints: (the hash so far, how many elements it took).
    A reference engine asks for many keys that differ in their last element only (a seat's
    decision counter, a die roll's number): the head is computed once."""
    h = _prefix(seed, game, stream)
    for i, a in enumerate(head):
        if not _plain(a):
            return h, i
        h = _mix_int(h ^ int(a))
    return h, len(head)


def _chain_int(seed, game: int, stream: int, address: tuple) -> tuple[int, tuple]:
    """key's chain on Python ints for one game (a reference engine hashes one game at a
    time), as far as `address` stays plain non-negative ints: (the hash so far, the rest of
    the address, from its first other element)."""
    seed, game, stream = int(seed) & _M64, int(game), int(stream)
    if not address:
        return _prefix(seed, game, stream), ()
    head = address[:-1]
    try:
        h, i = _head(seed, game, stream, head)
    except TypeError:                       # an unhashable element (an array): not cached
        h, i = _head.__wrapped__(seed, game, stream, head)
    if i < len(head):
        return h, address[i:]
    last = address[-1]
    if not _plain(last):
        return h, address[-1:]
    return _mix_int(h ^ int(last)), ()


def key(seed: int, games, stream: int, *address) -> np.ndarray:
    """uint64 hash of (seed, game, stream, *address), vectorised over `games`.

    `games` is an int or an integer array of game indices; each element of `address` is an
    int or an integer array broadcastable against `games`.
    """
    if isinstance(games, _INT) and games >= 0:
        h, rest = _chain_int(seed, games, stream, address)
        if not rest:
            return np.array(h, dtype=np.uint64)
        with np.errstate(over="ignore"):          # an array element: the chain goes on in numpy
            h = np.asarray(np.uint64(h))
            for a in rest:
                h = _mix(h ^ np.asarray(a, dtype=np.uint64))
        return h
    with np.errstate(over="ignore"):
        h = _mix(np.asarray(np.uint64(seed & _M64)))
        h = _mix(h ^ np.asarray(games, dtype=np.uint64))
        h = _mix(h ^ np.uint64(stream))
        for a in address:
            h = _mix(h ^ np.asarray(a, dtype=np.uint64))
    return h


def below(h: np.ndarray, n) -> np.ndarray:
    """Map uint64 hashes to integers uniform in [0, n) (n >= 1), by the high 32 bits.

    floor(hi32 * n / 2**32): exact in uint64 for n < 2**32; bias below 1e-9 for small n.
    One hash (a 0-d array or a numpy integer, what key returns for one game) gives a Python int.
    """
    if isinstance(n, _INT) and 0 <= n < 1 << 32 and isinstance(h, (np.ndarray, np.integer)) and h.ndim == 0:
        return ((int(h) >> 32) * int(n)) >> 32        # one draw: the same value, as a Python int
    hi = np.asarray(h, dtype=np.uint64) >> np.uint64(32)
    return ((hi * np.asarray(n, dtype=np.uint64)) >> np.uint64(32)).astype(np.int64)


def randint(seed: int, game: int, stream: int, n: int, *address) -> int:
    """One integer uniform in [0, n) for one game: the scalar form of below(key(...))."""
    if isinstance(game, _INT) and game >= 0 and isinstance(n, _INT) and 0 <= n < 1 << 32:
        h, rest = _chain_int(seed, game, stream, address)
        if not rest:
            return ((h >> 32) * int(n)) >> 32          # below's arithmetic on Python ints
    return int(below(key(seed, game, stream, *address), n))


def shuffle_order(seed: int, game: int, stream: int, uids, *address) -> list:
    """The order of `uids` after a shuffle at `address`: sorted by key(..., address, uid).

    The result depends only on the set of uids, not on their order before the shuffle.
    Batch engines compute the same keys for a (B, N) array of uids and argsort each row.
    """
    uids = list(uids)
    if not uids:
        return []
    if isinstance(game, _INT) and game >= 0 and all(isinstance(x, _INT) and 0 <= x <= _M64 for x in uids):
        h, rest = _chain_int(seed, game, stream, address)
        if not rest:
            # one game: the same keys on Python ints; a stable sort of them is argsort(kind="stable")
            hk = [_mix_int(h ^ int(x)) for x in uids]
            return [uids[i] for i in sorted(range(len(uids)), key=hk.__getitem__)]
    keys = key(seed, game, stream, *address, np.asarray(uids, dtype=np.uint64))
    return [uids[i] for i in np.argsort(keys, kind="stable")]


def sorted_shuffle(key: int, stream: int, items, *address, sort_key=None) -> list:
    """`items` sorted (by `sort_key`), then in the order of a shuffle from `key` (a search's
    own seed) on `stream` at `address`. The result depends on the multiset of items only, not
    on their order: a search's re-deal of what a seat cannot see (the games' search.py)."""
    items = sorted(items, key=sort_key)
    idx = shuffle_order(int(key), 0, stream, range(len(items)), *address) if items else []
    return [items[i] for i in idx]
