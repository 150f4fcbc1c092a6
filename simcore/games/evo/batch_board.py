"""Compiled board phases: movement and combat, birth, survival and scoring (contract 4.4,
4.5, 4.6)."""
from __future__ import annotations

from .codes import (A_DIFF, A_WIN, B_WIN, COLD, D_BIRTH, D_DIE, D_ESCAPE, D_EVENT, D_MOVE, DEADLY, EV_FRENZY,
                    EV_GEYSERS, EV_RATS, EV_THIEF, HOT, IDEAL, M_ATTACK, M_FLIPPERS, M_STEP, M_STOP, M_WINGS,
                    N_TRAITS, PH_BIRTH, PH_CLIMATE, PH_SURVIVAL, T_ATTACK, T_CAVE, T_CHAMELEON, T_COASTAL,
                    T_DEFENCE, T_EGGS, T_FLOOR, T_FUR, T_KILLER, T_MOVES, T_RANGE, T_THERMO, T_WINGS)
from .decisions import (ask, current_class, event_card, opt, place, play_event, protected, remove, reserve,
                        roll, set_opt, yes_no)
from .jit import kernel
from .state import (O_OPTS, G_SECTOR, R_T, X_WHEEL, X_TERR, G_ATTACKS, G_BIRTHS, G_CDEATHS, G_CURSOR, G_ERR, G_INFO, G_KILLS, G_PHASE, G_ROLLS, G_ROUND,
                    G_TRAJ_N, O_COUNT, O_DCNT, O_FRENZY, O_GEYSER, O_MARK, O_TMP, O_MP, O_ORDER, O_OWNER, O_TRAIT,
                    O_TRAJ, R_DEG, R_FLIP_COST, R_FLIP_USES, R_KB_FLOOR, R_MP_PER_DINO, R_NEV, R_P,
                    R_WINGS_COST, R_WINGS_USES, R_Z, X_ADJ, X_COAST, X_DIST, X_EVAMT, X_FATT, X_FBABY,
                    X_FNEED, X_NB, X_NBN, O_HAND, X_BALL, X_BALLN)


@kernel(inline=True)
def tr(g, rk, s, t):
    return g[rk[O_TRAIT] + s * N_TRAITS + t]


@kernel(inline=True)
def owner(g, rk, z):
    return g[rk[O_OWNER] + z]


# ------------------------------------------------------------------ movement (4.4)

@kernel
def move_options(g, rk, s, points, wing_uses, flip_uses):
    """MOVE rows (kind, a, b): stop, then per zone a of s: step, attack, wings, flippers.
    The offsets are read once into locals: g and rk may alias for LLVM, so an rk word read
    after a store to g is read again (the same below in the board's loops)."""
    Z, deg = rk[R_Z], rk[R_DEG]
    own, opts, nb, nbn = rk[O_OWNER], rk[O_OPTS], rk[X_NB], rk[X_NBN]
    cnt, trait, dist, coast, adj = rk[O_COUNT], rk[O_TRAIT], rk[X_DIST], rk[X_COAST], rk[X_ADJ]
    set_opt(g, rk, 0, M_STOP, -1, -1)
    n = 1
    wings = tr(g, rk, s, T_WINGS)
    wings_ok = wings >= 2 and wing_uses < rk[R_WINGS_USES] and rk[R_WINGS_COST] <= points
    flip_ok = (tr(g, rk, s, T_COASTAL) == 1 and (rk[R_FLIP_USES] == 0 or flip_uses < rk[R_FLIP_USES])
               and rk[R_FLIP_COST] <= points)
    left = g[cnt + s]                   # s's zones not reached yet
    for a in range(Z):
        if left == 0:
            break
        if g[own + a] != s:
            continue
        left -= 1
        row = nb + a * deg
        for j in range(rk[nbn + a]):
            b = rk[row + j]
            if g[own + b] < 0:
                at = opts + 3 * n
                g[at] = M_STEP
                g[at + 1] = a
                g[at + 2] = b
                n += 1
        for j in range(rk[nbn + a]):
            b = rk[row + j]
            x = g[own + b]
            if x >= 0 and x != s and not g[cnt + x] <= g[trait + x * N_TRAITS + T_FLOOR]:
                at = opts + 3 * n
                g[at] = M_ATTACK
                g[at + 1] = a
                g[at + 2] = b
                n += 1
        if wings_ok:
            for b in range(Z):
                d = rk[dist + a * Z + b]
                if g[own + b] < 0 and d >= 2 and d <= wings:
                    set_opt(g, rk, n, M_WINGS, a, b)
                    n += 1
        if flip_ok and rk[coast + a] == 1:
            for b in range(Z):
                if (g[own + b] < 0 and rk[coast + b] == 1 and b != a
                        and rk[adj + a * Z + b] == 0):
                    set_opt(g, rk, n, M_FLIPPERS, a, b)
                    n += 1
    return n


