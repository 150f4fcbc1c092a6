"""Cards in Evolution's compiled rules, step for step as reference_cards.py: the deck's
shuffle, draws (a reshuffle of the discards where the rules allow it), extinction and the
cards it draws, and the card plays.
"""
from __future__ import annotations

import numpy as np

from simcore.rng import CHANCE

from . import addresses as A
from .jit import kernel
from .kernels_board import hand_remove, new_species, refresh_slot, remove_species
from .packed import BODY, NEW, POP, TRAIT, key_add, key_start
from .state import BOARD, DECK, DISCARD
from .traits import FAT_TISSUE


@kernel
def set_final_round(a, b, final, reason):
    if final < a.final_round[b]:
        a.final_round[b] = final
        a.end_reason[b] = reason


@kernel
def _radix_pass(keys, uids, to_keys, to_uids, count, m, shift):
    """One stable counting-sort pass of (key, uid) pairs on key bits shift..shift+7."""
    for d in range(256):
        count[d] = 0
    for k in range(m):
        count[np.int64((keys[k] >> np.uint64(shift)) & np.uint64(255))] += 1
    total = 0
    for d in range(256):
        c = count[d]
        count[d] = total
        total += c
    for k in range(m):
        d = np.int64((keys[k] >> np.uint64(shift)) & np.uint64(255))
        at = count[d]
        count[d] = at + 1
        to_keys[at] = keys[k]
        to_uids[at] = uids[k]


@kernel
def shuffle_into_deck(a, rk, b, m):
    """deck = the m cards a.uids[:m] (card ids, increasing) ordered by the keys of their
    stable uids at (SHUFFLE, shuffles, rk.carduid[card]), ties by card id: rng.shuffle_order's
    stable argsort of keys over increasing card ids (reference_state.Game.shuffle). Two stable
    radix passes order the pairs by the keys' top 16 bits; an insertion sort then orders
    the (rare) runs that share them."""
    keys, uids = a.keys, a.uids
    h0 = key_add(key_add(key_start(a.seed, a.games[b], CHANCE), A.SHUFFLE), a.shuffles[b])
    for k in range(m):
        keys[k] = key_add(h0, rk.carduid[uids[k]])
    _radix_pass(keys, uids, a.keys2, a.uids2, a.count, m, np.int64(48))
    _radix_pass(a.keys2, a.uids2, keys, uids, a.count, m, np.int64(56))
    for i in range(1, m):
        x, u = keys[i], uids[i]
        j = i - 1
        while j >= 0 and (keys[j] > x or (keys[j] == x and uids[j] > u)):
            keys[j + 1] = keys[j]
            uids[j + 1] = uids[j]
            j -= 1
        keys[j + 1] = x
        uids[j + 1] = u
    for k in range(m):
        c = uids[k]
        a.deck[b, k] = c
        a.loc[b, c] = DECK
    a.deck_top[b] = 0
    a.deck_len[b] = m
    a.shuffles[b] += 1


@kernel
def reshuffle(a, rk, b):
    N = a.loc.shape[1]
    m = 0
    for c in range(N):
        if a.loc[b, c] == DISCARD:
            a.uids[m] = c
            m += 1
    shuffle_into_deck(a, rk, b, np.int64(m))
    set_final_round(a, b, np.int64(a.round[b] + 1), np.int64(A.END_RESHUFFLE))


@kernel
def draw_front(a, rk, b, p, n):
    """Seat p draws n cards (reshuffling an empty deck where the rules say so); they go in
    front of its hand in draw order, as `player.hand[:0] = drawn`."""
    drawn = 0
    for _ in range(n):
        if a.deck_top[b] >= a.deck_len[b] and rk.reshuffle_discards:
            any_discard = False
            for c in range(a.loc.shape[1]):
                if a.loc[b, c] == DISCARD:
                    any_discard = True
                    break
            if any_discard:
                reshuffle(a, rk, b)
        if a.deck_top[b] >= a.deck_len[b]:
            break
        card = a.deck[b, a.deck_top[b]]
        a.deck_top[b] += 1
        # insert at position `drawn` (after the cards drawn before it)
        hn = a.hand_n[b, p]
        for k in range(hn, drawn, -1):
            a.hand[b, p, k] = a.hand[b, p, k - 1]
        a.hand[b, p, drawn] = card
        a.hand_n[b, p] = hn + 1
        a.loc[b, card] = p
        drawn += 1


@kernel
def go_extinct(a, rk, b, p, i):
    """Species i leaves: traits to the discards, food back to the bank, the owner draws."""
    nt = a.n_traits[b, p, i]
    for t in range(nt):
        a.loc[b, a.traits[b, p, i, t]] = DISCARD
    a.bank_out[b] -= np.int64(a.food[b, p, i]) + a.fat[b, p, i]
    n = rk.extinction_cards_flat + rk.extinction_cards_per_trait * nt
    remove_species(a, b, p, i)
    draw_front(a, rk, b, p, n)


@kernel
def lose_population(a, rk, b, p, i):
    """One population lost; True if the species went extinct."""
    a.pop[b, p, i] -= 1
    if a.food[b, p, i] > a.pop[b, p, i]:
        a.bank_out[b] -= np.int64(a.food[b, p, i]) - a.pop[b, p, i]
        a.food[b, p, i] = a.pop[b, p, i]
    if a.pop[b, p, i] <= 0:
        go_extinct(a, rk, b, p, i)
        return True
    return False


@kernel
def play_action(a, rk, b, p, kind, card, s, slot):
    """Apply one card action; an illegal one is skipped (the card stays in hand). True if
    applied. NEW: slot 0 right end, 1 left end. TRAIT: slot -1 adds, else replaces."""
    N = a.loc.shape[1]
    if card < 0 or card >= N or a.loc[b, card] != p:
        return False
    n_sp = a.n_species[b, p]
    if kind == NEW:
        if n_sp >= rk.species_slots or n_sp >= a.food.shape[2] or (
                slot == 1 and not rk.new_left_allowed):
            return False
        new_species(a, rk, b, p, np.int64(slot == 1))
    elif kind == TRAIT:
        if s < 0 or s >= n_sp:
            return False
        nt = a.n_traits[b, p, s]
        ck = rk.kind[card]
        for k in range(nt):
            if k != slot and rk.kind[a.traits[b, p, s, k]] == ck:
                return False
        if slot < 0:
            if nt >= rk.max_traits:
                return False
            a.traits[b, p, s, nt] = card
            a.n_traits[b, p, s] = nt + 1
        else:
            if slot >= nt:
                return False
            old = a.traits[b, p, s, slot]
            a.traits[b, p, s, slot] = card
            a.loc[b, old] = DISCARD
            if rk.kind[old] == FAT_TISSUE and ck != FAT_TISSUE:
                a.bank_out[b] -= a.fat[b, p, s]
                a.fat[b, p, s] = 0
        refresh_slot(a, rk, b, p, s)
        a.traits_played[b, p, ck] += 1
        hand_remove(a, b, p, card)
        a.loc[b, card] = BOARD
        return True
    elif kind == POP or kind == BODY:
        if s < 0 or s >= n_sp:
            return False
        at_cap = a.pop[b, p, s] >= rk.max_population if kind == POP else a.body[b, p, s] >= rk.max_body
        if at_cap:                  # "A species cannot go beyond Size 7 or Population 7": not a play
            return False
        if kind == POP:
            a.pop[b, p, s] += 1
        else:
            a.body[b, p, s] += 1
    else:
        return False
    hand_remove(a, b, p, card)
    a.loc[b, card] = DISCARD
    return True
