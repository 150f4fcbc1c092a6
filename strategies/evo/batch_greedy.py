"""The greedy bot's compiled form (docs/games/evo.md section 13, tie-breaks included): a
C-callable policy of simcore/games/evo/decisions.py's interface. It reads the packed
state and writes only the policies' scratch (O_PTMP): its memo of zone values (below), then
a score per option (`scores_at`).
Ties between the best options are broken by the decision's bot-stream key `h`. Its data
are its script rows: row 0 [mode, ent] (PLAIN, -1 unrestricted; `greedy+favor:GENE` /
`greedy+avoid:GENE`, strategies/evo/restricted.py), then its weights two to a row
(weights/default.toml's [weights] order, registered.greedy_script): read at run time, so
neither a restriction nor a weights file recompiles anything.

Speed: numba does not inline one compiled function into another by itself, and each call
passed g and rk with reference counting (the build now runs without it); the helpers of the per-option loop are therefore
inlined (`kernel(inline=True)`), and a zone's `value` (the costly part) is computed once
per seat and key, not twice per option (see `memo`)."""
from __future__ import annotations

import numpy as np

from simcore.games.evo.codes import (A_DIFF, A_WIN, B_WIN, COLD, D_ADRENALINE, D_BID, D_BIRTH, D_DIE,
                                     D_ESCAPE, D_EVENT, D_MOVE, D_SHIFT, EV_FRENZY, EV_GEYSERS, EV_PRESCIENCE,
                                     EV_RATS, HOT, IDEAL, M_ATTACK, N_TRAITS, T_ATTACK, T_DEFENCE, T_EGGS, T_FLOOR,
                                     T_FUR, T_SIXTH, T_THERMO, T_VIALS)
from simcore.games.evo.jit import kernel, policy
from simcore.games.evo.schema import GENE_EFFECTS
from simcore.games.evo.state import (G_INFO, G_PILE_N, G_PILE_TOP, G_SECTOR, G_TOKEN_SHIFT, O_COUNT,
                                     O_FRENZY, O_LAB_GENE, O_OPTS, O_OWNER, O_PILE, O_PTMP, O_SCRIPT,
                                     O_TRAIT, PMEM_HEAD, R_CAP,
                                     R_DEG, R_F, R_L, R_MAX_BID, R_MIN_COST, R_NSH, R_P, R_S, R_T, R_Z, X_CLKIND,
                                     X_CLSHIFT, X_FATT, X_FBABY, X_FNEED, X_GAMT, X_GEFF, X_IDIST, X_NB,
                                     X_NBN, X_PSH, X_TERR, X_WHEEL)

from simcore.games.evo.batch_bits import drop_first, first, set_word, word, words
from simcore.games.evo.state import O_ZSETS, X_NBM, ZBITS

from .batch_bots import below

# The weights (weights/default.toml, or the file of `greedy:weights=FILE`) ride in the seat's
# script rows after row 0; these are their positions (default.toml's [weights] order): a
# new weights file compiles nothing (registered.greedy_script writes them).
W_SAFE, NEAR_CAP, W_NOW, KILL, EVENT_WORTH, WORTH = range(6)     # WORTH: the first worth_<effect>
WEIGHT_NAMES = (("w_safe", "near_cap", "w_now", "kill", "event_worth")
                + tuple(f"worth_{e}" for e in GENE_EFFECTS))      # worth_* by effect code
N_WEIGHTS = len(WEIGHT_NAMES)
_NEG = -(1 << 60)


@kernel(inline=True)
def wt(g, rk, s, i):
    """Seat s's weight i (its script rows from row 1, two weights a row)."""
    return g[rk[O_SCRIPT] + s * rk[R_L] * 2 + 2 + i]


@kernel
def safe(g, rk, s, sector, z):
    """2 on an ideal zone; 1 on a hot one with thermo, a cold one with fur; else 0."""
    cl = rk[rk[X_WHEEL] + sector * rk[R_T] + rk[rk[X_TERR] + z]]
    if cl == IDEAL:
        return 2
    at = rk[O_TRAIT] + s * N_TRAITS
    if (cl == HOT and g[at + T_THERMO] >= 1) or (cl == COLD and g[at + T_FUR] >= 1):
        return 1
    return 0


