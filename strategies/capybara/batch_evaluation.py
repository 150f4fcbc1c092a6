"""Greedy's evaluation of a board for a seat (contract 13), compiled: D(x) per seat and
E(s), on the game's arrays or on their look-ahead copies (`sim`, simcore/games/capybara/table.py);
and E(s) after one option of an effect ("after o"), found from E now and the per-slot
values values_now keeps in the scratch words.

"After o" is played on the engine's look-ahead arrays (table.to_sim, apply_tokens with
sim=True): tokens placed or moved and strikes taken, nothing hidden (no gifts, refills,
answers, doubling or draws). Placing, gathering, completing and copying change only a
few slots' values, so option_e finds their E(s) from E now with those slots' values
swapped; a lock changes none; any other effect is played out (after_effect).
"""
from __future__ import annotations

from simcore.games.capybara.codes import COMPLETE, COPY_TOKENS, GATHER, LOCK, PLACE, PLACE_OTHERS
from simcore.games.capybara.jit import kernel
from simcore.games.capybara.state import (O_LOCK_N, O_SFAT, O_SUP, O_TFAT, O_TMP, O_TOK, R_M, R_N,
                                          R_P)
from simcore.games.capybara.table import (apply_tokens, banned_for, leader, mult, offsets,
                                          seat_after, to_sim)


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


@kernel
def after_effect(g, rk, s, eff, amount, colour, actor, a, b):
    """E(s) after option (a, b) of an effect."""
    to_sim(g, rk)
    apply_tokens(g, rk, True, eff, amount, colour, actor, a, b)
    return evaluate(g, rk, True, s)


@kernel(inline=True)
def scratch(rk):
    """(V_i per slot, then each slot's most tokens and how many seats hold that many
    (values_now), a per-seat token vector): words of O_TMP past the answer frames (the card
    memo follows, memo_at)."""
    at = rk[O_TMP] + 2 * rk[R_N]
    return at, at + 3 * rk[R_M]


@kernel(inline=True)
def row_value(g, rk, i, s, add):
    """V_i with g[add + x] more tokens of each seat x on slot i (add < 0: none)."""
    P = rk[R_P]
    f = g[rk[O_SFAT] + i]
    if f == 0:
        return 0
    ot = rk[O_TOK] + i * P
    best, count = 0, 0
    for x in range(P):
        t = g[ot + x] + (g[add + x] if add >= 0 else 0)
        if t > best:
            best, count = t, 1
        elif t == best:
            count += 1
    if best == 0:
        return 0
    lead = 2 if count == 1 else 1
    t = g[ot + s] + (g[add + s] if add >= 0 else 0)
    v = (P - 1) * lead if t == best else 0
    for x in range(P):
        if x != s and g[ot + x] + (g[add + x] if add >= 0 else 0) == best:
            v -= lead
    return f * v


@kernel(inline=True)
def row_value_plus(g, rk, i, s, x, k):
    """V_i with k more tokens of seat x alone on slot i (k < 0: fewer): row_value with one
    seat's change, in one pass and without the per-seat vector (the place and gather
    options' hot path)."""
    P = rk[R_P]
    f = g[rk[O_SFAT] + i]
    if f == 0:
        return 0
    ot = rk[O_TOK] + i * P
    best, count, mine = 0, 0, 0
    for y in range(P):
        t = g[ot + y] + (k if y == x else 0)
        if t > best:
            best, count = t, 1
        elif t == best:
            count += 1
        if y == s:
            mine = t
    if best == 0:
        return 0
    lead = 2 if count == 1 else 1
    if mine == best:                   # s leads (or ties): +lead per opponent, -lead per tied one
        return f * lead * (P - count)
    return -f * lead * count


@kernel
def values_now(g, rk, s):
    """Fill V_i for every slot, and each slot's most tokens and their holders' number
    (place_value's); return E(s) now."""
    P, m = rk[R_P], rk[R_M]
    vv, _ = scratch(rk)
    e = 0
    for x in range(P):
        e += 2 * g[rk[O_TFAT] + x] * (P - 1 if x == s else -1)
    for i in range(m):
        ot = rk[O_TOK] + i * P
        best, count = 0, 0
        for x in range(P):
            t = g[ot + x]
            if t > best:
                best, count = t, 1
            elif t == best:
                count += 1
        g[vv + m + i], g[vv + 2 * m + i] = best, count
        f = g[rk[O_SFAT] + i]
        v = 0                          # row_value(i, s) from the slot's best and count
        if f != 0 and best != 0:
            lead = 2 if count == 1 else 1
            v = f * lead * (P - count) if g[ot + s] == best else -f * lead * count
        g[vv + i] = v
        e += v
    return e


