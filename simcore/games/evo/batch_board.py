"""Compiled board phases: movement and combat, birth, survival and scoring (contract 4.4,
4.5, 4.6)."""
from __future__ import annotations

from .codes import (A_DIFF, A_WIN, B_WIN, COLD, D_BIRTH, D_DIE, D_ESCAPE, D_EVENT, D_MOVE, EV_FRENZY,
                    EV_GEYSERS, EV_RATS, EV_THIEF, HOT, IDEAL, M_ATTACK, M_FLIPPERS, M_STEP, M_STOP, M_WINGS,
                    N_TRAITS, PH_BIRTH, PH_CLIMATE, PH_SURVIVAL, T_ATTACK, T_CAVE, T_CHAMELEON, T_COASTAL,
                    T_DEFENCE, T_EGGS, T_FLOOR, T_FUR, T_KILLER, T_MOVES, T_RANGE, T_THERMO, T_WINGS)
from .batch_bits import (B_MINE, B_NEAR, B_NEAR2, B_OCC, B_OPEN, B_OTHERS, ball, board_bits, class_sets, drop_first,
                         first, popcount, set_word, slot, word, words, zone_in, zone_out)
from .decisions import (ask, current_class, event_card, opt, place, play_event, protected, remove, reserve, roll,
                        set_opt, yes_no)
from .jit import kernel
from .state import (G_ATTACKS, G_BIRTHS, G_CDEATHS, G_CURSOR, G_ERR, G_INFO, G_KILLS, G_PHASE, G_ROLLS,
                    G_ROUND, G_SECTOR, G_TRAJ_N, O_COUNT, O_DCNT, O_FRENZY, O_GEYSER, O_HAND, O_MP, O_OPTS,
                    O_ORDER, O_OWNER, O_TRAIT, O_TRAJ, O_ZSETS, R_DEG, R_FLIP_COST, R_FLIP_USES, R_IDLE_FORBIDDEN,
                    R_KB_FLOOR, R_MP_PER_DINO, R_NEV, R_P, R_WINGS_COST, R_WINGS_USES, X_COASTM, X_EVAMT, X_FATT, X_FBABY,
                    X_FNEED, X_NB, X_NBM, X_NBN, ZBITS)


@kernel(inline=True)
def tr(g, rk, s, t):
    return g[rk[O_TRAIT] + s * N_TRAITS + t]


@kernel(inline=True)
def owner(g, rk, z):
    return g[rk[O_OWNER] + z]


# ------------------------------------------------------------------ movement (4.4)

