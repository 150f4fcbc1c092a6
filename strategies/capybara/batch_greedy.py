"""The greedy bot's compiled (batch) form: contract section 13, decision by decision, as a
C-callable policy of simcore/games/capybara/decisions.py's interface.

"After o" is played on the engine's look-ahead arrays (table.to_sim, apply_tokens with
sim=True): tokens placed or moved and strikes taken, nothing hidden (no gifts, refills,
answers, doubling or draws). Ties go to the lowest option index.

Restricted play (strategies/restrict.py's rule): `decide_greedy(..., mode, ent)`
with mode FAVOR or AVOID and a card name id `ent` chooses, at ACTION (play a card), NEXT_CARD
(play another) and CANCEL (yes = answer with the lowest-uid Capybaranka in hand), among the
options that play a card named `ent` (favor) or those that do not (avoid). The greedy's
data are its script rows: row 0 [mode, ent] (PLAIN, -1 unrestricted), then its weights
(rules._pack writes a seat's script rows into every game's array; they stay put across
games): read at run time, so neither a restriction nor a weights file recompiles anything.
"""
from __future__ import annotations

from simcore.games.capybara.codes import (CANCEL, COMPLETE, COPY_TOKENS, GATHER, SYM_BANNED, SYM_DOUBLE_TOKENS, D_ACTION, D_CANCEL, D_COMPLETE,
                                          D_COPY_TOKENS, D_CROWN_COMPLETE, D_DISCARD_PLACE,
                                          D_DOUBLE, D_GATHER, D_LOCK, D_NEXT_CARD, D_OPENING,
                                          D_PEEK, D_PLACE, D_PLACE_OTHERS, LOCK, PLACE,
                                          PLACE_OTHERS)
from simcore.games.capybara.decisions import (C_ACTOR, C_AMOUNT, C_COLOUR, C_DECLARED, C_DEPTH,
                                              C_EFFECT, C_OPT_A, C_OPT_B, C_SLOT, effect_decision,
                                              effective_effect)
from simcore.games.capybara.jit import kernel, policy
from simcore.games.capybara.state import (G_DTOP, G_GAME, G_TURN, O_CTX, O_DCNT, O_DECK, O_HAND, O_LOCK_N, O_OPTS, O_OPTS2, O_SFAT,
                                          O_SLOT, O_SUP, O_TFAT, O_TMP, O_TOK, O_TOK2, R_DBL_FACTOR, R_DISCARD_PLACE, R_M, R_N, R_OPENING,
                                          R_L, R_P, O_SCRIPT, T_CCOL, T_CEFF, T_CNAME)
from simcore.games.capybara.table import (apply_tokens, seat_after, banned_for, leader, mult, symbol, sim_take,
                                          targets, to_sim)

from .batch_evaluation import evaluate

# The weights (weights/default.toml, or the file of `greedy:weights=FILE`) ride in the seat's
# script rows after row 0 ([mode, ent]), in default.toml's order: read at run time, so a
# new weights file compiles nothing (registered.greedy_script writes them).
W_KEEP_CANCEL, W_CANCEL_FATIGUE, W_NEXT_CARD, W_DOUBLE, W_CROWN = range(5)
N_WEIGHTS = 5                 # weights/default.toml's [weights], in this order


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


@kernel
def lock_choice(g, rk, s, n):
    """The first slot led by another seat with the highest fatigue; else option 0."""
    best, arg = -1, 0
    for k in range(n):
        i = g[rk[O_OPTS] + 2 * k]
        L = leader(g, rk, rk[O_TOK], i)
        if L >= 0 and L != s and g[rk[O_SFAT] + i] > best:
            best, arg = g[rk[O_SFAT] + i], k
    return arg


