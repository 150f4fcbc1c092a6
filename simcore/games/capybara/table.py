"""The strike row, compiled: leaders, placements, option lists of the card effects, and the
token effects on either the real arrays or the bots' look-ahead copies (contract 5, 7).

`sim` selects the arrays: False = the game's tokens/supply/slot fatigue/taken fatigue,
True = their copies (O_TOK2, ...) that a bot plays an option on to look ahead ("after o", contract 13).
Everything else (strikes, locks, symbols) is read from the real state: an effect never
changes it before it is applied for real.

Knockouts: a strike row with active = 0 keeps its printed symbol for the bots
(`symbol`, and every look-ahead with sim=True) but the rules ignore it (`live`): the
look-ahead believes the symbol works, the real arrays see a plain strike.
"""
from __future__ import annotations

from .codes import (COMPLETE, COPY_TOKENS, GATHER, LOCK, PLACE, PLACE_OTHERS, SYM_BANNED,
                    SYM_DOUBLE_TOKENS)
from .jit import kernel
from .state import (O_LOCK_N, O_SFAT, O_SFAT2, O_SLOT, O_SUP, O_SUP2, O_TFAT, O_TFAT2, O_TOK,
                    O_TOK2, R_DBL_FACTOR, R_M, R_P, T_SACT, T_SCOL, T_SSYM)


@kernel(inline=True)
def seat_after(actor, j, P):
    """The seat j places after `actor` around the table: (actor + j) % P for 0 <= j < P,
    without a division (measured: the place loops' hot spot, docs/games/capybara.md)."""
    return actor + j if actor + j < P else actor + j - P


@kernel(inline=True)
def offsets(rk, sim):
    """(tokens, supply, slot fatigue, taken fatigue) offsets of the real or look-ahead arrays."""
    if sim:
        return rk[O_TOK2], rk[O_SUP2], rk[O_SFAT2], rk[O_TFAT2]
    return rk[O_TOK], rk[O_SUP], rk[O_SFAT], rk[O_TFAT]


@kernel
def to_sim(g, rk):
    """Copy the real token/fatigue arrays into the look-ahead arrays."""
    P, m = rk[R_P], rk[R_M]
    a, b = rk[O_TOK], rk[O_TOK2]
    for k in range(m * P):
        g[b + k] = g[a + k]
    for k in range(P):
        g[rk[O_SUP2] + k] = g[rk[O_SUP] + k]
        g[rk[O_TFAT2] + k] = g[rk[O_TFAT] + k]
    for k in range(m):
        g[rk[O_SFAT2] + k] = g[rk[O_SFAT] + k]


@kernel(inline=True)
def leader(g, rk, ot, i):
    """Contract 7.1: the seat with strictly the most tokens (>= 1) on slot i, else -1."""
    P = rk[R_P]
    best, who, tied = 0, -1, False
    for s in range(P):
        t = g[ot + i * P + s]
        if t > best:
            best, who, tied = t, s, False
        elif t == best and t > 0:
            tied = True
    return -1 if tied else who


@kernel(inline=True)
def symbol(g, rk, i):
    """Printed symbol code (in force by p.symbols) of the strike in slot i (0: none or empty
    slot): what the bots see and what decisions are asked for."""
    u = g[rk[O_SLOT] + i]
    return 0 if u < 0 else rk[rk[T_SSYM] + u]


@kernel
def live(g, rk, i):
    """The strike in slot i is not knocked out (its row's active flag): its symbol works."""
    u = g[rk[O_SLOT] + i]
    return u >= 0 and rk[rk[T_SACT] + u] == 1


@kernel
def banned_for(g, rk, i, colour, sim):
    """Slot i is banned for `colour`: for the rules (sim False) only if the strike is live."""
    u = g[rk[O_SLOT] + i]
    return (u >= 0 and colour >= 0 and rk[rk[T_SSYM] + u] == SYM_BANNED and rk[rk[T_SCOL] + u] == colour
            and (sim or rk[rk[T_SACT] + u] == 1))


@kernel
def is_target(g, rk, i, colour):
    """A placement target for a card of `colour` (-1: not a card): strike, unlocked, not banned."""
    return g[rk[O_SLOT] + i] >= 0 and g[rk[O_LOCK_N] + i] == 0 and not banned_for(g, rk, i, colour, False)


@kernel
def place(g, rk, sim, x, i, k):
    """Seat x places k tokens on slot i (limited by its supply); returns how many moved."""
    ot, os, _, _ = offsets(rk, sim)
    k = min(k, g[os + x])
    g[os + x] -= k
    g[ot + i * rk[R_P] + x] += k
    return k


