"""Greedy's evaluation of a board for a seat (contract 13), compiled: D(x) per seat and
E(s), on the game's arrays or on their look-ahead copies (`sim`, simcore/games/capybara/table.py)."""
from __future__ import annotations

from simcore.games.capybara.jit import kernel
from simcore.games.capybara.state import R_M, R_P
from simcore.games.capybara.table import offsets


@kernel
def seat_d(g, rk, sim, x):
    """Greedy's D(x) (contract 13): 2 * fatigue taken + fatigue of strikes led (2) or tied (1)."""
    P, m = rk[R_P], rk[R_M]
    ot, _, of, otf = offsets(rk, sim)
    d = 2 * g[otf + x]
    for i in range(m):
        f = g[of + i]
        if f == 0:
            continue
        mine = g[ot + i * P + x]
        if mine == 0:
            continue
        best = 0
        for s in range(P):
            if s != x:
                best = max(best, g[ot + i * P + s])
        if mine > best:
            d += 2 * f
        elif mine == best:
            d += f
    return d


@kernel
def evaluate(g, rk, sim, s):
    """Greedy's E(s) = (P - 1) D(s) - sum of the others' D (lower is better for s)."""
    P = rk[R_P]
    e = 0
    for x in range(P):
        if x == s:
            e += (P - 1) * seat_d(g, rk, sim, x)
        else:
            e -= seat_d(g, rk, sim, x)
    return e
