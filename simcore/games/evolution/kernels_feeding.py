"""The feeding of Evolution's compiled rules, step for step as reference_feeding.py: a
seat's legal feeding options (rows [kind, s, q, d, negate] in the canonical order both
engines share) and carrying one out. The feeding turns themselves ask the bots: engine.py.
"""
from __future__ import annotations

import numpy as np

from .jit import inline, kernel
from .kernels_attacks import attack, can_attack, intel_negation
from .kernels_board import NO, YES, hand_min, hand_remove
from .kernels_food import capacity, feed, store_fat
from .packed import ATTACK, FORGO, INTEL, STORE, VEG, works
from .state import DISCARD
from .traits import CARNIVORE, FAT_TISSUE, INTELLIGENCE

# feeding turn outcomes, as reference_feeding.feeding_turn
OUT, FED, PASSED = 0, 1, 2


@kernel
def max_options(P, S):
    """Rows an options array needs: forgo, veg/store/intel per species, two attack kinds."""
    return 1 + 3 * S + 2 * S * P * S


@inline
def _row(opts, k, kind, s, q, d, neg):
    opts[k, 0] = kind
    opts[k, 1] = s
    opts[k, 2] = q
    opts[k, 3] = d
    opts[k, 4] = neg


@kernel
def feeding_options(a, rk, b, seat, opts):
    """Write the legal feeding options of `seat` into rows of `opts` in the canonical order
    (reference_feeding.feeding_options); returns (rows, rows other than forgoing)."""
    P = a.n_species.shape[1]
    S = np.int64(a.n_species[b, seat])      # int64 indices: one compiled capacity (range(int8) counts in int32)
    k = 1                                    # row 0 is kept for forgoing
    any_veg = False
    for s in range(S):
        if a.wh[b] > 0 and not works(a, rk, b, seat, s, CARNIVORE) and \
                capacity(a, rk, b, seat, s, NO) > 0:
            _row(opts, k, VEG, s, 0, 0, -1)
            k += 1
            any_veg = True
    if rk.fat_store_action:
        for s in range(S):
            if works(a, rk, b, seat, s, FAT_TISSUE) and a.body[b, seat, s] > a.fat[b, seat, s]:
                _row(opts, k, STORE, s, 0, 0, -1)
                k += 1
    has_card = a.hand_n[b, seat] > 0
    if has_card:
        for s in range(S):
            if works(a, rk, b, seat, s, INTELLIGENCE) and not works(a, rk, b, seat, s, CARNIVORE) and \
                    capacity(a, rk, b, seat, s, NO) > 0:
                _row(opts, k, INTEL, s, 0, 0, -1)
                k += 1
    plain = 0
    for s in range(S):
        if works(a, rk, b, seat, s, CARNIVORE) and capacity(a, rk, b, seat, s, YES) > 0:
            for q in range(P):
                if q == seat and not rk.attack_own_species:
                    continue
                for d in range(a.n_species[b, q]):
                    if can_attack(a, rk, b, seat, s, q, d, np.int64(-1)):
                        _row(opts, k, ATTACK, s, q, d, -1)
                        k += 1
                        plain += 1
    for s in range(S):                       # attacks that need an Intelligence discard
        if has_card and works(a, rk, b, seat, s, INTELLIGENCE) and works(a, rk, b, seat, s, CARNIVORE) \
                and capacity(a, rk, b, seat, s, YES) > 0:
            for q in range(P):
                if q == seat and not rk.attack_own_species:
                    continue
                for d in range(a.n_species[b, q]):
                    if can_attack(a, rk, b, seat, s, q, d, np.int64(-1)):
                        continue
                    t = intel_negation(a, rk, b, seat, s, q, d)
                    if t >= 0:
                        _row(opts, k, ATTACK, s, q, d, t)
                        k += 1
    acts = k - 1
    forgo_ok = not (rk.forgo_needs_no_plant_option and any_veg) and \
        not (rk.carnivore_must_attack and plain > 0)
    if forgo_ok or acts == 0:
        _row(opts, 0, FORGO, 0, 0, 0, -1)
        return k, acts
    for r in range(acts):                    # no forgo row: shift the options up
        for f in range(5):
            opts[r, f] = opts[r + 1, f]
    return acts, acts


@kernel
def can_ever_eat(a, rk, b, p):
    """Some species of p still has room for food (or, where storing is its own action, for
    fat): room only shrinks during feeding, so without it p is done for this feeding."""
    for i in range(np.int64(a.n_species[b, p])):
        if capacity(a, rk, b, p, i, YES) > 0:
            return True
        if rk.fat_store_action and works(a, rk, b, p, i, FAT_TISSUE) and a.body[b, p, i] > a.fat[b, p, i]:
            return True
    return False


@kernel
def discard_for_intelligence(a, b, p):
    card = hand_min(a, b, p)                 # the rules discard the lowest card id
    hand_remove(a, b, p, card)
    a.loc[b, card] = DISCARD


@inline
def apply_option(a, rk, b, seat, kind, s, q, d, negate):
    if kind == VEG:
        feed(a, rk, b, seat, s, YES, NO, np.int64(1))
    elif kind == STORE:
        store_fat(a, b, seat, s)
    elif kind == INTEL:
        discard_for_intelligence(a, b, seat)
        feed(a, rk, b, seat, s, NO, NO, np.int64(rk.intelligence_bank_food))
    elif kind == ATTACK:
        if negate >= 0:
            discard_for_intelligence(a, b, seat)
        attack(a, rk, b, seat, s, q, d)
