"""The compiled forms of the random and greedy bots: C-callable policies of the compiled
interface (simcore/games/evolversi/decisions.py, FRAME), which phase 3 compiled whole
(turn.py) calls. They choose exactly what batch_policies.RandomBatch / GreedyBatch choose
(contract section 7.2, ties to the lowest option).

The greedy's data `rk` (greedy_data): a header, then its per-uid values (values.py and its
weights, as GreedyBatch.values) and two per-verb tables: read at run time, so another
weights file compiles nothing.
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolversi.decisions import (D_BUY, D_IGNORE_EVENT, D_MORE, D_OPTIONAL, D_PLACE,
                                               D_REACT, D_SWAP_ABOVE, D_SWAP_MARKET, D_TARGET,
                                               D_TOTEM_OR_FURY, OPT)
from simcore.games.evolversi.jit import fast, policy
from simcore.games.evolversi.state import VERB
from simcore.rng_jit import below

# rk header: the cost weight, swap_market's VERB code, then each table's offset
R_COST, R_SWAP, R_ABOVE, R_BELOW, R_BUY, R_EFFECT, R_TARGET_KIND, R_HURTS = range(8)
HEADER = 8
_NEG = -(1 << 30)                  # batch_bots._NEG: the score of no option

_TAKES_TOKENS = ("steal_tokens", "lose_tokens")             # TARGET kind 0: the richest other
_HURTS_PAWN = ("lose_points", "lose_fury")                   # kind 1: the highest pawn (else 2: the lowest)
_HURTS = ("lose_points", "lose_tokens", "lose_fury", "steal_tokens")   # IGNORE_EVENT


def greedy_data(values: dict, cost_weight: int) -> np.ndarray:
    """The greedy's rk: `values` GreedyBatch.values(tb) (per uid, uid -1 last)."""
    names = ("above", "below", "buy", "effect")
    n = len(values["above"])
    kind = [0 if v in _TAKES_TOKENS else 1 if v in _HURTS_PAWN else 2 for v in VERB]
    hurts = [int(v in _HURTS) for v in VERB]
    rk = np.zeros(HEADER + 4 * n + 2 * len(VERB), np.int64)
    rk[R_COST], rk[R_SWAP] = cost_weight, VERB["swap_market"]
    at = HEADER
    for slot, name in zip((R_ABOVE, R_BELOW, R_BUY, R_EFFECT), names):
        rk[slot] = at
        rk[at:at + n] = values[name]
        at += n
    rk[R_TARGET_KIND], rk[at:at + len(VERB)] = at, kind
    at += len(VERB)
    rk[R_HURTS], rk[at:at + len(VERB)] = at, hurts
    return rk


@policy
def random_policy(q, rk, kind, seat, n, h):
    return below(h, n)


@fast
def value(rk, table, uid):
    return rk[rk[table] + uid] if uid >= 0 else 0


@fast
def best_pair(q, rk, n, table):
    """The first option r maximising value[q[OPT+3r+1]] - value[q[OPT+3r]] (SWAP_MARKET's
    buy values, SWAP_ABOVE's above values)."""
    best, pick = 0, 0
    for r in range(n):
        s = value(rk, table, q[OPT + 3 * r + 1]) - value(rk, table, q[OPT + 3 * r])
        if r == 0 or s > best:
            best, pick = s, r
    return pick


@policy
def greedy_policy(q, rk, kind, seat, n, h):
    # the choices are written here, not in a helper it calls: each array argument of a call
    # is passed as words that the callee reloads, which cost about 3% of a game (perf)
    if kind == D_PLACE:
        h = q[0]
        above, below_ = rk[R_ABOVE], rk[R_BELOW]      # the tables' offsets, read once
        best, pick = 0, 0
        for r in range(n):
            s = 0
            m = q[OPT + r]
            # bit by bit (a shifted mask): a loop of 3-4 cards that LLVM leaves scalar (its
            # vector form, with gathers, was slower)
            for j in range(h):
                u = q[1 + j]
                if u >= 0:
                    s += rk[(above if m & 1 else below_) + u]
                m >>= 1
            if r == 0 or s > best:
                best, pick = s, r
        return pick
    if kind == D_OPTIONAL:
        card = q[0]
        if q[1] == rk[R_SWAP]:
            M = q[2]
            gain = _NEG
            for i in range(M):
                for j in range(i + 1, M):
                    if q[OPT + i] >= 0 and q[OPT + j] >= 0:
                        gain = max(gain, value(rk, R_BUY, q[OPT + j]) - value(rk, R_BUY, q[OPT + i]))
            return 1 if gain > 0 else 0
        return 1 if value(rk, R_EFFECT, card) > 0 else 0
    if kind == D_TARGET:
        tk = rk[rk[R_TARGET_KIND] + q[0]]
        best, pick = 0, 0
        for r in range(n):
            s = q[OPT + 3 * r + 1] if tk == 0 else q[OPT + 3 * r + 2] if tk == 1 else -q[OPT + 3 * r + 2]
            if r == 0 or s > best:
                best, pick = s, r
        return pick
    if kind == D_SWAP_MARKET:
        return best_pair(q, rk, n, R_BUY)
    if kind == D_BUY:
        best, pick = 0, 0
        for r in range(1, n):
            s = value(rk, R_BUY, q[OPT + 3 * r]) - rk[R_COST] * q[OPT + 3 * r + 1]
            if s > best:
                best, pick = s, r
        return pick
    if kind == D_IGNORE_EVENT:
        return rk[rk[R_HURTS] + q[0]]
    if kind == D_TOTEM_OR_FURY:
        return 1 if q[0] else 0
    if kind == D_SWAP_ABOVE:
        return best_pair(q, rk, n, R_ABOVE)
    if kind == D_REACT:
        return 1
    if kind == D_MORE:
        return 1 if value(rk, R_EFFECT, q[0]) > 0 else 0
    return 0                                       # ORDER: option 0
