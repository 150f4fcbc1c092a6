"""Carnivore attacks in Evolution's compiled rules, step for step as reference_attacks.py:
which attacks are legal and the attack itself (Horns, the meat, the Scavengers).
"""
from __future__ import annotations

import numpy as np

from .jit import inline, kernel
from .kernels_board import YES
from .kernels_cards import lose_population
from .kernels_food import feed
from .packed import works
from .traits import (AMBUSH, BURROWING, CARNIVORE, CLIMBING, HARD_SHELL, HERDING, HORNS, NEGATABLE,
                     PACK_HUNTING, SCAVENGER, SYMBIOSIS, WARNING_CALL)

NEGATABLE_T = NEGATABLE


@kernel
def attack_size(a, rk, b, p, i):
    size = np.int64(a.body[b, p, i])
    if works(a, rk, b, p, i, PACK_HUNTING):
        size += rk.pack_hunting_bonus + (a.pop[b, p, i] if rk.pack_hunting_adds_population else 0)
    return size


@kernel
def can_attack(a, rk, b, p, i, q, d, negate):
    """May species i of seat p attack species d of seat q (`negate`: a defensive trait an
    Intelligence carnivore ignores, -1 none)? As reference_attacks.can_attack."""
    if (p == q and i == d) or not works(a, rk, b, p, i, CARNIVORE):
        return False
    hard = negate != HARD_SHELL and works(a, rk, b, q, d, HARD_SHELL)
    size = np.int64(a.body[b, q, d]) + (rk.hard_shell_bonus if hard else 0)
    if (rk.size_always or hard) and attack_size(a, rk, b, p, i) < size + rk.size_margin:
        return False
    if negate != CLIMBING and works(a, rk, b, q, d, CLIMBING) and not works(a, rk, b, p, i, CLIMBING):
        return False
    if negate != BURROWING and works(a, rk, b, q, d, BURROWING) and a.food[b, q, d] == a.pop[b, q, d]:
        return False
    if negate != HERDING and works(a, rk, b, q, d, HERDING) and (
            a.pop[b, q, d] >= a.pop[b, p, i]
            or (rk.herding_needs_larger_body and a.body[b, q, d] >= a.body[b, p, i])):
        return False
    n_sp = a.n_species[b, q]
    warned = (d > 0 and works(a, rk, b, q, d - 1, WARNING_CALL)) or (
        d + 1 < n_sp and works(a, rk, b, q, d + 1, WARNING_CALL))
    if warned and negate != WARNING_CALL and not works(a, rk, b, p, i, AMBUSH):
        return False
    if negate != SYMBIOSIS and works(a, rk, b, q, d, SYMBIOSIS) and d + 1 < n_sp and \
            a.body[b, q, d + 1] > a.body[b, q, d]:
        return False
    return True


@kernel
def intel_negation(a, rk, b, p, i, q, d):
    """The first negatable trait whose negation makes an illegal attack legal (-1 none)."""
    for t in NEGATABLE_T:
        if can_attack(a, rk, b, p, i, q, d, np.int64(t)):
            return t
    return -1


@kernel
def feed_scavengers(a, rk, b, seat):
    """Every Scavenger, from the attacking player clockwise, left to right, takes 1 meat."""
    P = a.n_species.shape[1]
    for k in range(P):
        p = (seat + k) % P
        i = 0
        while i < a.n_species[b, p]:
            if works(a, rk, b, p, i, SCAVENGER):
                feed(a, rk, b, p, np.int64(i), np.int64(rk.meat_from_wh), YES, np.int64(1))
            i += 1


@inline
def attack(a, rk, b, seat, i, q, d):
    """Species i of `seat` attacks species d of seat q (legality checked before)."""
    meat = np.int64(a.body[b, q, d]) if rk.meat_is_body else np.int64(1)
    horns = works(a, rk, b, q, d, HORNS)
    died = lose_population(a, rk, b, q, d)
    if died and q == seat and d < i:
        i -= 1                               # the attacker's board moved one slot left
    attacker_died = horns and lose_population(a, rk, b, seat, i)
    ate = False
    if not attacker_died:
        ate = feed(a, rk, b, seat, i, np.int64(rk.meat_from_wh), YES, np.int64(meat))
    if ate or not rk.scavenge_needs_attacker_fed:
        feed_scavengers(a, rk, b, seat)