@kernel
def peek_choice(g, rk, s):
    """Revolutions first when the others lead more fatigue than s (times P - 1), else last;
    the rank of that permutation in itertools order."""
    P, m, N = rk[R_P], rk[R_M], rk[R_N]
    mine, others = 0, 0
    for i in range(m):
        L = leader(g, rk, rk[O_TOK], i)
        if L == s:
            mine += g[rk[O_SFAT] + i]
        elif L >= 0:
            others += g[rk[O_SFAT] + i]
    good = others > (P - 1) * mine
    k = g[rk[O_CTX] + C_SLOT]
    top = rk[O_DECK] + g[G_DTOP]
    oo = rk[O_OPTS2]
    w = 0
    for first in (True, False):
        for j in range(k):
            rev = g[top + j] >= N
            if rev == (good == first):
                g[oo + w] = j
                w += 1
    rank = 0
    for j in range(k):
        smaller = 0
        for r in range(j + 1, k):
            if g[oo + r] < g[oo + j]:
                smaller += 1
        f = 1
        for r in range(2, k - j):
            f *= r
        rank += smaller * f
    return rank


PLAIN, FAVOR, AVOID = 0, 1, 2


# The card memo (ACTION and NEXT_CARD): cards with the same effective effect (and colour,
# when a banned_colour strike is out) score the same, so each is scored once; the row also
# keeps its best option, which the card's effect decision asked next (same state, same
# option rows) returns without scoring them again. Header: the game, turn, seat and that
# seat's decision count of the decision that wrote it, then the number of rows.
MEMO_GAME, MEMO_TURN, MEMO_SEAT, MEMO_DCOUNT, MEMO_ROWS, MEMO_HEAD = range(6)
ROW_EFF, ROW_AMOUNT, ROW_COLOUR, ROW_E, ROW_ARG, ROW_N, ROW_SIZE = range(7)


@kernel
def banned_out(g, rk):
    """A banned_colour strike is out: a card's colour changes its options."""
    for i in range(rk[R_M]):
        if symbol(g, rk, i) == SYM_BANNED:
            return True
    return False


@kernel(inline=True)
def memo_at(rk):
    _, add = scratch(rk)
    return add + rk[R_P]


@kernel
def memo_open(g, rk, s):
    """An empty memo, stamped with this decision of seat s."""
    at = memo_at(rk)
    g[at + MEMO_GAME], g[at + MEMO_TURN], g[at + MEMO_SEAT] = g[G_GAME], g[G_TURN], s
    g[at + MEMO_DCOUNT], g[at + MEMO_ROWS] = g[rk[O_DCNT] + s], 0


@kernel
def card_value(g, rk, s, card, now, banned):
    """E(s) after s plays `card` with its best option (best_effect), from the memo if a card
    with the same effect was scored in this decision."""
    eff, amount = effective_effect(g, rk, card)
    colour = rk[rk[T_CCOL] + card] if banned else -1
    at = memo_at(rk)
    rows = g[at + MEMO_ROWS]
    for r in range(rows):
        row = at + MEMO_HEAD + ROW_SIZE * r
        if g[row + ROW_EFF] == eff and g[row + ROW_AMOUNT] == amount and g[row + ROW_COLOUR] == colour:
            return g[row + ROW_E]
    e, arg, n = best_effect(g, rk, s, eff, amount, rk[rk[T_CCOL] + card], s, now)
    row = at + MEMO_HEAD + ROW_SIZE * rows
    g[row + ROW_EFF], g[row + ROW_AMOUNT], g[row + ROW_COLOUR] = eff, amount, colour
    g[row + ROW_E], g[row + ROW_ARG], g[row + ROW_N] = e, arg, n
    g[at + MEMO_ROWS] = rows + 1
    return e


@kernel
def memo_choice(g, rk, s, eff, amount, colour, n):
    """The best option the memo holds for this effect decision of s (-1: none): only right
    after s's ACTION / NEXT_CARD decision wrote it (the next decision of s in the same turn
    of the same game), so the state and the option rows are the ones it scored."""
    at = memo_at(rk)
    if (g[at + MEMO_GAME] != g[G_GAME] or g[at + MEMO_TURN] != g[G_TURN] or g[at + MEMO_SEAT] != s
            or g[at + MEMO_DCOUNT] + 1 != g[rk[O_DCNT] + s]):
        return -1
    if not banned_out(g, rk):
        colour = -1
    for r in range(g[at + MEMO_ROWS]):
        row = at + MEMO_HEAD + ROW_SIZE * r
        if (g[row + ROW_EFF] == eff and g[row + ROW_AMOUNT] == amount and g[row + ROW_COLOUR] == colour
                and g[row + ROW_N] == n):
            return g[row + ROW_ARG]
    return -1


