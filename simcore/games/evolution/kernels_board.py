"""The board operations of Evolution's compiled rules (kernels.py): a species' trait mask,
a hand (remove, append, sort, lowest card), a species slot removed or added. The reference
engine's lists do these with list operations (reference_state.py, reference_cards.py).
"""
from __future__ import annotations

import numpy as np

from .jit import kernel

# Flags passed as plain int64: a literal True/False argument makes numba compile a
# specialisation of the callee per literal, which multiplies the compile time.
YES, NO = np.int64(1), np.int64(0)


@kernel
def refresh_slot(a, rk, b, p, s):
    m = 0
    for k in range(a.n_traits[b, p, s]):
        m |= 1 << rk.kind[a.traits[b, p, s, k]]
    a.tmask[b, p, s] = m


@kernel
def hand_remove(a, b, p, card):
    """Take `card` out of seat p's hand (the rest keep their order). False if absent."""
    n = a.hand_n[b, p]
    j = -1
    for k in range(n):
        if a.hand[b, p, k] == card:
            j = k
            break
    if j < 0:
        return False
    for k in range(j, n - 1):
        a.hand[b, p, k] = a.hand[b, p, k + 1]
    a.hand[b, p, n - 1] = a.loc.shape[1]
    a.hand_n[b, p] = n - 1
    return True


@kernel
def hand_append(a, b, p, card):
    a.hand[b, p, a.hand_n[b, p]] = card
    a.hand_n[b, p] += 1
    a.loc[b, card] = p


@kernel
def hand_sort(a, b, p):
    """Insertion sort (hands are short and nearly sorted)."""
    n = a.hand_n[b, p]
    for i in range(1, n):
        x = a.hand[b, p, i]
        j = i - 1
        while j >= 0 and a.hand[b, p, j] > x:
            a.hand[b, p, j + 1] = a.hand[b, p, j]
            j -= 1
        a.hand[b, p, j + 1] = x


@kernel
def hand_min(a, b, p):
    m = a.loc.shape[1]
    for k in range(a.hand_n[b, p]):
        if a.hand[b, p, k] < m:
            m = a.hand[b, p, k]
    return m


@kernel
def remove_species(a, b, p, i):
    """Delete species i of seat p: the boards to its right move one slot left."""
    n = a.n_species[b, p]
    for s in range(i, n - 1):
        a.food[b, p, s] = a.food[b, p, s + 1]
        a.body[b, p, s] = a.body[b, p, s + 1]
        a.pop[b, p, s] = a.pop[b, p, s + 1]
        a.fat[b, p, s] = a.fat[b, p, s + 1]
        a.n_traits[b, p, s] = a.n_traits[b, p, s + 1]
        a.tmask[b, p, s] = a.tmask[b, p, s + 1]
        for t in range(a.traits.shape[3]):
            a.traits[b, p, s, t] = a.traits[b, p, s + 1, t]
    last = n - 1
    a.food[b, p, last] = 0
    a.body[b, p, last] = 0
    a.pop[b, p, last] = 0
    a.fat[b, p, last] = 0
    a.n_traits[b, p, last] = 0
    a.tmask[b, p, last] = 0
    for t in range(a.traits.shape[3]):
        a.traits[b, p, last, t] = -1
    a.n_species[b, p] = n - 1


@kernel
def new_species(a, rk, b, p, left):
    """A new board at the right end, or (left) at the left end (the others move right)."""
    n = a.n_species[b, p]
    at = n
    if left:
        for s in range(n, 0, -1):
            a.food[b, p, s] = a.food[b, p, s - 1]
            a.body[b, p, s] = a.body[b, p, s - 1]
            a.pop[b, p, s] = a.pop[b, p, s - 1]
            a.fat[b, p, s] = a.fat[b, p, s - 1]
            a.n_traits[b, p, s] = a.n_traits[b, p, s - 1]
            a.tmask[b, p, s] = a.tmask[b, p, s - 1]
            for t in range(a.traits.shape[3]):
                a.traits[b, p, s, t] = a.traits[b, p, s - 1, t]
        at = 0
    a.food[b, p, at] = 0
    a.body[b, p, at] = rk.new_species_body
    a.pop[b, p, at] = rk.new_species_population
    a.fat[b, p, at] = 0
    a.n_traits[b, p, at] = 0
    a.tmask[b, p, at] = 0
    for t in range(a.traits.shape[3]):
        a.traits[b, p, at, t] = -1
    a.n_species[b, p] = n + 1