@kernel
def combat(g, rk, u, pol, s, a, b):
    """Contract 4.4.1: s on a attacks the dinosaur on b."""
    deg = rk[R_DEG]
    g[G_ATTACKS] += 1
    f = roll(g, rk, u)
    x = owner(g, rk, b)
    A = tr(g, rk, s, T_ATTACK) + g[rk[O_FRENZY] + s]
    D = tr(g, rk, x, T_DEFENCE)
    res = rk[rk[X_FATT] + f]
    if not (res == A_WIN or (res == A_DIFF and A - D >= rk[rk[X_FNEED] + f])):
        return
    n = 0
    if tr(g, rk, x, T_CHAMELEON) == 1:
        for j in range(rk[rk[X_NBN] + b]):
            z = rk[rk[X_NB] + b * deg + j]
            if owner(g, rk, z) < 0:
                set_opt(g, rk, n, z, 0, 0)
                n += 1
    if n > 0:
        z = opt(g, rk, ask(g, rk, u, pol, D_ESCAPE, x, n), 0)
        g[rk[O_OWNER] + b] = -1
        g[rk[O_OWNER] + z] = x
    else:
        remove(g, rk, b)
        g[G_KILLS] += 1
    remove(g, rk, a)
    place(g, rk, s, b)


@kernel
def movement(g, rk, u, pol, turns):
    """Contract 4.4, resuming at the seat G_CURSOR of the track; `turns`: stops before each
    next seat's movement (G_CURSOR; a frenzy only lasts its player's own movement)."""
    P = rk[R_P]
    start = g[G_CURSOR]
    g[G_CURSOR] = 0
    for s in range(P):
        g[rk[O_FRENZY] + s] = 0
    for i in range(start, P):
        if turns and i > start:
            g[G_CURSOR] = i
            return
        s = g[rk[O_ORDER] + i]
        card = event_card(g, rk, s, EV_FRENZY)
        if card >= 0:
            g[G_INFO] = EV_FRENZY
            yes_no(g, rk)
            if ask(g, rk, u, pol, D_EVENT, s, 2) == 1:
                c = play_event(g, rk, s, card)
                g[rk[O_FRENZY] + s] += rk[rk[X_EVAMT] + c]
        points = tr(g, rk, s, T_MOVES)
        wing_uses, flip_uses = 0, 0
        while points >= 1 and g[G_ERR] == 0:
            n = move_options(g, rk, s, points, wing_uses, flip_uses)
            k = ask(g, rk, u, pol, D_MOVE, s, n)
            kind, a, b = opt(g, rk, k, 0), opt(g, rk, k, 1), opt(g, rk, k, 2)
            if kind == M_STOP:
                break
            if kind == M_ATTACK:
                combat(g, rk, u, pol, s, a, b)
                points -= 1
                continue
            remove(g, rk, a)
            place(g, rk, s, b)
            if kind == M_STEP:
                points -= 1
            elif kind == M_WINGS:
                points -= rk[R_WINGS_COST]
                wing_uses += 1
            else:
                points -= rk[R_FLIP_COST]
                flip_uses += 1
    g[G_PHASE] = PH_BIRTH


# ------------------------------------------------------------------ birth (4.5)

@kernel
def near_counts(g, rk, s, rng):
    """cnt[t] (the scratch O_MARK) = how many zones of s lie within rng steps of t: each
    owned zone y marks its ball (the zones within rng of it, a table of rk); the zones
    marked at least once are listed after cnt, ascending. Returns their number."""
    Z = rk[R_Z]
    cnt = rk[O_MARK]
    near = cnt + Z
    for t in range(Z):
        g[cnt + t] = 0
    dmax = rk[rk[X_BALLN]]
    d = min(rng, dmax)
    ball, balln, own = rk[X_BALL], rk[X_BALLN] + 1 + d, rk[O_OWNER]
    left = g[rk[O_COUNT] + s]
    m = 0
    for y in range(Z):
        if left == 0:
            break
        if g[own + y] == s:
            left -= 1
            row = ball + y * Z
            for i in range(rk[balln + y * (dmax + 1)]):
                t = rk[row + i]
                if g[cnt + t] == 0:
                    g[near + m] = t
                    m += 1
                g[cnt + t] += 1
    for k in range(1, m):               # insertion sort: a few dozen zones at most
        t = g[near + k]
        j = k - 1
        while j >= 0 and g[near + j] > t:
            g[near + j + 1] = g[near + j]
            j -= 1
        g[near + j + 1] = t
    return m