@kernel(inline=True)
def look_sector(g, rk, s):
    """The sector after the next token, if s has an active Sixth sense and it is a shift
    token; else -1."""
    if g[rk[O_TRAIT] + s * N_TRAITS + T_SIXTH] != 1 or g[G_PILE_TOP] >= g[G_PILE_N]:
        return -1
    t = g[rk[O_PILE] + g[G_PILE_TOP]]
    if rk[rk[X_CLKIND] + t] != 0:
        return -1
    return (g[G_SECTOR] + rk[rk[X_CLSHIFT] + t]) % rk[R_S]


@kernel
def value(g, rk, s, ahead, z):
    """W_NOW x (W_SAFE x safe now - min(NEAR_CAP, distance to an ideal zone)), plus safe in
    the sector ahead (Sixth sense); `safe`'s rule written out (no call per memo miss)."""
    sector = g[G_SECTOR]
    wts = rk[O_SCRIPT] + s * rk[R_L] * 2 + 2
    at = rk[O_TRAIT] + s * N_TRAITS
    thermo, fur = g[at + T_THERMO] >= 1, g[at + T_FUR] >= 1
    wheel, T, terr = rk[X_WHEEL], rk[R_T], rk[rk[X_TERR] + z]
    cl = rk[wheel + sector * T + terr]
    sf = 2 if cl == IDEAL else (1 if (cl == HOT and thermo) or (cl == COLD and fur) else 0)
    near = min(g[wts + NEAR_CAP], rk[rk[X_IDIST] + sector * rk[R_Z] + z])
    v = g[wts + W_NOW] * (g[wts + W_SAFE] * sf - near)
    if ahead >= 0:
        cl = rk[wheel + ahead * T + terr]
        v += 2 if cl == IDEAL else (1 if (cl == HOT and thermo) or (cl == COLD and fur) else 0)
    return v


# The memo: per seat, in the policies' memory (the start of O_PTMP: state.PMEM_HEAD words and
# one per zone, kept through a game), the key words in the head
# [sector + 1, sector ahead, thermo, fur] (every input of `value` but the seat's weights and
# the tables, fixed during a game), then one value per zone (all filled when the key changes). A cleared
# scratch (setup, a loaded state) never matches a key (sector + 1 >= 1). Within a round the
# key changes at most at the climate and at the mutations' settle (the traits).
_UNSET = _NEG


@kernel(inline=True)
def scores_at(rk):
    """Where the options' scores go: after every seat's memo in the policies' scratch."""
    return rk[O_PTMP] + rk[R_P] * (PMEM_HEAD + rk[R_Z])

@kernel
def memo(g, rk, s, ahead):
    """Where seat s's memoised zone values start; cleared first if their key changed."""
    Z = rk[R_Z]
    at = rk[O_PTMP] + s * (PMEM_HEAD + Z)
    sector = g[G_SECTOR]
    thermo, fur = g[rk[O_TRAIT] + s * N_TRAITS + T_THERMO], g[rk[O_TRAIT] + s * N_TRAITS + T_FUR]
    if g[at] != sector + 1 or g[at + 1] != ahead or g[at + 2] != thermo or g[at + 3] != fur:
        g[at], g[at + 1], g[at + 2], g[at + 3] = sector + 1, ahead, thermo, fur
        # every zone's value at once (`value`'s rule): its safe parts depend on its terrain
        # only, so they are summed per terrain first (in the options' scratch, free here),
        # then each zone less W_NOW x its capped distance; the scorers then read
        # g[vals + zone] with no test
        wts = rk[O_SCRIPT] + s * rk[R_L] * 2 + 2
        w_now, w_safe, cap = g[wts + W_NOW], g[wts + W_SAFE], g[wts + NEAR_CAP]
        th, fu = thermo >= 1, fur >= 1
        wheel, T, terr, idist = rk[X_WHEEL], rk[R_T], rk[X_TERR], rk[X_IDIST] + sector * Z
        base = scores_at(rk)
        for t in range(T):
            cl = rk[wheel + sector * T + t]
            v = w_now * w_safe * (2 if cl == IDEAL else (1 if (cl == HOT and th) or (cl == COLD and fu) else 0))
            if ahead >= 0:
                cl = rk[wheel + ahead * T + t]
                v += 2 if cl == IDEAL else (1 if (cl == HOT and th) or (cl == COLD and fu) else 0)
            g[base + t] = v
        vals = at + PMEM_HEAD
        for z in range(Z):
            set_word(g, vals + z, word(g, base + word(rk, terr + z)) - w_now * min(cap, word(rk, idist + z)))
    return at + PMEM_HEAD