@kernel
def place_value(g, rk, i, s, x, k):
    """row_value_plus(i, s, x, k) for k >= 0, from slot i's most tokens and their holders'
    number that values_now stored (the real tokens do not change within a decision)."""
    f = g[rk[O_SFAT] + i]
    if f == 0:
        return 0
    P, m = rk[R_P], rk[R_M]
    vv, _ = scratch(rk)
    best, count = g[vv + m + i], g[vv + 2 * m + i]
    ot = rk[O_TOK] + i * P
    tx = g[ot + x] + k
    if tx > best:
        best, count = tx, 1
    elif tx == best and k > 0:
        count += 1
    if best == 0:
        return 0
    mine = tx if s == x else g[ot + s]
    lead = 2 if count == 1 else 1
    if mine == best:
        return f * lead * (P - count)
    return -f * lead * count


@kernel
def clear_add(g, rk):
    _, add = scratch(rk)
    for x in range(rk[R_P]):
        g[add + x] = 0
    return add


@kernel(inline=True)
def place_e(g, rk, s, now, x, i, k):
    """E(s) after seat x places k tokens on slot i (limited by its supply)."""
    vv, _ = scratch(rk)
    return now - g[vv + i] + place_value(g, rk, i, s, x, min(k, g[rk[O_SUP] + x]))


@kernel(inline=True)
def gather_source(g, rk, i, x, colour):
    """Tokens of seat x a GATHER moves off slot i (0: none there, or locked, or banned)."""
    t = g[rk[O_TOK] + i * rk[R_P] + x]
    if t > 0 and g[rk[O_LOCK_N] + i] == 0 and not banned_for(g, rk, i, colour, True):
        return t
    return 0


@kernel
def gather_removal(g, rk, s, x, colour):
    """(sum over the slots of V_i's change when seat x's removable tokens leave them, how
    many tokens leave): the part of every GATHER option of seat x that does not depend on
    the destination (gather_e takes the destination's own tokens back out)."""
    vv, _ = scratch(rk)
    d, moved = 0, 0
    for i in range(rk[R_M]):
        t = gather_source(g, rk, i, x, colour)
        if t > 0:
            d += row_value_plus(g, rk, i, s, x, -t) - g[vv + i]
            moved += t
    return d, moved


@kernel
def gather_e(g, rk, s, now, colour, x, b, removal, moved):
    """E(s) after GATHER option (x, b), from gather_removal(x)'s (removal, moved): every
    removable token of seat x but those already on b moves onto b."""
    vv, _ = scratch(rk)
    t = gather_source(g, rk, b, x, colour)
    if t > 0:
        removal -= row_value_plus(g, rk, b, s, x, -t) - g[vv + b]
        moved -= t
    return now + removal - g[vv + b] + place_value(g, rk, b, s, x, moved)     # moved >= 0: O(1)


@kernel
def option_e(g, rk, s, now, eff, amount, colour, actor, a, b):
    """E(s) after option (a, b) of an effect (contract 13's "after o")."""
    P = rk[R_P]
    vv, _ = scratch(rk)
    if eff == PLACE:
        return place_e(g, rk, s, now, a, b, amount * mult(g, rk, b, eff, True))
    if eff == PLACE_OTHERS or eff == COPY_TOKENS:
        add = clear_add(g, rk)
        i = a if eff == PLACE_OTHERS else b
        k = amount * mult(g, rk, a, eff, True)
        for j in range(P):
            x = seat_after(actor, j, P)
            if eff == PLACE_OTHERS:
                if j > 0:
                    g[add + x] = min(k, g[rk[O_SUP] + x])
            else:
                c = g[rk[O_TOK] + a * P + x]
                if amount > 0:
                    c = min(c, amount)
                g[add + x] = min(c, g[rk[O_SUP] + x])
        return now - g[vv + i] + row_value(g, rk, i, s, add)
    if eff == COMPLETE:
        L = leader(g, rk, rk[O_TOK], a)
        return now - g[vv + a] + 2 * g[rk[O_SFAT] + a] * (P - 1 if L == s else -1)
    if eff == GATHER:
        removal, moved = gather_removal(g, rk, s, a, colour)
        return gather_e(g, rk, s, now, colour, a, b, removal, moved)
    if eff == LOCK:
        return now
    return after_effect(g, rk, s, eff, amount, colour, actor, a, b)