@kernel
def move_options(g, rk, s, points, wing_uses, flip_uses, fresh):
    """MOVE rows (kind, a, b): stop, then per zone a of s ascending: its steps, attacks,
    wings, flippers, each by target ascending (zone sets, batch_bits.py). The offsets are
    read once into locals: g and rk may alias for LLVM, so an rk word read after a store
    to g is read again (the same below in the board's loops)."""
    W = words(rk)
    if fresh:                   # else O_BITS is s's view, kept by `movement` since
        board_bits(g, rk, s)
    opts, nbm, coast = rk[O_OPTS], rk[X_NBM], rk[X_COASTM]
    occ, mine, opn = slot(rk, B_OCC), slot(rk, B_MINE), slot(rk, B_OPEN)
    set_opt(g, rk, 0, M_STOP, -1, -1)
    n = 1
    wings = tr(g, rk, s, T_WINGS)
    wings_ok = wings >= 2 and wing_uses < rk[R_WINGS_USES] and rk[R_WINGS_COST] <= points
    flip_ok = (tr(g, rk, s, T_COASTAL) == 1 and (rk[R_FLIP_USES] == 0 or flip_uses < rk[R_FLIP_USES])
               and rk[R_FLIP_COST] <= points)
    for wa in range(W):
        ma = word(g, mine + wa)
        while ma != 0:
            a = wa * ZBITS + first(ma)
            ma = drop_first(ma)
            near = ball(rk, a, 1)           # a and its neighbours
            for w in range(W):
                m = word(rk, nbm + a * W + w) & ~word(g, occ + w)
                while m != 0:
                    at = opts + 3 * n
                    set_word(g, at, M_STEP)
                    set_word(g, at + 1, a)
                    set_word(g, at + 2, w * ZBITS + first(m))
                    m = drop_first(m)
                    n += 1
            for w in range(W):
                m = word(rk, nbm + a * W + w) & word(g, opn + w)
                while m != 0:
                    at = opts + 3 * n
                    set_word(g, at, M_ATTACK)
                    set_word(g, at + 1, a)
                    set_word(g, at + 2, w * ZBITS + first(m))
                    m = drop_first(m)
                    n += 1
            if wings_ok:                    # free zones 2 to `wings` steps away
                far = ball(rk, a, wings)
                for w in range(W):
                    m = rk[far + w] & ~rk[near + w] & ~g[occ + w]
                    while m != 0:
                        set_opt(g, rk, n, M_WINGS, a, w * ZBITS + first(m))
                        m = drop_first(m)
                        n += 1
            if flip_ok and (rk[coast + a // ZBITS] >> (a % ZBITS)) & 1 == 1:
                for w in range(W):          # free coastal zones not next to a
                    m = rk[coast + w] & ~rk[near + w] & ~g[occ + w]
                    while m != 0:
                        set_opt(g, rk, n, M_FLIPPERS, a, w * ZBITS + first(m))
                        m = drop_first(m)
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
        zone_out(g, rk, x, b)
        zone_in(g, rk, x, z)
    else:
        remove(g, rk, b)
        g[G_KILLS] += 1
    remove(g, rk, a)
    place(g, rk, s, b)


@kernel
def frenzy_can_matter(g, rk, s):
    """A Frenzied attack can change a combat of s this phase: s has a dinosaur and a movement
    point, and another clan is above its floor (attacks only lower counts, so a clan protected
    now stays protected through s's movement)."""
    if g[rk[O_COUNT] + s] == 0 or tr(g, rk, s, T_MOVES) < 1:
        return False
    for x in range(rk[R_P]):
        if x != s and g[rk[O_COUNT] + x] > 0 and not protected(g, rk, x):
            return True
    return False


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
        if card >= 0 and (rk[R_IDLE_FORBIDDEN] == 0 or frenzy_can_matter(g, rk, s)):
            g[G_INFO] = EV_FRENZY
            yes_no(g, rk)
            if ask(g, rk, u, pol, D_EVENT, s, 2) == 1:
                c = play_event(g, rk, s, card)
                g[rk[O_FRENZY] + s] += rk[rk[X_EVAMT] + c]
        points = tr(g, rk, s, T_MOVES)
        wing_uses, flip_uses = 0, 0
        fresh = True
        while points >= 1 and g[G_ERR] == 0:
            n = move_options(g, rk, s, points, wing_uses, flip_uses, fresh)
            k = ask(g, rk, u, pol, D_MOVE, s, n)
            kind, a, b = opt(g, rk, k, 0), opt(g, rk, k, 1), opt(g, rk, k, 2)
            if kind == M_STOP:
                break
            if kind == M_ATTACK:
                combat(g, rk, u, pol, s, a, b)
                points -= 1
                fresh = True    # counts, floors and owners changed: the view is rebuilt
                continue
            remove(g, rk, a)
            place(g, rk, s, b)
            # s's view after a move of its own: a left, b taken (B_OTHERS and B_OPEN,
            # the other seats' zones and counts, are unchanged)
            for j in (B_OCC, B_MINE):
                at = slot(rk, j)
                g[at + a // ZBITS] &= ~(1 << (a % ZBITS))
                g[at + b // ZBITS] |= 1 << (b % ZBITS)
            fresh = False
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
def birth_options(g, rk, s):
    """BIRTH rows: none first; then (-1, t) for every target t ascending: a free zone, or
    (Killer babies) an attackable other seat's, within rng of a zone of s; or, with no
    dinosaur in reserve, per owned r ascending (the replace rule: r removed first, then
    measured) its targets (r, t): those near two zones of s, or near one that is not r's
    neighbourhood (r itself is s's, never a target). Zone sets, batch_bits.py."""
    W = words(rk)
    board_bits(g, rk, s)
    opts = rk[O_OPTS]
    occ, mine, opn, oth = slot(rk, B_OCC), slot(rk, B_MINE), slot(rk, B_OPEN), slot(rk, B_OTHERS)
    near, near2 = slot(rk, B_NEAR), slot(rk, B_NEAR2)
    rng, killer = tr(g, rk, s, T_RANGE), tr(g, rk, s, T_KILLER)
    set_opt(g, rk, 0, -1, -1, 0)
    for w in range(W):
        g[near + w] = 0
        g[near2 + w] = 0
    for wy in range(W):
        my = g[mine + wy]
        while my != 0:
            b = ball(rk, wy * ZBITS + first(my), rng)
            my = drop_first(my)
            for w in range(W):
                set_word(g, near2 + w, word(g, near2 + w) | (word(g, near + w) & word(rk, b + w)))
                set_word(g, near + w, word(g, near + w) | word(rk, b + w))
    prey = oth if rk[R_KB_FLOOR] == 0 else opn      # the zones Killer babies may be born on
    for w in range(W):
        ok = ~g[occ + w]
        if killer == 1:
            ok |= g[prey + w]
        g[near + w] &= ok                           # now the targets
    n = 1
    if reserve(g, rk, s) >= 1:
        for w in range(W):
            m = g[near + w]
            while m != 0:
                set_opt(g, rk, n, -1, w * ZBITS + first(m), 0)
                m = drop_first(m)
                n += 1
        return n
    for wr in range(W):
        mr = g[mine + wr]
        while mr != 0:
            r = wr * ZBITS + first(mr)
            mr = drop_first(mr)
            b = ball(rk, r, rng)
            for w in range(W):
                m = word(g, near + w) & (word(g, near2 + w) | ~word(rk, b + w))
                while m != 0:
                    at = opts + 3 * n
                    set_word(g, at, r)
                    set_word(g, at + 1, w * ZBITS + first(m))
                    set_word(g, at + 2, 0)
                    m = drop_first(m)
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
def thief_held(g, rk):
    """Whether any seat holds an active Egg thief card (hands change in the birth phase only
    when one is played)."""
    for s in range(rk[R_P]):
        if event_card(g, rk, s, EV_THIEF) >= 0:
            return True
    return False


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
    thief = thief_held(g, rk)
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
            if thief:                   # else no seat could play Egg thief (no call per birth)
                egg_thief(g, rk, u, pol, s, t)
                thief = thief_held(g, rk)


# ------------------------------------------------------------------ survival and scoring (4.6)

@kernel
def geysers_can_matter(g, rk, s):
    """Geysers can change s's survival: more of its dinosaurs on cold zones than its fur, and
    s above its floor (at the floor the climate takes none)."""
    if protected(g, rk, s):
        return False
    W, mine = words(rk), rk[O_ZSETS] + s * words(rk)
    cold = class_sets(rk, g[G_SECTOR]) + W
    nc = 0
    for w in range(W):
        nc += popcount(word(g, mine + w) & word(rk, cold + w))
    return nc > tr(g, rk, s, T_FUR)


@kernel
def survival(g, rk, u, pol):
    P = rk[R_P]
    for s in range(P):
        g[rk[O_GEYSER] + s] = 0
    for i in range(P):
        s = g[rk[O_ORDER] + i]
        card = event_card(g, rk, s, EV_GEYSERS)
        if card < 0 or (rk[R_IDLE_FORBIDDEN] == 1 and not geysers_can_matter(g, rk, s)):
            continue
        g[G_INFO] = EV_GEYSERS
        yes_no(g, rk)
        if ask(g, rk, u, pol, D_EVENT, s, 2) == 1:
            play_event(g, rk, s, card)
            g[rk[O_GEYSER] + s] = 1
    # each seat's dinosaurs on hot, cold (not under its geysers) and deadly zones: its set
    # against the sector's class sets; a seat's deaths below change no other seat's counts
    W, zs, opts = words(rk), rk[O_ZSETS], rk[O_OPTS]
    hot = class_sets(rk, g[G_SECTOR])
    cold, dead = hot + W, hot + 2 * W
    for i in range(P):
        s = g[rk[O_ORDER] + i]
        geyser = g[rk[O_GEYSER] + s] == 1
        mine = zs + s * W
        nh, nc, nd = 0, 0, 0
        for w in range(W):
            ms = word(g, mine + w)
            nh += popcount(ms & word(rk, hot + w))
            nc += 0 if geyser else popcount(ms & word(rk, cold + w))
            nd += popcount(ms & word(rk, dead + w))
        ex_hot = max(0, nh - tr(g, rk, s, T_THERMO))
        ex_cold = max(0, nc - tr(g, rk, s, T_FUR))
        ex_dead = max(0, nd - tr(g, rk, s, T_CAVE))
        k = min(ex_hot + ex_cold + ex_dead, max(0, g[rk[O_COUNT] + s] - tr(g, rk, s, T_FLOOR)))
        for _ in range(k):
            n = 0                       # DIE rows: s's zones of a class still in excess, ascending
            for w in range(W):
                bad = 0
                if ex_hot > 0:
                    bad |= rk[hot + w]
                if ex_cold > 0 and not geyser:
                    bad |= rk[cold + w]
                if ex_dead > 0:
                    bad |= rk[dead + w]
                m = g[mine + w] & bad
                while m != 0:
                    at = opts + 3 * n
                    g[at] = w * ZBITS + first(m)
                    g[at + 1] = 0
                    g[at + 2] = 0
                    m = drop_first(m)
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
