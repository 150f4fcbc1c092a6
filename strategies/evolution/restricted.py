"""Restricted play for Evolution's greedy: `greedy+favor:TRAIT`, `greedy+avoid:TRAIT`.

The batch face is the plain greedy's compiled Policy for every trait and both modes: the
seat's memory row [mode, trait id, weights...] (compiled.greedy_memory) says which, read at
run time, so a sweep over 17 traits compiles nothing beyond the plain greedy. The reference face
is greedy.Greedy with the same (mode, trait id). compiled.py / greedy.py say what the
restriction changes.
"""
from __future__ import annotations

from simcore.games.evolution.decisions import Policy

from . import compiled as C
from .greedy import Greedy as _Reference


MODES = {"favor": C.FAVOR, "avoid": C.AVOID}


def data(restriction, rs) -> tuple[int, int]:
    """(mode, trait id) of a registry Restriction."""
    return MODES[restriction.mode], restriction.index("evolution", rs)


def batch_policy(restriction, rs, weights) -> Policy:
    mode, e = data(restriction, rs)
    return C.greedy_policy(weights, mode, e)


def reference_policy(restriction, rs, weights) -> _Reference:
    return _Reference(data(restriction, rs), weights)