@kernel
def mult(g, rk, i, eff, sim):
    """Token factor of slot i for `eff`; the rules (sim False) double only on a live strike."""
    if (eff == PLACE or eff == PLACE_OTHERS) and symbol(g, rk, i) == SYM_DOUBLE_TOKENS and (sim or live(g, rk, i)):
        return rk[R_DBL_FACTOR]
    return 1


@kernel
def targets(g, rk, colour):
    """Bit i set iff slot i is a placement target for a card of `colour`."""
    mask = 0
    for i in range(rk[R_M]):
        if is_target(g, rk, i, colour):
            mask |= 1 << i
    return mask


@kernel
def effect_options(g, rk, eff, colour, actor, oo):
    """Contract 5's option list of `eff` for a card of `colour` played by `actor`, written as
    rows (a, b) at g[oo:]; returns their number (0: the effect does nothing)."""
    P, m = rk[R_P], rk[R_M]
    ot, os = rk[O_TOK], rk[O_SUP]
    n = 0
    if eff == PLACE or eff == PLACE_OTHERS or eff == GATHER or eff == COPY_TOKENS:
        tg = targets(g, rk, colour)
        if tg == 0:
            return 0
    if eff == PLACE:
        for j in range(P):
            x = seat_after(actor, j, P)
            if g[os + x] >= 1:
                for i in range(m):
                    if (tg >> i) & 1:
                        g[oo + 2 * n] = x
                        g[oo + 2 * n + 1] = i
                        n += 1
    elif eff == PLACE_OTHERS or eff == LOCK:
        for i in range(m):
            if (eff == LOCK and g[rk[O_SLOT] + i] >= 0) or (eff == PLACE_OTHERS and (tg >> i) & 1):
                g[oo + 2 * n] = i
                g[oo + 2 * n + 1] = -1
                n += 1
    elif eff == COMPLETE:
        for i in range(m):
            if g[rk[O_SLOT] + i] >= 0 and leader(g, rk, ot, i) >= 0:
                g[oo + 2 * n] = i
                g[oo + 2 * n + 1] = -1
                n += 1
    elif eff == GATHER:
        # a token may leave exactly the strikes it could be placed on (is_target): tg
        for j in range(P):
            x = seat_after(actor, j, P)
            has = False
            for i in range(m):
                if (tg >> i) & 1 and g[ot + i * P + x] > 0:
                    has = True
            if has:
                for i in range(m):
                    if (tg >> i) & 1:
                        g[oo + 2 * n] = x
                        g[oo + 2 * n + 1] = i
                        n += 1
    elif eff == COPY_TOKENS:
        for src in range(m):
            if g[rk[O_SLOT] + src] < 0:
                continue
            tot = 0
            for s in range(P):
                tot += g[ot + src * P + s]
            if tot == 0:
                continue
            for i in range(m):
                if i != src and (tg >> i) & 1:
                    g[oo + 2 * n] = src
                    g[oo + 2 * n + 1] = i
                    n += 1
    return n


@kernel
def sim_take(g, rk, i):
    """Look-ahead of a strike taken (contract 13): its fatigue to its leader, its tokens home,
    the slot counted empty (no refill, no gifts)."""
    P = rk[R_P]
    ot, os, of, otf = offsets(rk, True)
    L = leader(g, rk, ot, i)
    if L < 0:
        return
    g[otf + L] += g[of + i]
    g[of + i] = 0
    for s in range(P):
        g[os + s] += g[ot + i * P + s]
        g[ot + i * P + s] = 0


@kernel
def apply_tokens(g, rk, sim, eff, amount, colour, actor, a, b):
    """The token effects (place, place_others, gather, copy_tokens) of option (a, b), and on
    the look-ahead arrays `complete` too; `lock` moves no token."""
    P, m = rk[R_P], rk[R_M]
    ot, os, _, _ = offsets(rk, sim)
    if eff == PLACE:
        place(g, rk, sim, a, b, amount * mult(g, rk, b, eff, sim))
    elif eff == PLACE_OTHERS:
        k = amount * mult(g, rk, a, eff, sim)
        for j in range(1, P):
            place(g, rk, sim, seat_after(actor, j, P), a, k)
    elif eff == GATHER:
        for i in range(m):
            if i != b and g[rk[O_SLOT] + i] >= 0 and g[rk[O_LOCK_N] + i] == 0 and not banned_for(g, rk, i, colour, sim):
                g[ot + b * P + a] += g[ot + i * P + a]
                g[ot + i * P + a] = 0
    elif eff == COPY_TOKENS:
        for j in range(P):
            x = seat_after(actor, j, P)
            k = g[ot + a * P + x]
            if amount > 0:
                k = min(k, amount)
            place(g, rk, sim, x, b, k)
    elif eff == COMPLETE and sim:
        sim_take(g, rk, a)