@kernel
def fill_memo(g, rk, s, ahead, vals, k0, n, w):
    """Compute the memo's missing values of the zones in word w of option rows k0..n-1
    (a zone < 0: none); the scorers then read g[vals + zone], with no call in their loop
    (numba wraps every call, and every inlined body with a branch, in reference counts)."""
    at = rk[O_OPTS] + w               # (read once: g and rk may alias for LLVM)
    for k in range(k0, n):
        z = g[at + 3 * k]
        if z >= 0 and g[vals + z] == _UNSET:
            g[vals + z] = value(g, rk, s, ahead, z)


@kernel
def n_win(rk, A, D):
    n = 0
    fatt, fneed = rk[X_FATT], rk[X_FNEED]
    for f in range(rk[R_F]):
        res = word(rk, fatt + f)
        if res == A_WIN or (res == A_DIFF and A - D >= word(rk, fneed + f)):
            n += 1
    return n


@kernel(inline=True)
def row(g, rk, k, j):
    return g[rk[O_OPTS] + 3 * k + j]


@kernel(inline=True)
def protected(g, rk, x):
    return g[rk[O_COUNT] + x] <= g[rk[O_TRAIT] + x * N_TRAITS + T_FLOOR]


PLAIN, FAVOR, AVOID = 0, 1, 2      # restricted play (strategies/evo/restricted.py): the mode


@kernel(inline=True)
def bid_score(g, rk, s, k):
    c, v = row(g, rk, k, 0), row(g, rk, k, 1)
    if c == 0:
        worth = wt(g, rk, s, EVENT_WORTH)
    else:
        e = g[rk[O_LAB_GENE] + c]
        worth = min(rk[R_MAX_BID], wt(g, rk, s, WORTH + rk[rk[X_GEFF] + e]) * max(1, rk[rk[X_GAMT] + e]))
    return worth - max(rk[R_MIN_COST], v - g[rk[O_TRAIT] + s * N_TRAITS + T_VIALS])


@kernel
def move_scores(g, rk, s, ahead, vals, n, sc):
    """MOVE: 0 for stop; F x the gain in value; an attack: wins x (kill + gain), _NEG (never
    taken) if it wins on fewer than half the faces."""
    F, at = rk[R_F], rk[O_OPTS]
    g[sc] = 0
    for k in range(1, n):           # the memo filled as the options are read (one pass)
        kind, a, b = g[at + 3 * k], g[at + 3 * k + 1], g[at + 3 * k + 2]
        if g[vals + a] == _UNSET:
            g[vals + a] = value(g, rk, s, ahead, a)
        if g[vals + b] == _UNSET:
            g[vals + b] = value(g, rk, s, ahead, b)
        if kind == M_ATTACK:
            g[sc + k] = attack_score(g, rk, s, g[vals + b] - g[vals + a], b)
        else:
            g[sc + k] = F * (g[vals + b] - g[vals + a])


@kernel
def attack_score(g, rk, s, gain, b):
    F = rk[R_F]
    x = g[rk[O_OWNER] + b]
    A = g[rk[O_TRAIT] + s * N_TRAITS + T_ATTACK] + g[rk[O_FRENZY] + s]
    w = n_win(rk, A, g[rk[O_TRAIT] + x * N_TRAITS + T_DEFENCE])
    if 2 * w < F:
        return _NEG
    return w * (wt(g, rk, s, KILL) + gain)


@kernel
def birth_scores(g, rk, s, ahead, vals, babies, n, sc):
    """BIRTH: 0 for no birth; F x the value of t (babies x (kill + value) on an opponent's
    zone: Killer babies), less F x the value of the replaced r."""
    fill_memo(g, rk, s, ahead, vals, 1, n, 0)
    fill_memo(g, rk, s, ahead, vals, 1, n, 1)
    F, at, own = rk[R_F], rk[O_OPTS], rk[O_OWNER]
    kill = wt(g, rk, s, KILL)
    g[sc] = 0
    for k in range(1, n):
        r, t = g[at + 3 * k], g[at + 3 * k + 1]
        if g[own + t] >= 0:
            v = babies * (kill + g[vals + t])
        else:
            v = F * g[vals + t]
        if r >= 0:
            v -= F * g[vals + r]
        g[sc + k] = v


