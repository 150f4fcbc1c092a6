"""Greedy's best option of an effect (contract 13), compiled: the lowest E(s) over the
effect's options and its index, each option scored as batch_evaluation.option_e scores it
but without the engine writing the option rows (the rows' order is rebuilt, so ties still
go to the lowest index, the engine's row).
"""
from __future__ import annotations

from simcore.games.capybara.codes import (COMPLETE, COPY_TOKENS, GATHER, PLACE, PLACE_OTHERS,
                                          SYM_DOUBLE_TOKENS)
from simcore.games.capybara.decisions import effect_decision
from simcore.games.capybara.jit import kernel
from simcore.games.capybara.state import (O_LOCK_N, O_SFAT, O_SLOT, O_SUP, O_TOK, O_TOK2,
                                          R_DBL_FACTOR, R_DISCARD_PLACE, R_M, R_P)
from simcore.games.capybara.table import banned_for, mult, seat_after, symbol, targets

from .batch_evaluation import gather_e, gather_removal, option_e, place_e, row_value, row_value_plus, scratch


@kernel
def score_options(g, rk, s, now, eff, amount, colour, actor, oo, n):
    """(lowest E(s) after one of the n option rows at g[oo:] of an effect, its index; ties to
    the lowest): option_e of each, GATHER's per-seat part once per seat (its rows come
    grouped by seat)."""
    best, arg, seat, removal, moved = now, 0, -1, 0, 0
    if eff == PLACE:                   # the commonest effect: option_e's place path, call-free
        for k in range(n):
            a, b = g[oo + 2 * k], g[oo + 2 * k + 1]
            e = place_e(g, rk, s, now, a, b, amount * mult(g, rk, b, eff, True))
            if k == 0 or e < best:
                best, arg = e, k
        return best, arg
    for k in range(n):
        a, b = g[oo + 2 * k], g[oo + 2 * k + 1]
        if eff == GATHER:
            if a != seat:
                seat = a
                removal, moved = gather_removal(g, rk, s, a, colour)
            e = gather_e(g, rk, s, now, colour, a, b, removal, moved)
        else:
            e = option_e(g, rk, s, now, eff, amount, colour, actor, a, b)
        if k == 0 or e < best:
            best, arg = e, k
    return best, arg


@kernel
def place_scan(g, rk, s, now, first, k, mask, dbl):
    """(lowest E(s) after seat x places k tokens (times the slot's factor if dbl, limited by
    its supply) on slot i, its index, their number) over the rows effect_options writes for
    PLACE: seat x from `first` on with supply, then slot i of `mask`; place_value's sum
    inlined and scanned slot by slot (a slot's factor, most tokens and V_i read once), the
    seat-major index kept so ties still go to the lowest row."""
    P, m = rk[R_P], rk[R_M]
    vv, _ = scratch(rk)
    os, of = rk[O_SUP], rk[O_SFAT]
    nt, ns = 0, 0
    for i in range(m):
        if (mask >> i) & 1:
            nt += 1
    for x in range(P):
        if g[os + x] >= 1:
            ns += 1
    best, arg = now, 0
    if nt == 0 or ns == 0:
        return best, arg, 0
    ti = 0
    for i in range(m):
        if not (mask >> i) & 1:
            continue
        f = g[of + i]
        ot = rk[O_TOK] + i * P
        kf = k * rk[R_DBL_FACTOR] if dbl and symbol(g, rk, i) == SYM_DOUBLE_TOKENS else k
        b0, c0 = g[vv + m + i], g[vv + 2 * m + i]
        base = now - g[vv + i]
        ts = g[ot + s]
        r = 0
        for j in range(P):
            x = first + j if first + j < P else first + j - P     # (first + j) % P without a division
            sx = g[os + x]
            if sx < 1:
                continue
            e = base
            if f != 0:
                kk = min(kf, sx)
                tx = g[ot + x] + kk
                b, c = b0, c0
                if tx > b:
                    b, c = tx, 1
                elif tx == b and kk > 0:
                    c += 1
                if b != 0:
                    mine = tx if x == s else ts
                    lead = 2 if c == 1 else 1
                    e += f * lead * (P - c) if mine == b else -f * lead * c
            idx = r * nt + ti
            if idx == 0 or e < best or (e == best and idx < arg):
                best, arg = e, idx
            r += 1
        ti += 1
    return best, arg, ns * nt


@kernel
def best_place(g, rk, s, amount, colour, actor, now):
    """best_effect of PLACE without writing its option rows: effect_options' rows (seat x
    from the actor on, with supply; slot i a target) scored as score_options does, so the
    index is the one of the engine's row."""
    return place_scan(g, rk, s, now, actor, amount, targets(g, rk, colour), True)


