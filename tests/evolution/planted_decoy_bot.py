"""A test-only Evolution bot for the planted decoy (test_evolution_planted_impact.py): greedy,
except that a seat alone with the most food in its bag plays an Ambush card as its trait.

Compiled like the shipped bots (a decisions.Policy of three kernels the engine receives): greedy's
food card and feeding, and greedy's card plan with one change. When the seat leads (its bag
holds strictly more food than every other seat's), the trait greedy would add to a species is
replaced by an Ambush card from its hand (one not used by another action of the plan, on a
species that does not already have it); otherwise the plan is greedy's, which never plays
Ambush (score 0). Kept in its own file: the compiled engine is keyed on the bots' source files,
so editing the test's text does not rebuild it.
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution.decisions import Policy
from simcore.games.evolution.jit import kernel
from simcore.games.evolution.packed import TRAIT
from simcore.games.evolution.traits import AMBUSH
from strategies.evolution.compiled import GREEDY, _greedy_feed, _greedy_food, greedy_plan


@kernel
def _leads(a, b, seat):
    """The seat alone with the most food in its bag."""
    for x in range(a.bag.shape[1]):
        if x != seat and a.bag[b, x] >= a.bag[b, seat]:
            return False
    return True


@kernel
def _plan(a, rk, b, seat, acts, mem):
    k = np.int64(greedy_plan(a, rk, b, seat, acts, mem))
    if not _leads(a, b, seat):
        return k
    for r in range(k):
        if acts[r, 0] != TRAIT or acts[r, 3] != -1:
            continue
        s = acts[r, 2]
        on_board = np.int64(a.tmask[b, seat, s]) if s < a.n_species[b, seat] else np.int64(0)
        if (on_board >> AMBUSH) & 1:
            return k
        for j in range(a.hand_n[b, seat]):
            c = np.int64(a.hand[b, seat, j])
            if rk.kind[c] != AMBUSH:
                continue
            used = False
            for q in range(k):
                if acts[q, 1] == c:
                    used = True
            if not used:
                acts[r, 1] = c
                return k
    return k


DECOY_LEADER = Policy("planted-decoy-leader", _greedy_food, _plan, _greedy_feed, GREEDY.memory)   # greedy's weights


class DecoyLeader:
    """Test only (batch engine): register with tests.planted_kit.registered."""

    def batch(self, rs):
        return DECOY_LEADER

    def reference(self, rs, seat):
        raise NotImplementedError("a test-only batch bot")