@kernel
def scores(g, rk, kind, s, n, ahead, vals, babies, sc):
    """Contract 13's score of every option into g[sc:sc + n] (_NEG: never taken); `vals`: s's
    memo (not for BID and SHIFT). One plain loop per kind: a loop over a branch on the
    kind of every inlined scorer compiled several times slower."""
    if kind == D_BID:
        for k in range(n):
            g[sc + k] = bid_score(g, rk, s, k)
    elif kind == D_MOVE:
        move_scores(g, rk, s, ahead, vals, n, sc)
    elif kind == D_BIRTH:
        birth_scores(g, rk, s, ahead, vals, babies, n, sc)
    elif kind == D_ESCAPE or kind == D_DIE:
        fill_memo(g, rk, s, ahead, vals, 0, n, 0)
        sign = 1 if kind == D_ESCAPE else -1          # the lowest value dies
        for k in range(n):
            g[sc + k] = sign * g[vals + row(g, rk, k, 0)]
    else:
        for k in range(n):
            g[sc + k] = safe_sum(g, rk, s, row(g, rk, k, 0))              # SHIFT


@kernel(inline=True)
def option_hits(g, rk, kind, k, ent):
    """Whether option k acquires gene name ent: a bid on the column holding it."""
    if kind != D_BID:
        return False
    c = row(g, rk, k, 0)
    return c > 0 and g[rk[O_LAB_GENE] + c] == ent


@kernel
def count_hits(g, rk, kind, n, mode, ent):
    if mode == PLAIN or kind != D_BID:
        return 0
    hits = 0
    for k in range(n):
        if option_hits(g, rk, kind, k, ent):
            hits += 1
    return hits


@kernel(inline=True)
def option_ok(g, rk, kind, n, k, mode, ent, hits):
    """Whether option k may be chosen (strategies/restrict.py's rule)."""
    if mode == PLAIN or hits == 0 or (mode == AVOID and hits == n):
        return True
    return option_hits(g, rk, kind, k, ent) == (mode == FAVOR)


# Plain play (no restriction) scores and picks in two passes per kind: the first writes
# each option's score at g[sc + k] and keeps the best `top` (a max, no branch on the data);
# `pick_tied` then lists the options scoring `top` in order over those scores and draws
# among them. The same choice as `choose`'s general path. A one-pass pick (the running
# best and its ties) branched on which option beats or ties the best, data a branch
# predictor often misses; g[sc + n:] is free for a pass's own caches.

@kernel
def pick_tied(g, sc, k0, n, top, floor, h):
    """Among options k0..n-1 scoring `top` (their scores at g[sc + k]), the below(h, m)-th of
    the m tied in option order; option 0 if top is the starting floor (MOVE and BIRTH: no
    option above 0). The tied indices overwrite the scores already read (m <= k)."""
    if top == floor:
        return 0
    m = 0
    for k in range(k0, n):
        v = word(g, sc + k)
        set_word(g, sc + m, k)
        m += np.int64(v == top)
    if m == 1:
        return g[sc]
    return g[sc + below(h, m)]


@kernel
def pick_bid(g, rk, s, n, h, sc):
    """BID; the worth of a column is computed once (the rows come by column)."""
    at, lab, geff, gamt = rk[O_OPTS], rk[O_LAB_GENE], rk[X_GEFF], rk[X_GAMT]
    maxbid, minc = rk[R_MAX_BID], rk[R_MIN_COST]
    vials = g[rk[O_TRAIT] + s * N_TRAITS + T_VIALS]
    wts = rk[O_SCRIPT] + s * rk[R_L] * 2 + 2
    top, last, worth = _NEG, -1, 0
    for k in range(n):
        c, v = word(g, at + 3 * k), word(g, at + 3 * k + 1)
        if c != last:
            last = c
            if c == 0:
                worth = g[wts + EVENT_WORTH]
            else:
                e = g[lab + c]
                worth = min(maxbid, g[wts + WORTH + rk[geff + e]] * max(1, rk[gamt + e]))
        x = worth - max(minc, v - vials)
        set_word(g, sc + k, x)
        top = max(top, x)
    return pick_tied(g, sc, 0, n, top, _NEG, h)


