"""The batch engine's compiled kernels: the decision-free steps that loop per game.

numpy spends most of these steps on per-call overhead and temporaries (each game has a
different deck length, and only some reshuffle), so they are one loop over the games
each, compiled with numba (jit.py). They do exactly what the numpy code they replace did
(piles.shuffled / reshuffle, piles.draw_from_deck, market.new_market / refill_market):
the same cards in the same places, the same shuffle keys (simcore/rng_jit.py).

Piles are stacks: the top (next drawn) is the last filled entry. A shuffle orders the
pile's cards by key(seed, game, CHANCE, kind, *address, ident[uid]) ascending, the first
the top (contract section 2), so the stack holds them by key descending.
"""
from __future__ import annotations

import numpy as np

from ...rng import CHANCE
from ...rng_jit import add, key3
from .jit import kernel


@kernel
def shuffle_into(pile, n, stack, prefix, ident, keys):
    """The first n uids of `pile` (1-D) shuffled onto `stack` (1-D, top last) by the keys
    add(prefix, ident[uid]); ties keep pile order among the ~keys, as the stable argsort
    of piles.shuffled. `keys`: uint64 scratch of at least n entries. The pile is emptied."""
    for j in range(n):
        k = ~add(prefix, ident[pile[j]])
        c = pile[j]
        i = j - 1                          # insertion sort on ~key: stable, n is small
        while i >= 0 and keys[i] > k:
            keys[i + 1] = keys[i]
            stack[i + 1] = stack[i]
            i -= 1
        keys[i + 1] = k
        stack[i + 1] = c
    for j in range(n):
        pile[j] = -1


@kernel
def draw_hands(g, s, rnd, hand_size, hand_size_fourth, fourth, fourth_round, games, seed, kind,
               ident, deck, n_deck, shuffles, discard, n_discard, hand, n_hand, fires):
    """Phase 1's draw of seat s in each game of g (contract section 4): h cards off the
    deck; if it runs out, the rest of the deck, then (if the discard pile is not empty) the
    discards shuffled into a new deck (own-deck shuffle n + 1) and the missing cards from
    it. fires[i]: game g[i] reshuffled, so its Power fires (the caller's business)."""
    keys = np.empty(deck.shape[2] + discard.shape[2], np.uint64)
    for i in range(len(g)):
        b = g[i]
        h = hand_size_fourth if fourth[b] and fourth_round[b] < rnd else hand_size
        n = np.int64(n_deck[b, s])
        take = min(h, n)
        for j in range(take):
            hand[b, s, j] = deck[b, s, n - 1 - j]
            deck[b, s, n - 1 - j] = -1
        n_deck[b, s] = n - take
        n_hand[b, s] = take
        fires[i] = False
        nd = np.int64(n_discard[b, s])
        if n >= h or nd == 0:
            continue
        no = np.int64(shuffles[b, s]) + 1
        prefix = add(add(add(key3(seed, games[b], CHANCE), kind), s), no)
        shuffle_into(discard[b, s], nd, deck[b, s], prefix, ident, keys)
        shuffles[b, s] = no
        n_discard[b, s] = 0
        more = min(h - n, nd)
        for j in range(more):
            hand[b, s, n + j] = deck[b, s, nd - 1 - j]
            deck[b, s, nd - 1 - j] = -1
        n_deck[b, s] = nd - more
        n_hand[b, s] = n + more
        fires[i] = True


@kernel
def new_market(g, m, games, seed, kind, ident, above, below, revealed, discard, n_discard,
               market, common, n_common, evo_deck, n_evo, evo_shuffles):
    """Phase 4 for the games g (contract section 4): each seat's cards above, then below
    (placement order) onto its discard pile; the market's cards onto the common discards;
    slots 0..m-1 refilled from the Evolution deck, reshuffling the common discards into it
    (Evolution shuffle n + 1) when it is empty."""
    P, H, M = above.shape[1], above.shape[2], market.shape[1]
    keys = np.empty(common.shape[1], np.uint64)
    for i in range(len(g)):
        b = g[i]
        for s in range(P):
            k = np.int64(n_discard[b, s])
            for j in range(H):
                if above[b, s, j] >= 0:
                    discard[b, s, k] = above[b, s, j]
                    k += 1
                above[b, s, j] = -1
            for j in range(H):
                if below[b, s, j] >= 0:
                    discard[b, s, k] = below[b, s, j]
                    k += 1
                below[b, s, j] = -1
            n_discard[b, s] = k
            revealed[b, s] = False
        k = np.int64(n_common[b])
        for j in range(M):
            if market[b, j] >= 0:
                common[b, k] = market[b, j]
                k += 1
            market[b, j] = -1
        n_common[b] = k
        refill(b, m, games, seed, kind, ident, market, common, n_common, evo_deck, n_evo, evo_shuffles, keys)


@kernel
def refill_market(g, m, games, seed, kind, ident, market, common, n_common, evo_deck, n_evo, evo_shuffles):
    """Slots 0..m-1 of each game of g from the Evolution deck (setup's fill, phase 4's refill)."""
    keys = np.empty(common.shape[1], np.uint64)
    for i in range(len(g)):
        refill(g[i], m, games, seed, kind, ident, market, common, n_common, evo_deck, n_evo, evo_shuffles, keys)


@kernel
def refill(b, m, games, seed, kind, ident, market, common, n_common, evo_deck, n_evo, evo_shuffles, keys):
    """Slots 0..m-1 of game b in order from the top of the Evolution deck; when it is empty,
    the common discards shuffled into a new deck first; both empty: the slot stays empty."""
    for i in range(m):
        if n_evo[b] == 0 and n_common[b] > 0:
            no = np.int64(evo_shuffles[b]) + 1
            nc = np.int64(n_common[b])
            prefix = add(add(key3(seed, games[b], CHANCE), kind), no)
            shuffle_into(common[b], nc, evo_deck[b], prefix, ident, keys)
            n_evo[b] = nc
            n_common[b] = 0
            evo_shuffles[b] = no
        n = n_evo[b]
        if n > 0:
            market[b, i] = evo_deck[b, n - 1]
            evo_deck[b, n - 1] = -1
            n_evo[b] = n - 1
