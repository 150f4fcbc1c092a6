"""How a species takes food in Evolution's compiled rules, step for step as
reference_food.py: its room for food, a feed from the Watering Hole or the bank
(Foraging's extra, Cooperation's passes) and Fat Tissue's store.
"""
from __future__ import annotations

import numpy as np

from .jit import kernel
from .packed import works
from .traits import CARNIVORE, COOPERATION, FAT_TISSUE, FORAGING


@kernel
def capacity(a, rk, b, p, i, meat):
    """Tokens species i can take now (hunger, plus fat room if it stores on eating)."""
    if not meat and rk.carnivores_refuse_plant and works(a, rk, b, p, i, CARNIVORE):
        return 0
    room = np.int64(a.pop[b, p, i]) - a.food[b, p, i]
    if rk.fat_stores_on_eating and works(a, rk, b, p, i, FAT_TISSUE):
        room += np.int64(a.body[b, p, i]) - a.fat[b, p, i]
    return room


@kernel
def available(a, b, from_wh):
    return np.int64(a.wh[b]) if from_wh else np.int64(1 << 30)


@kernel
def take(a, b, p, i, n, from_wh):
    to_food = min(n, np.int64(a.pop[b, p, i]) - a.food[b, p, i])
    a.food[b, p, i] += to_food
    a.fat[b, p, i] += n - to_food
    if from_wh:
        a.wh[b] -= n
    else:
        a.bank_out[b] += n


@kernel
def take_once(a, rk, b, p, i, from_wh, meat, amount):
    """Species i takes up to `amount`, then Foraging's extra; returns the tokens taken."""
    n = min(amount, capacity(a, rk, b, p, i, meat), available(a, b, from_wh))
    if n <= 0:
        return 0
    take(a, b, p, i, n, from_wh)
    if works(a, rk, b, p, i, FORAGING) and (rk.foraging_any_food or not meat):
        m = min(rk.foraging_extra, capacity(a, rk, b, p, i, meat), available(a, b, from_wh))
        if m > 0:
            take(a, b, p, i, m, from_wh)
            n += m
    return n


@kernel
def feed(a, rk, b, p, i, from_wh, meat, amount):
    """Species i of seat p takes food, then Cooperation passes 1 food per share to its right
    neighbour, depth first as reference_food.feed's recursion. True if species i ate.

    The recursion's pending calls always sit on consecutive slots with the deepest on top,
    so a count per slot and the deepest slot with a count replay it exactly."""
    n = take_once(a, rk, b, p, i, from_wh, meat, amount)
    if n <= 0:
        return False
    n_sp = a.n_species[b, p]
    if works(a, rk, b, p, i, COOPERATION) and i + 1 < n_sp:
        pend = a.pend
        for j in range(n_sp + 1):
            pend[j] = 0
        pend[i + 1] = n if rk.cooperation_per_token else 1
        top = i + 1
        while top > i:
            if pend[top] == 0:
                top -= 1
                continue
            pend[top] -= 1
            j = top
            m = take_once(a, rk, b, p, j, from_wh, meat, np.int64(1))
            if m > 0 and works(a, rk, b, p, j, COOPERATION) and j + 1 < n_sp:
                pend[j + 1] += m if rk.cooperation_per_token else 1
                top = j + 1
    return True


@kernel
def store_fat(a, b, p, i):
    """cs4500's fat-tissue choice: as much as fits, from the Watering Hole."""
    n = min(np.int64(a.body[b, p, i]) - a.fat[b, p, i], np.int64(a.wh[b]))
    a.fat[b, p, i] += n
    a.wh[b] -= n