@kernel
def discard_value(g, rk, s, now, banned):
    """best_discard_place, or the memo's PLACE row of the same amount when that scan was the
    same one: no banned_colour strike out (so the targets are the discard's slots, unlocked
    strikes) and no double_tokens strike (the discard is never doubled)."""
    if not banned:
        dbl = False
        for i in range(rk[R_M]):
            if symbol(g, rk, i) == SYM_DOUBLE_TOKENS:
                dbl = True
        if not dbl:
            at = memo_at(rk)
            for r in range(g[at + MEMO_ROWS]):
                row = at + MEMO_HEAD + ROW_SIZE * r
                if g[row + ROW_EFF] == PLACE and g[row + ROW_AMOUNT] == rk[R_DISCARD_PLACE]:
                    return g[row + ROW_E]
    return best_discard_place(g, rk, s, now)


@kernel(inline=True)
def weight(g, rk, s, i):
    """Seat s's weight i, in E's units (fatigue per opponent x 2 (P - 1))."""
    return 2 * (rk[R_P] - 1) * g[rk[O_SCRIPT] + s * rk[R_L] * 2 + 2 + i]


@kernel
def lowest_cancel(g, rk, s):
    """The card a CANCEL yes plays: the lowest-uid cancel card in s's hand (-1: none)."""
    N = rk[R_N]
    for c in range(N):
        if g[rk[O_HAND] + s * N + c] and rk[rk[T_CEFF] + c] == CANCEL:
            return c
    return -1


@kernel
def option_hits(g, rk, kind, s, k, ent):
    """Whether option k plays a card named ent."""
    oo = rk[O_OPTS]
    card = -1
    if kind == D_ACTION and g[oo + 2 * k] == 0:
        card = g[oo + 2 * k + 1]
    elif kind == D_NEXT_CARD and k > 0:
        card = g[oo + 2 * k]
    elif kind == D_CANCEL and k == 1:
        card = lowest_cancel(g, rk, s)
    return card >= 0 and rk[rk[T_CNAME] + card] == ent


@kernel
def count_hits(g, rk, kind, s, n, mode, ent):
    if mode == PLAIN or not (kind == D_ACTION or kind == D_NEXT_CARD or kind == D_CANCEL):
        return 0
    hits = 0
    for k in range(n):
        if option_hits(g, rk, kind, s, k, ent):
            hits += 1
    return hits


@kernel
def option_ok(g, rk, kind, s, n, k, mode, ent, hits):
    """Whether option k may be chosen (strategies/restrict.py's rule)."""
    if mode == PLAIN or hits == 0 or (mode == AVOID and hits == n):
        return True
    return option_hits(g, rk, kind, s, k, ent) == (mode == FAVOR)