@kernel
def pick_move(g, rk, s, ahead, vals, n, h, sc):
    """MOVE (move_scores' scores): stop unless an option scores above 0; an attack's
    winning faces computed once per defender (cached at sc + n + defender)."""
    F, at, own, P = rk[R_F], rk[O_OPTS], rk[O_OWNER], rk[R_P]
    wc = sc + n
    for x in range(P):
        set_word(g, wc + x, -1)
    top = 0
    for k in range(1, n):
        kind, a, b = word(g, at + 3 * k), word(g, at + 3 * k + 1), word(g, at + 3 * k + 2)
        gain = word(g, vals + b) - word(g, vals + a)
        v = F * gain
        if kind == M_ATTACK:
            x = word(g, own + b)
            w = word(g, wc + x)
            if w < 0:
                A = g[rk[O_TRAIT] + s * N_TRAITS + T_ATTACK] + g[rk[O_FRENZY] + s]
                w = n_win(rk, A, g[rk[O_TRAIT] + x * N_TRAITS + T_DEFENCE])
                g[wc + x] = w
            v = w * (wt(g, rk, s, KILL) + gain) if 2 * w >= F else _NEG
        set_word(g, sc + k, v)
        top = max(top, v)
    return pick_tied(g, sc, 1, n, top, 0, h)


@kernel
def pick_birth(g, rk, s, ahead, vals, babies, n, h, sc):
    """BIRTH (birth_scores' scores): no birth unless an option scores above 0."""
    F, at, own = rk[R_F], rk[O_OPTS], rk[O_OWNER]
    kill = wt(g, rk, s, KILL)
    top = 0
    for k in range(1, n):
        r, t = word(g, at + 3 * k), word(g, at + 3 * k + 1)
        vt = word(g, vals + t)
        if word(g, own + t) >= 0:
            v = babies * (kill + vt)
        else:
            v = F * vt
        if r >= 0:
            v -= F * word(g, vals + r)
        set_word(g, sc + k, v)
        top = max(top, v)
    return pick_tied(g, sc, 1, n, top, 0, h)


@kernel
def pick_zone(g, rk, s, ahead, vals, n, h, sc, sign):
    """ESCAPE (sign 1) and DIE (sign -1: the lowest value dies)."""
    at = rk[O_OPTS]
    top = _NEG
    for k in range(n):
        v = sign * word(g, vals + word(g, at + 3 * k))
        set_word(g, sc + k, v)
        top = max(top, v)
    return pick_tied(g, sc, 0, n, top, _NEG, h)


@kernel(inline=True)
def choose_plain(g, rk, kind, s, n, h):
    """`choose` without a restriction: a scoring pass and `pick_tied` per kind (SHIFT: the
    general path)."""
    sc = scores_at(rk)
    if kind == D_BID:
        return pick_bid(g, rk, s, n, h, sc)
    ahead = look_sector(g, rk, s)
    vals = memo(g, rk, s, ahead)
    if kind == D_MOVE:
        return pick_move(g, rk, s, ahead, vals, n, h, sc)
    if kind == D_BIRTH:
        babies = 0
        for f in range(rk[R_F]):
            if rk[rk[X_FBABY] + f] == B_WIN:
                babies += 1
        return pick_birth(g, rk, s, ahead, vals, babies, n, h, sc)
    return pick_zone(g, rk, s, ahead, vals, n, h, sc, 1 if kind == D_ESCAPE else -1)


@kernel
def choose(g, rk, kind, s, n, h, mode, ent):
    """The best-scoring allowed option; among m tied, the below(h, m)-th in option order.
    MOVE and BIRTH: option 0 (stop, no birth) unless an allowed option scores above 0."""
    ahead = look_sector(g, rk, s)
    babies = 0
    if kind == D_BIRTH:
        for f in range(rk[R_F]):
            if rk[rk[X_FBABY] + f] == B_WIN:
                babies += 1
    vals = memo(g, rk, s, ahead) if kind != D_BID and kind != D_SHIFT else -1
    sc = scores_at(rk)                  # g[sc + k]: option k's score, _NEG: barred or never taken
    scores(g, rk, kind, s, n, ahead, vals, babies, sc)
    if mode != PLAIN:
        hits = count_hits(g, rk, kind, n, mode, ent)
        for k in range(n):
            if not option_ok(g, rk, kind, n, k, mode, ent, hits):
                g[sc + k] = _NEG
    top, m = _NEG, 0
    for k in range(n):
        v = g[sc + k]
        if v > top:
            top, m = v, 1
        elif v == top and top != _NEG:
            m += 1
    if m == 0:
        return 0
    if (kind == D_MOVE or kind == D_BIRTH) and top <= 0 and g[sc] != _NEG:
        return 0
    if m == 1:                          # below(h, 1) is 0: the one best option
        for k in range(n):
            if g[sc + k] == top:
                return k
    j = below(h, m)
    for k in range(n):
        if g[sc + k] == top:
            if j == 0:
                return k
            j -= 1
    return 0


