"""Compiled piles and strikes: random streams (= simcore.rng), shuffles, the strike deck,
taking and refilling strikes, the Revolution (contract 2, 3, 7, 9).

`u` is the engine's uint64 scratch: u[0] the run seed, u[1:] shuffle keys.
"""
from __future__ import annotations

import numpy as np

from ...rng_jit import add, key3  # noqa: F401  (simcore.rng compiled; re-exported)
from .codes import SYM_ALL_PLACE, SYM_BANNED, SYM_PLUS_ONE
from .jit import kernel
from .state import (G_DISC_N, G_SDLEN, G_SDTOP, O_DISC, O_LOCK, O_LOCK_N, O_SFAT, O_SDECK, O_SLOT,
                    O_SUP, O_TAKEN, O_TAKEN_N, O_TFAT, O_TOK, O_UNDER, O_UNDER_N, R_ALL_PLACE,
                    R_GIFT, R_M, R_N, R_P, R_S, T_SACT, T_SFAT, T_SSYM)
from .table import leader, place


@kernel
def shuffle(g, rk, u, h, at, n, ids):
    """Order g[at:at+n] (uids) by key(h, id) ascending, as rng.shuffle_order (stable), where id
    is the uid's shuffle address rk[ids + uid] (ids < 0: the value itself). A counting sort on
    scratch, nothing allocated: a card's rank is how many keys sort before its own (an equal
    key before it counts: stable), then the pile is permuted along its cycles. Branch-free
    counts: faster than the insertion sort it replaced on piles of 40-60 cards."""
    rank = 1 + n                       # u[1:1+n] the keys, u[1+n:1+2n] the ranks
    for k in range(n):
        u[1 + k] = add(h, rk[ids + g[at + k]] if ids >= 0 else g[at + k])
    for k in range(n):
        kk = u[1 + k]
        r = 0
        for j in range(k):
            r += u[1 + j] <= kk
        for j in range(k + 1, n):
            r += u[1 + j] < kk
        u[rank + k] = r
    for k in range(n):
        r = np.int64(u[rank + k])
        while r != k:
            g[at + k], g[at + r] = g[at + r], g[at + k]
            u[rank + k], u[rank + r] = u[rank + r], np.uint64(r)
            r = np.int64(u[rank + k])


@kernel
def discard(g, rk, card):
    g[rk[O_DISC] + g[G_DISC_N]] = card
    g[G_DISC_N] += 1


@kernel
def pop_strike(g, rk):
    """Top of the strike deck, or -1 when it is empty."""
    if g[G_SDTOP] >= g[G_SDLEN]:
        return -1
    s = g[rk[O_SDECK] + g[G_SDTOP]]
    g[G_SDTOP] += 1
    return s


@kernel
def give(g, rk, x, s):
    """Strike card s face down to seat x (its fatigue counts)."""
    S = rk[R_S]
    g[rk[O_TAKEN] + x * S + g[rk[O_TAKEN_N] + x]] = s
    g[rk[O_TAKEN_N] + x] += 1
    g[rk[O_TFAT] + x] += rk[rk[T_SFAT] + s]


@kernel
def take(g, rk, i, L):
    """Contract 7.2: seat L takes the strike in slot i (under-cards, tokens home, locks to the
    discard pile, a banned_colour gift)."""
    P, S, N = rk[R_P], rk[R_S], rk[R_N]
    s = g[rk[O_SLOT] + i]
    give(g, rk, L, s)
    for k in range(g[rk[O_UNDER_N] + i]):
        give(g, rk, L, g[rk[O_UNDER] + i * S + k])
    g[rk[O_UNDER_N] + i] = 0
    for x in range(P):
        g[rk[O_SUP] + x] += g[rk[O_TOK] + i * P + x]
        g[rk[O_TOK] + i * P + x] = 0
    for k in range(g[rk[O_LOCK_N] + i]):
        discard(g, rk, g[rk[O_LOCK] + i * N + k])
    g[rk[O_LOCK_N] + i] = 0
    g[rk[O_SLOT] + i] = -1
    g[rk[O_SFAT] + i] = 0
    if rk[rk[T_SSYM] + s] == SYM_BANNED and rk[rk[T_SACT] + s] == 1:   # a knocked-out strike gives nothing
        for j in range(P):
            x = (L + j) % P
            for _ in range(rk[R_GIFT]):
                t = pop_strike(g, rk)
                if t >= 0:
                    give(g, rk, x, t)


@kernel
def refill(g, rk, i):
    """Contract 7.3: the top strike fills slot i and appears (plus_one, all_place)."""
    P, S = rk[R_P], rk[R_S]
    s = pop_strike(g, rk)
    if s < 0:
        return
    g[rk[O_SLOT] + i] = s
    g[rk[O_SFAT] + i] = rk[rk[T_SFAT] + s]
    sym = rk[rk[T_SSYM] + s] if rk[rk[T_SACT] + s] == 1 else 0    # a knocked-out strike appears plain
    if sym == SYM_PLUS_ONE:
        t = pop_strike(g, rk)
        if t >= 0:
            g[rk[O_UNDER] + i * S + g[rk[O_UNDER_N] + i]] = t
            g[rk[O_UNDER_N] + i] += 1
            g[rk[O_SFAT] + i] += rk[rk[T_SFAT] + t]
    elif sym == SYM_ALL_PLACE:
        for x in range(P):
            if g[rk[O_SUP] + x] >= 1:
                place(g, rk, False, x, i, rk[R_ALL_PLACE])


@kernel
def complete_slot(g, rk, i):
    """Its leader takes the strike in slot i (if any); True if it was taken."""
    if g[rk[O_SLOT] + i] < 0:
        return False
    L = leader(g, rk, rk[O_TOK], i)
    if L < 0:
        return False
    take(g, rk, i, L)
    return True


@kernel
def revolution(g, rk):
    """Contract 9 steps 1-3: locks end, every led strike is taken, emptied slots refilled."""
    m, N = rk[R_M], rk[R_N]
    for i in range(m):
        for k in range(g[rk[O_LOCK_N] + i]):
            discard(g, rk, g[rk[O_LOCK] + i * N + k])
        g[rk[O_LOCK_N] + i] = 0
    for i in range(m):
        complete_slot(g, rk, i)
    for i in range(m):
        if g[rk[O_SLOT] + i] < 0:
            refill(g, rk, i)


@kernel
def factorial(k):
    f = 1
    for j in range(2, k + 1):
        f *= j
    return f


@kernel
def unrank(g, at, k, c, tmp):
    """Reorder g[at:at+k] by the c-th permutation of range(k) in itertools order (PEEK):
    new[j] = old[perm[j]]. `tmp`: offset of 2k scratch words."""
    for j in range(k):
        g[tmp + j] = g[at + j]          # old order
        g[tmp + k + j] = j              # unused indices, ascending
    left = k
    for j in range(k):
        f = factorial(left - 1)         # permutations of the remaining indices
        q = c // f
        c -= q * f
        g[at + j] = g[tmp + g[tmp + k + q]]
        for r in range(q, left - 1):
            g[tmp + k + r] = g[tmp + k + r + 1]
        left -= 1