@kernel
def decide_greedy(g, rk, kind, s, n, mode, ent):
    ctx = rk[O_CTX]
    oo = rk[O_OPTS]
    hits = count_hits(g, rk, kind, s, n, mode, ent)
    if kind == D_CANCEL and hits > 0 and hits < n:
        return 1 if option_ok(g, rk, kind, s, n, 1, mode, ent, hits) else 0
    if kind == D_LOCK:
        return lock_choice(g, rk, s, n)
    if kind == D_PEEK:
        return peek_choice(g, rk, s)
    if (kind == D_PLACE or kind == D_PLACE_OTHERS or kind == D_COMPLETE or kind == D_GATHER
            or kind == D_COPY_TOKENS) and g[ctx + C_ACTOR] == s:
        # the effect decision right after s chose the card: its best option is in the memo
        k = memo_choice(g, rk, s, g[ctx + C_EFFECT], g[ctx + C_AMOUNT], g[ctx + C_COLOUR], n)
        if k >= 0:
            return k
    now = values_now(g, rk, s)          # E(s) now, and V_i per slot for the scorers below
    if kind == D_OPENING or kind == D_DISCARD_PLACE:
        k_tok = rk[R_OPENING] if kind == D_OPENING else rk[R_DISCARD_PLACE]
        best, arg = now, 0
        for k in range(n):
            if kind == D_OPENING:
                e = place_e(g, rk, s, now, s, g[oo + 2 * k], k_tok)
            else:
                e = place_e(g, rk, s, now, g[oo + 2 * k], g[oo + 2 * k + 1], k_tok)
            if k == 0 or e < best:
                best, arg = e, k
        return arg
    if (kind == D_PLACE or kind == D_PLACE_OTHERS or kind == D_COMPLETE or kind == D_GATHER
            or kind == D_COPY_TOKENS):
        eff, amount, colour, actor = g[ctx + C_EFFECT], g[ctx + C_AMOUNT], g[ctx + C_COLOUR], g[ctx + C_ACTOR]
        return score_options(g, rk, s, now, eff, amount, colour, actor, oo, n)[1]
    if kind == D_ACTION:
        best, arg, disc, scored = now, -1, now, False
        banned = banned_out(g, rk)
        memo_open(g, rk, s)
        for k in range(n):
            if not option_ok(g, rk, kind, s, n, k, mode, ent, hits):
                continue
            card = g[oo + 2 * k + 1]
            if g[oo + 2 * k] == 0:
                e = card_value(g, rk, s, card, now, banned)
            else:
                if not scored:         # the discards follow the plays: their scan may be a play's
                    disc, scored = discard_value(g, rk, s, now, banned), True
                e = disc
                if rk[rk[T_CEFF] + card] == CANCEL:
                    e += weight(g, rk, s, W_KEEP_CANCEL)
            if arg < 0 or e < best:
                best, arg = e, k
        return max(arg, 0)
    if kind == D_NEXT_CARD:
        # stop (option 0) unless a card beats the board now; a favouring bot must play one
        best, arg = now - weight(g, rk, s, W_NEXT_CARD), 0 if option_ok(g, rk, kind, s, n, 0, mode, ent, hits) else -1
        banned = banned_out(g, rk)
        memo_open(g, rk, s)
        for k in range(1, n):
            if not option_ok(g, rk, kind, s, n, k, mode, ent, hits):
                continue
            e = card_value(g, rk, s, g[oo + 2 * k], now, banned)
            if arg < 0 or e < best:
                best, arg = e, k
        return max(arg, 0)
    if kind == D_CANCEL:
        value = 0
        if g[ctx + C_DECLARED]:
            value = option_e(g, rk, s, now, g[ctx + C_EFFECT], g[ctx + C_AMOUNT], g[ctx + C_COLOUR],
                             g[ctx + C_ACTOR], g[ctx + C_OPT_A], g[ctx + C_OPT_B]) - now
        if g[ctx + C_DEPTH] % 2 == 1:
            value = -value
        return 1 if value >= weight(g, rk, s, W_CANCEL_FATIGUE) else 0
    if kind == D_DOUBLE:
        best, _, m = best_effect(g, rk, s, g[ctx + C_EFFECT], g[ctx + C_AMOUNT], g[ctx + C_COLOUR],
                                 g[ctx + C_ACTOR], now)
        return 1 if m > 0 and best < now - weight(g, rk, s, W_DOUBLE) else 0
    if kind == D_CROWN_COMPLETE:
        i = g[ctx + C_SLOT]
        to_sim(g, rk)
        sim_take(g, rk, i)
        for j in (i - 1, i + 1):
            if 0 <= j < rk[R_M] and g[rk[O_SLOT] + j] >= 0:
                sim_take(g, rk, j)
        return 1 if evaluate(g, rk, True, s) < evaluate(g, rk, False, s) - weight(g, rk, s, W_CROWN) else 0
    return 0


@policy
def greedy_policy(g, rk, kind, seat, n, h):
    at = rk[O_SCRIPT] + seat * rk[R_L] * 2          # the seat's first script row: [mode, ent]
    return decide_greedy(g, rk, kind, seat, n, g[at], g[at + 1])