@kernel
def birth_targets(g, rk, s, n, r, rng, killer, m):
    """Append BIRTH rows (r, t) for every target t of s (t != r), ascending: a free zone, or
    (Killer babies) an attackable other seat's, within rng of a zone of s other than r
    (near_counts' m zones, less r's own mark)."""
    Z = rk[R_Z]
    cnt, own, opts, dist = rk[O_MARK], rk[O_OWNER], rk[O_OPTS], rk[X_DIST]
    near = cnt + Z
    for k in range(m):
        t = g[near + k]
        if t == r:
            continue
        x = g[own + t]
        if x >= 0 and not (killer == 1 and x != s and (rk[R_KB_FLOOR] == 0 or not protected(g, rk, x))):
            continue
        c = g[cnt + t]
        if r >= 0 and rk[dist + t * Z + r] <= rng:
            c -= 1
        if c > 0:
            at = opts + 3 * n
            g[at] = r
            g[at + 1] = t
            g[at + 2] = 0
            n += 1
    return n


@kernel
def birth_options(g, rk, s):
    """BIRTH rows: none first; then the targets, or with no dinosaur in reserve, per owned r
    ascending (the replace rule: r removed first, then measured) its targets."""
    Z = rk[R_Z]
    set_opt(g, rk, 0, -1, -1, 0)
    rng, killer = tr(g, rk, s, T_RANGE), tr(g, rk, s, T_KILLER)
    m = near_counts(g, rk, s, rng)
    if reserve(g, rk, s) >= 1:
        return birth_targets(g, rk, s, 1, -1, rng, killer, m)
    # the replace rule: the targets with r removed are those near two zones of s, or near
    # one that is not r's neighbourhood; r is never a target (it is s's): list the targets
    # of the whole board once (after cnt and the near list in O_MARK), then filter them per r
    cnt, own, opts, dist = rk[O_MARK], rk[O_OWNER], rk[O_OPTS], rk[X_DIST]
    cand = cnt + 2 * Z
    m = birth_targets(g, rk, s, 0, -1, rng, killer, m)     # rows 0..m-1, overwritten below
    for j in range(m):
        g[cand + j] = g[opts + 3 * j + 1]
    set_opt(g, rk, 0, -1, -1, 0)
    n = 1
    for r in range(Z):
        if g[own + r] != s:
            continue
        for j in range(m):
            t = g[cand + j]
            if g[cnt + t] >= 2 or rk[dist + t * Z + r] > rng:
                at = opts + 3 * n
                g[at] = r
                g[at + 1] = t
                g[at + 2] = 0
                n += 1
    return n


@kernel
def egg_thief(g, rk, u, pol, s, t):
    """Right after a birth of s on t: the first other seat (track order after s) that plays
    Egg thief replaces the newborn with one of its own."""
    P, NEV = rk[R_P], rk[R_NEV]
    at = 0
    for i in range(P):
        if g[rk[O_ORDER] + i] == s:
            at = i
    for j in range(1, P):
        y = g[rk[O_ORDER] + (at + j) % P]
        card = event_card(g, rk, y, EV_THIEF)
        if card < 0:
            continue
        amount = rk[rk[X_EVAMT] + g[rk[O_HAND] + y * NEV + card]]
        if reserve(g, rk, y) < 1 or g[rk[O_COUNT] + s] < amount:
            continue
        g[G_INFO] = EV_THIEF
        yes_no(g, rk)
        if ask(g, rk, u, pol, D_EVENT, y, 2) == 1:
            play_event(g, rk, y, card)
            remove(g, rk, t)
            place(g, rk, y, t)
            return