@kernel
def safe_sum(g, rk, s, shift):
    """`safe` summed over s's zones (its zone set; `safe`'s rule written out)."""
    sector = (g[G_SECTOR] + shift) % rk[R_S]
    at = rk[O_TRAIT] + s * N_TRAITS
    th, fu = g[at + T_THERMO] >= 1, g[at + T_FUR] >= 1
    now, terr = rk[X_WHEEL] + sector * rk[R_T], rk[X_TERR]
    W = words(rk)
    mine = rk[O_ZSETS] + s * W
    t = 0
    for w in range(W):
        m = g[mine + w]
        while m != 0:
            cl = rk[now + rk[terr + w * ZBITS + first(m)]]
            m = drop_first(m)
            t += 2 if cl == IDEAL else (1 if (cl == HOT and th) or (cl == COLD and fu) else 0)
    return t


@kernel
def event(g, rk, s):
    P, Z, deg = rk[R_P], rk[R_Z], rk[R_DEG]
    eff = g[G_INFO]
    if eff == EV_PRESCIENCE:
        base = safe_sum(g, rk, s, g[G_TOKEN_SHIFT])
        for k in range(rk[R_NSH]):
            if safe_sum(g, rk, s, rk[rk[X_PSH] + k]) > base:
                return 1
        return 0
    if eff == EV_FRENZY:           # a zone of s next to an attackable other seat's (zone sets)
        W = words(rk)
        zs, nbm = rk[O_ZSETS], rk[X_NBM]
        for w in range(W):
            opn = 0
            for x in range(P):
                if x != s and not protected(g, rk, x):
                    opn |= g[zs + x * W + w]
            g[scores_at(rk) + w] = opn
        for wa in range(W):
            ma = g[zs + s * W + wa]
            while ma != 0:
                a = wa * ZBITS + first(ma)
                ma = drop_first(ma)
                for w in range(W):
                    if rk[nbm + a * W + w] & g[scores_at(rk) + w] != 0:
                        return 1
        return 0
    if eff == EV_RATS:
        others = 0
        for x in range(P):
            if x != s:
                others += min(g[rk[O_TRAIT] + x * N_TRAITS + T_EGGS], rk[R_CAP] - g[rk[O_COUNT] + x])
        own = min(g[rk[O_TRAIT] + s * N_TRAITS + T_EGGS], rk[R_CAP] - g[rk[O_COUNT] + s])
        return 1 if others > (P - 1) * own else 0
    if eff == EV_GEYSERS:
        cold = 0
        now, terr = rk[X_WHEEL] + g[G_SECTOR] * rk[R_T], rk[X_TERR]
        W = words(rk)
        mine = rk[O_ZSETS] + s * W
        for w in range(W):
            m = g[mine + w]
            while m != 0:
                if rk[now + rk[terr + w * ZBITS + first(m)]] == COLD:
                    cold += 1
                m = drop_first(m)
        return 1 if cold > g[rk[O_TRAIT] + s * N_TRAITS + T_FUR] and not protected(g, rk, s) else 0
    return 1            # egg_thief


@kernel(inline=True)
def decide_greedy(g, rk, kind, seat, n, h, mode, ent):
    if kind == D_EVENT:
        return event(g, rk, seat)
    if kind == D_ADRENALINE:
        return 0            # the first position
    if mode == PLAIN and kind != D_SHIFT:
        return choose_plain(g, rk, kind, seat, n, h)
    return choose(g, rk, kind, seat, n, h, mode, ent)


@policy
def greedy_policy(g, rk, kind, seat, n, h):
    at = rk[O_SCRIPT] + seat * rk[R_L] * 2          # the seat's first script row: [mode, gene name id]
    return decide_greedy(g, rk, kind, seat, n, h, g[at], g[at + 1])