@kernel
def best_gather(g, rk, s, colour, actor, now):
    """best_effect of GATHER without writing its option rows: effect_options' rows (seat x
    from the actor on with a token on a strike it can be removed from, then slot b a target)
    scored in row order as gather_e scores them, so the index is the one of the engine's row.
    A seat's removals (V_i's change, tokens) are found once per slot, in the look-ahead
    tokens' words (free here), and the destination's gain is O(1) (place_value)."""
    P, m = rk[R_P], rk[R_M]
    ot, of = rk[O_TOK], rk[O_SFAT]
    vv, _ = scratch(rk)
    dv, dt = rk[O_TOK2], rk[O_TOK2] + m
    tg = targets(g, rk, colour)
    if tg == 0:
        return now, 0, 0
    # a token may leave the options' targets tg (live symbols, as effect_options) and, in the
    # look-ahead, every unlocked strike not banned by its printed symbol (source)
    source = 0
    for i in range(m):
        if g[rk[O_LOCK_N] + i] == 0 and not banned_for(g, rk, i, colour, True):
            source |= 1 << i
    best, arg, n = now, 0, 0
    for j in range(P):
        x = seat_after(actor, j, P)
        has = False
        for i in range(m):
            if (tg >> i) & 1 and g[ot + i * P + x] > 0:
                has = True
        if not has:
            continue
        removal, moved = 0, 0
        for i in range(m):
            t = g[ot + i * P + x] if (source >> i) & 1 else 0
            d = row_value_plus(g, rk, i, s, x, -t) - g[vv + i] if t > 0 else 0
            g[dv + i], g[dt + i] = d, t
            removal += d
            moved += t
        for b in range(m):
            if not (tg >> b) & 1:
                continue
            e = now + removal - g[dv + b] - g[vv + b]
            f = g[of + b]
            if f != 0:                 # place_value(b, s, x, moved - t_b), inlined
                k = moved - g[dt + b]
                bb, c = g[vv + m + b], g[vv + 2 * m + b]
                tx = g[ot + b * P + x] + k
                if tx > bb:
                    bb, c = tx, 1
                elif tx == bb and k > 0:
                    c += 1
                if bb != 0:
                    mine = tx if s == x else g[ot + b * P + s]
                    lead = 2 if c == 1 else 1
                    e += f * lead * (P - c) if mine == bb else -f * lead * c
            if n == 0 or e < best:
                best, arg = e, n
            n += 1
    return best, arg, n


@kernel
def best_others(g, rk, s, amount, colour, actor, now):
    """best_effect of PLACE_OTHERS without option rows (slot i a target, ascending): option_e's
    score of each."""
    P, m = rk[R_P], rk[R_M]
    vv, add = scratch(rk)
    tg = targets(g, rk, colour)
    best, arg, n = now, 0, 0
    for i in range(m):
        if not (tg >> i) & 1:
            continue
        k = amount * mult(g, rk, i, PLACE_OTHERS, True)
        for x in range(P):
            g[add + x] = 0 if x == actor else min(k, g[rk[O_SUP] + x])
        e = now - g[vv + i] + row_value(g, rk, i, s, add)
        if n == 0 or e < best:
            best, arg = e, n
        n += 1
    return best, arg, n


@kernel
def best_complete(g, rk, s, now):
    """best_effect of COMPLETE without option rows (slot i with a strike and a leader,
    ascending): option_e's score of each, the leader read from values_now's best/count."""
    P, m = rk[R_P], rk[R_M]
    vv, _ = scratch(rk)
    best, arg, n = now, 0, 0
    for i in range(m):
        bb, c = g[vv + m + i], g[vv + 2 * m + i]
        if g[rk[O_SLOT] + i] < 0 or bb == 0 or c != 1:
            continue
        f = g[rk[O_SFAT] + i]
        e = now - g[vv + i] + 2 * f * (P - 1 if g[rk[O_TOK] + i * P + s] == bb else -1)
        if n == 0 or e < best:
            best, arg = e, n
        n += 1
    return best, arg, n


@kernel
def best_copy(g, rk, s, amount, colour, now):
    """best_effect of COPY_TOKENS without option rows ((source, destination) pairs,
    lexicographic): option_e's score of each, a source's copied tokens found once."""
    P, m = rk[R_P], rk[R_M]
    ot = rk[O_TOK]
    vv, add = scratch(rk)
    tg = targets(g, rk, colour)
    best, arg, n = now, 0, 0
    if tg == 0:
        return best, arg, n
    for src in range(m):
        if g[rk[O_SLOT] + src] < 0:
            continue
        tot = 0
        for x in range(P):
            c = g[ot + src * P + x]
            tot += c
            if amount > 0:
                c = min(c, amount)
            g[add + x] = min(c, g[rk[O_SUP] + x])
        if tot == 0:
            continue
        for i in range(m):
            if i == src or not (tg >> i) & 1:
                continue
            e = now - g[vv + i] + row_value(g, rk, i, s, add)
            if n == 0 or e < best:
                best, arg = e, n
            n += 1
    return best, arg, n


@kernel
def best_effect(g, rk, s, eff, amount, colour, actor, now):
    """(lowest E(s) over the effect's options (E now without any), its index, their number),
    each effect scored without writing its option rows."""
    if effect_decision(eff) < 0:
        return now, 0, 0
    if eff == PLACE:
        return best_place(g, rk, s, amount, colour, actor, now)
    if eff == GATHER:
        return best_gather(g, rk, s, colour, actor, now)
    if eff == PLACE_OTHERS:
        return best_others(g, rk, s, amount, colour, actor, now)
    if eff == COMPLETE:
        return best_complete(g, rk, s, now)
    if eff == COPY_TOKENS:
        return best_copy(g, rk, s, amount, colour, now)
    n = 0                              # LOCK: changes no E, every option scores E now (option 0)
    for i in range(rk[R_M]):
        if g[rk[O_SLOT] + i] >= 0:
            n += 1
    return now, 0, n


@kernel
def best_discard_place(g, rk, s, now):
    """Lowest E(s) over the DISCARD_PLACE options (E now if there are none)."""
    mask = 0
    for i in range(rk[R_M]):
        if g[rk[O_SLOT] + i] >= 0 and g[rk[O_LOCK_N] + i] == 0:
            mask |= 1 << i
    return place_scan(g, rk, s, now, s, rk[R_DISCARD_PLACE], mask, False)[0]
