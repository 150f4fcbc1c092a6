"""Restricted play (issue 12) for Evolution's greedy: `greedy+favor:TRAIT`, `greedy+avoid:TRAIT`.

The batch face is one compiled Policy for every trait and both modes: the seat's memory
row [mode, trait id] (build.Policy.memory) says which, read at run time, so a sweep over
17 traits compiles the engine once (with the plain greedy beside it). The reference face
is greedy.Greedy with the same (mode, trait id). compiled.py / greedy.py say what the
restriction changes.
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution.build import Policy, kernel

from . import compiled as C
from .greedy import Greedy as _Reference


@kernel
def _food(a, rk, b, seat, mem):
    return np.int64(C.greedy_food_card(a, rk, b, seat, mem[0], mem[1]))


@kernel
def _plan(a, rk, b, seat, acts, mem):
    return np.int64(C.greedy_plan(a, rk, b, seat, acts, mem[0], mem[1]))


@kernel
def _feed(a, rk, b, seat, opts, n_opts, turn, mem):
    return np.int64(C.greedy_feed(a, rk, b, seat, opts, n_opts, mem[0], mem[1]))


MODES = {"favor": C.FAVOR, "avoid": C.AVOID}


def data(restriction, rs) -> tuple[int, int]:
    """(mode, trait id) of a registry Restriction."""
    return MODES[restriction.mode], restriction.index("evolution", rs)


def batch_policy(restriction, rs) -> Policy:
    mode, e = data(restriction, rs)
    return Policy("greedy-restricted", _food, _plan, _feed, np.array([mode, e], np.int64))


def reference_policy(restriction, rs) -> _Reference:
    return _Reference(data(restriction, rs))