@kernel
def birth(g, rk, u, pol):
    P = rk[R_P]
    g[G_PHASE] = PH_SURVIVAL
    for i in range(P):
        s = g[rk[O_ORDER] + i]
        card = event_card(g, rk, s, EV_RATS)
        if card < 0:
            continue
        g[G_INFO] = EV_RATS
        yes_no(g, rk)
        if ask(g, rk, u, pol, D_EVENT, s, 2) == 1:
            play_event(g, rk, s, card)
            return
    eggs = 0
    for s in range(P):
        eggs = max(eggs, tr(g, rk, s, T_EGGS))
    for k in range(1, eggs + 1):
        for i in range(P):
            s = g[rk[O_ORDER] + i]
            if tr(g, rk, s, T_EGGS) < k or g[G_ERR] != 0:
                continue
            n = birth_options(g, rk, s)
            c = ask(g, rk, u, pol, D_BIRTH, s, n)
            if c == 0:
                continue
            r, t = opt(g, rk, c, 0), opt(g, rk, c, 1)
            if r >= 0:
                remove(g, rk, r)
            if owner(g, rk, t) >= 0:
                f = roll(g, rk, u)
                if rk[rk[X_FBABY] + f] != B_WIN:
                    continue            # the baby dies, back to the reserve
                remove(g, rk, t)
                g[G_KILLS] += 1
            place(g, rk, s, t)
            g[G_BIRTHS] += 1
            egg_thief(g, rk, u, pol, s, t)


# ------------------------------------------------------------------ survival and scoring (4.6)

@kernel
def survival(g, rk, u, pol):
    P, Z = rk[R_P], rk[R_Z]
    for s in range(P):
        g[rk[O_GEYSER] + s] = 0
    for i in range(P):
        s = g[rk[O_ORDER] + i]
        card = event_card(g, rk, s, EV_GEYSERS)
        if card < 0:
            continue
        g[G_INFO] = EV_GEYSERS
        yes_no(g, rk)
        if ask(g, rk, u, pol, D_EVENT, s, 2) == 1:
            play_event(g, rk, s, card)
            g[rk[O_GEYSER] + s] = 1
    # every seat's dinosaurs on hot, cold (not under its geysers) and deadly zones, in one
    # pass over the board (the scratch O_TMP: 3 words a seat); a seat's deaths below change
    # no other seat's counts
    cnt, own, gey = rk[O_TMP], rk[O_OWNER], rk[O_GEYSER]
    wheel, terr = rk[X_WHEEL] + g[G_SECTOR] * rk[R_T], rk[X_TERR]
    for k in range(3 * P):
        g[cnt + k] = 0
    for z in range(Z):
        x = g[own + z]
        if x >= 0:
            cl = rk[wheel + rk[terr + z]]
            if cl == HOT:
                g[cnt + 3 * x] += 1
            elif cl == COLD and g[gey + x] != 1:
                g[cnt + 3 * x + 1] += 1
            elif cl == DEADLY:
                g[cnt + 3 * x + 2] += 1
    for i in range(P):
        s = g[rk[O_ORDER] + i]
        geyser = g[rk[O_GEYSER] + s] == 1
        nh, nc, nd = g[cnt + 3 * s], g[cnt + 3 * s + 1], g[cnt + 3 * s + 2]
        ex_hot = max(0, nh - tr(g, rk, s, T_THERMO))
        ex_cold = max(0, nc - tr(g, rk, s, T_FUR))
        ex_dead = max(0, nd - tr(g, rk, s, T_CAVE))
        k = min(ex_hot + ex_cold + ex_dead, max(0, g[rk[O_COUNT] + s] - tr(g, rk, s, T_FLOOR)))
        for _ in range(k):
            n = 0
            for z in range(Z):
                if owner(g, rk, z) != s:
                    continue
                cl = current_class(g, rk, z)
                if geyser and cl == COLD:
                    cl = IDEAL
                if (cl == HOT and ex_hot > 0) or (cl == COLD and ex_cold > 0) or (cl == DEADLY and ex_dead > 0):
                    set_opt(g, rk, n, z, 0, 0)
                    n += 1
            z = opt(g, rk, ask(g, rk, u, pol, D_DIE, s, n), 0)
            cl = current_class(g, rk, z)
            if geyser and cl == COLD:
                cl = IDEAL
            if cl == HOT:
                ex_hot -= 1
            elif cl == COLD:
                ex_cold -= 1
            else:
                ex_dead -= 1
            remove(g, rk, z)
            g[G_CDEATHS] += 1
    for s in range(P):
        g[rk[O_MP] + s] += rk[R_MP_PER_DINO] * g[rk[O_COUNT] + s]
        g[rk[O_TRAJ] + g[G_TRAJ_N] * P + s] = g[rk[O_MP] + s]
        g[rk[O_DCNT] + s] = 0
    g[G_TRAJ_N] += 1
    g[G_ROUND] += 1
    g[G_ROLLS] = 0
    g[G_PHASE] = PH_CLIMATE
