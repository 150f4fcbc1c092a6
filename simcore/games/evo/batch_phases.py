"""Compiled setup and the first three phases of a round: climate, mutations (draw, auction,
settle), initiative (contract 3, 4.1, 4.2, 4.3)."""
from __future__ import annotations

import numpy as np

from ...rng import CHANCE
from .codes import (D_ADRENALINE, D_BID, D_EVENT, D_SHIFT, END_METEORITE, EV_PRESCIENCE, K_CLIMATE,
                    K_CLIMATE_BOTTOM, K_DRAW, K_EVENTS, K_ORDER, K_UNIQUE, N_TRAITS, PH_CLIMATE, PH_INITIATIVE,
                    PH_MOVEMENT, PH_MUTATION, T_ADRENALINE, T_VIALS)
from .decisions import add, ask, event_card, key3, opt, place, play_event, price, set_opt, set_traits, shuffle, yes_no
from .batch_bits import set_word, word
from .jit import kernel
from .state import (G_CURSOR, G_DECK_N, G_DECK_TOP, G_DRAWS_N, G_ENDED, G_GAME, G_INFO, G_OUT_N, G_PHASE,
                    G_PILE_N, G_PILE_TOP, G_REASON, G_REV_N, G_ROUND, G_ROUNDS, G_SECTOR, G_TOKEN_SHIFT,
                    O_BAG, O_COL, O_COUNT, O_DECK, O_DRAWS, O_HAND, O_HAND_N, O_HELD, O_LAB_BID, O_LAB_GENE,
                    O_LAB_SEAT, O_MP, O_OPTS, O_ORDER, O_OUT, O_OWNER, O_PILE, O_PTMP, O_REV, O_SEATS, O_SPOS,
                    O_TMP, O_TRAIT, O_WON, PMEM_HEAD, R_CLIMATE_DISCARDED, R_E, R_MAX_BID, R_METEORITE_PILE,
                    R_MIN_BID, R_MIN_COST, R_NCL,
                    R_NEV, R_NG, R_NSH, R_P, R_S, R_START_MP, R_UNIQUE_IN_BAG, R_WHEEL_START, R_Z,
                    X_CLKIND, X_CLSHIFT, X_GFIRST, X_GKIND, X_GUNAME, X_PSH, X_START)


@kernel
def chance(u, g, kind):
    """key(seed, game, CHANCE, kind): the prefix of a chance address."""
    return add(key3(u[0], g[G_GAME], CHANCE), kind)


@kernel
def setup(g, rk, u, game):
    """Contract 3: a fresh game `game` in g (the scripts at O_SCRIPT are kept)."""
    P, Z, NG, NEV, NCL = rk[R_P], rk[R_Z], rk[R_NG], rk[R_NEV], rk[R_NCL]
    # the option rows (O_OPTS, just before the scripts) and the options' scores at the end of
    # the policies' scratch are always written before they are read: clearing them cost 8 us
    # a game; the policies' memory (the start of O_PTMP, state.PMEM_HEAD) is cleared
    for k in range(rk[O_OPTS]):
        g[k] = 0
    for k in range(rk[O_SPOS], rk[O_PTMP] + P * (PMEM_HEAD + Z)):
        g[k] = 0
    g[G_GAME] = game
    tmp = rk[O_TMP]
    for z in range(Z):
        g[rk[O_OWNER] + z] = -1
    for s in range(P):
        g[rk[O_MP] + s] = rk[R_START_MP]
        g[rk[O_ORDER] + s] = s
        g[rk[O_LAB_SEAT] + s] = -1
        g[rk[O_LAB_GENE] + s] = -1
        g[rk[O_COL] + s] = -1
    shuffle(g, u, chance(u, g, K_ORDER), rk[O_ORDER], P)
    for c in range(NEV):
        g[rk[O_DECK] + c] = c
    shuffle(g, u, chance(u, g, K_EVENTS), rk[O_DECK], NEV)
    g[G_DECK_N] = NEV
    # the bag: every normal gene, and the first unique_in_bag uniques of K_UNIQUE
    n = 0
    for uid in range(NG):
        e = rk[rk[X_GUNAME] + uid]
        if rk[rk[X_GKIND] + e] == 0:
            g[rk[O_BAG] + e] += 1
        else:
            g[tmp + n] = uid
            n += 1
    shuffle(g, u, chance(u, g, K_UNIQUE), tmp, n)
    for k in range(min(n, rk[R_UNIQUE_IN_BAG])):
        g[rk[O_BAG] + rk[rk[X_GUNAME] + g[tmp + k]]] += 1
    # the climate pile: set aside, companions, top part; the bottom pile shuffled apart
    n, met = 0, -1
    for t in range(NCL):
        if rk[rk[X_CLKIND] + t] == 1:
            met = t
        else:
            g[tmp + n] = t
            n += 1
    shuffle(g, u, chance(u, g, K_CLIMATE), tmp, n)
    out, comp = rk[R_CLIMATE_DISCARDED], rk[R_METEORITE_PILE] - 1
    for k in range(out):
        g[rk[O_OUT] + k] = g[tmp + k]
    g[G_OUT_N] = out
    pile = 0
    for k in range(out + comp, n):
        g[rk[O_PILE] + pile] = g[tmp + k]
        pile += 1
    bottom = tmp + NCL
    g[bottom] = met
    for k in range(comp):
        g[bottom + 1 + k] = g[tmp + out + k]
    shuffle(g, u, chance(u, g, K_CLIMATE_BOTTOM), bottom, comp + 1)
    for k in range(comp + 1):
        g[rk[O_PILE] + pile] = g[bottom + k]
        pile += 1
    g[G_PILE_N] = pile
    for z in range(Z):
        if rk[rk[X_START] + z] >= 0:
            place(g, rk, rk[rk[X_START] + z], z)
    g[G_SECTOR] = rk[R_WHEEL_START]
    g[G_ROUND] = 1
    g[G_PHASE] = PH_CLIMATE
    for s in range(P):
        set_traits(g, rk, s)


@kernel
def climate(g, rk, u, pol):
    """Contract 4.1: reveal the top token; the meteorite ends the game; Prescience."""
    P = rk[R_P]
    if g[G_PILE_TOP] >= g[G_PILE_N]:
        return False            # no token left: a state without its meteorite
    t = g[rk[O_PILE] + g[G_PILE_TOP]]
    g[G_PILE_TOP] += 1
    g[rk[O_REV] + g[G_REV_N]] = t
    g[G_REV_N] += 1
    if rk[rk[X_CLKIND] + t] == 1:
        g[G_ENDED] = 1
        g[G_REASON] = END_METEORITE
        g[G_ROUNDS] = g[G_ROUND] - 1
        return True
    shift = rk[rk[X_CLSHIFT] + t]
    g[G_TOKEN_SHIFT] = shift
    for i in range(P):
        s = g[rk[O_ORDER] + i]
        card = event_card(g, rk, s, EV_PRESCIENCE)
        if card < 0:
            continue
        g[G_INFO] = EV_PRESCIENCE
        yes_no(g, rk)
        if ask(g, rk, u, pol, D_EVENT, s, 2) == 1:
            play_event(g, rk, s, card)
            for k in range(rk[R_NSH]):
                set_opt(g, rk, k, rk[rk[X_PSH] + k], 0, 0)
            shift = opt(g, rk, ask(g, rk, u, pol, D_SHIFT, s, rk[R_NSH]), 0)
            break
    g[G_SECTOR] = (g[G_SECTOR] + shift) % rk[R_S]
    g[G_PHASE] = PH_MUTATION
    return True


@kernel
def bid_options(g, rk, s, barred):
    """BID rows (column, value) for seat s, contract 4.2 order."""
    P = rk[R_P]
    n = 0
    mp = g[rk[O_MP] + s]
    # the rk words read once (g and rk may alias for LLVM: read again after each row's store)
    opts, hi, minc = rk[O_OPTS], rk[R_MAX_BID], rk[R_MIN_COST]
    vials = g[rk[O_TRAIT] + s * N_TRAITS + T_VIALS]
    for c in range(P):
        if c == barred or (c > 0 and g[rk[O_LAB_GENE] + c] < 0):
            continue
        lo = rk[R_MIN_BID] if g[rk[O_LAB_SEAT] + c] < 0 else g[rk[O_LAB_BID] + c] + 1
        for v in range(lo, hi + 1):
            if max(minc, v - vials) > mp:           # `price`
                break
            at = opts + 3 * n
            set_word(g, at, c)
            set_word(g, at + 1, v)
            set_word(g, at + 2, 0)
            n += 1
    return n


_TAKEN = np.uint64(0xFFFFFFFFFFFFFFFF)      # draw_genes: a taken uid's key


@kernel(inline=True)
def take_uid(g, rk, tmp, j, col):
    """The walk's uid at g[tmp + j] taken from the bag list: its gene into lab column `col`
    unless that name is in the lab already (no two identical in one phase). The next column."""
    uid = g[tmp + j]
    g[tmp + j] = -1
    e = rk[rk[X_GUNAME] + uid]
    for c in range(1, col):
        if g[rk[O_LAB_GENE] + c] == e:
            return col
    g[rk[O_LAB_GENE] + col] = e
    g[rk[O_BAG] + e] -= 1
    return col + 1


@kernel
def draw_genes(g, rk, u):
    """Contract 4.2 Draw: P - 1 genes into columns 1..; forced draws first, then the
    K_DRAW walk over the bag's canonical uids, skipping names already in the lab."""
    P = rk[R_P]
    for c in range(P):
        g[rk[O_LAB_GENE] + c] = -1      # the markers are the auction's (mutation)
    col = 1
    for i in range(g[G_DRAWS_N]):
        e = g[rk[O_DRAWS] + i]
        if col < P:
            g[rk[O_BAG] + e] -= 1
            g[rk[O_LAB_GENE] + col] = e
            col += 1
    g[G_DRAWS_N] = 0
    if col >= P:
        return
    # the bag's uids (a gene's bag[e] copies are its first uids, from gfirst[e]): every uid
    # read once and kept if in the bag, with no branch (a loop per gene, of bag[e] turns,
    # missed a prediction per gene). Their order is free: distinct uids have distinct keys
    # (`add` hashes with a bijection of the 64-bit words), so the walk below never ties.
    tmp, bag, gfirst, guname = rk[O_TMP], rk[O_BAG], rk[X_GFIRST], rk[X_GUNAME]
    m = 0
    for uid in range(rk[R_NG]):
        e = word(rk, guname + uid)
        set_word(g, tmp + m, uid)                       # overwritten unless kept
        m += np.int64(uid - word(rk, gfirst + e) < word(g, bag + e))
    # the walk in shuffle's order (key(h, uid) ascending), taking the next one each time:
    # the smallest key not taken yet, found by a plain min over the keys (no branch; LLVM
    # vectorises it), then its index (the walk stops after a few of the bag's m uids). A
    # taken key is set to the largest word: a real key may equal it, so the index search
    # also checks the uid is still there (take_uid marks it -1).
    h = add(chance(u, g, K_DRAW), g[G_ROUND])
    for k in range(m):                  # the keys first: no branch among the hashes
        set_word(u, 1 + k, add(h, word(g, tmp + k)))
    for _ in range(m):
        if col >= P:
            return
        low = _TAKEN
        for k in range(m):
            low = min(low, word(u, 1 + k))
        j = 0
        while word(u, 1 + j) != low or word(g, tmp + j) < 0:
            j += 1
        set_word(u, 1 + j, _TAKEN)
        col = take_uid(g, rk, tmp, j, col)


@kernel
def draw_lab(g, rk, u):
    """run_state's until "turn" before a mutation phase: its draw made now and kept as the
    state's forced draws (still in the bag, contract 15)."""
    draw_genes(g, rk, u)
    keep_lab(g, rk)


@kernel
def keep_lab(g, rk):
    """The lab's genes back into the bag as the state's forced draws, in column order (a
    state between turns of the auction: resuming draws them into the same columns)."""
    P = rk[R_P]
    n = 0
    for c in range(1, P):
        e = g[rk[O_LAB_GENE] + c]
        if e >= 0:
            g[rk[O_BAG] + e] += 1
            g[rk[O_DRAWS] + n] = e
            n += 1
        g[rk[O_LAB_GENE] + c] = -1
    g[G_DRAWS_N] = n


@kernel
def mutation(g, rk, u, pol, turns):
    """Contract 4.2: draw, the auction (an outbid seat re-bids at once), settle. Resumes at
    the seat G_CURSOR of the track (the markers loaded); `turns`: stops before each next
    seat's first bid (the state keeps the lab as forced draws, the markers, G_CURSOR)."""
    P = rk[R_P]
    start = g[G_CURSOR]
    g[G_CURSOR] = 0
    if start == 0:
        for c in range(P):
            g[rk[O_LAB_SEAT] + c] = -1
            g[rk[O_LAB_BID] + c] = 0
    draw_genes(g, rk, u)
    for i in range(start, P):
        if turns and i > start:
            keep_lab(g, rk)
            g[G_CURSOR] = i
            return
        pending, barred = g[rk[O_ORDER] + i], -1
        while pending >= 0:
            s = pending
            n = bid_options(g, rk, s, barred)
            if n == 0:
                break
            k = ask(g, rk, u, pol, D_BID, s, n)
            c, v = opt(g, rk, k, 0), opt(g, rk, k, 1)
            x = g[rk[O_LAB_SEAT] + c]
            g[rk[O_LAB_SEAT] + c] = s
            g[rk[O_LAB_BID] + c] = v
            pending, barred = x, c
    settle(g, rk)


@kernel
def settle(g, rk):
    P, E, NEV = rk[R_P], rk[R_E], rk[R_NEV]
    for c in range(P):
        s = g[rk[O_LAB_SEAT] + c]
        if s >= 0:
            g[rk[O_MP] + s] -= price(g, rk, s, g[rk[O_LAB_BID] + c])
    for s in range(P):
        g[rk[O_COL] + s] = -1
    gained = 0                          # the seats that win a gene: their traits change
    for c in range(P):
        s = g[rk[O_LAB_SEAT] + c]
        if s >= 0:
            g[rk[O_COL] + s] = c
        if c == 0:
            if s >= 0 and g[G_DECK_TOP] < g[G_DECK_N]:
                g[rk[O_HAND] + s * NEV + g[rk[O_HAND_N] + s]] = g[rk[O_DECK] + g[G_DECK_TOP]]
                g[rk[O_HAND_N] + s] += 1
                g[G_DECK_TOP] += 1
            continue
        e = g[rk[O_LAB_GENE] + c]
        if e < 0:
            continue
        if s >= 0:
            g[rk[O_HELD] + s * E + e] += 1
            g[rk[O_WON] + s * E + e] += 1
            gained |= 1 << s
        else:
            g[rk[O_BAG] + e] += 1
    for s in range(P):
        if (gained >> s) & 1:
            set_traits(g, rk, s)
    g[G_PHASE] = PH_INITIATIVE


@kernel
def initiative(g, rk, u, pol):
    """Contract 4.3: lab order, then off-lab seats; stable by dinosaurs; Adrenaline rush."""
    P = rk[R_P]
    tmp = rk[O_SEATS]
    n = 0
    for c in range(P):
        s = g[rk[O_LAB_SEAT] + c]
        if s >= 0:
            g[tmp + n] = s
            n += 1
    for i in range(P):
        s = g[rk[O_ORDER] + i]
        on = False
        for c in range(P):
            if g[rk[O_LAB_SEAT] + c] == s:
                on = True
        if not on:
            g[tmp + n] = s
            n += 1
    for k in range(1, P):          # stable insertion sort by count ascending
        s = g[tmp + k]
        j = k - 1
        while j >= 0 and g[rk[O_COUNT] + g[tmp + j]] > g[rk[O_COUNT] + s]:
            g[tmp + j + 1] = g[tmp + j]
            j -= 1
        g[tmp + j + 1] = s
    for i in range(P):
        g[rk[O_ORDER] + i] = g[tmp + i]
    # the adrenaline seats, in the order of step 2 (kept at tmp + P..)
    na = 0
    for i in range(P):
        s = g[tmp + i]
        if g[rk[O_TRAIT] + s * N_TRAITS + T_ADRENALINE] == 1:
            g[tmp + P + na] = s
            na += 1
    for j in range(na):
        s = g[tmp + P + j]
        for k in range(P):
            set_opt(g, rk, k, k, 0, 0)
        k = opt(g, rk, ask(g, rk, u, pol, D_ADRENALINE, s, P), 0)
        at = 0
        for i in range(P):
            if g[rk[O_ORDER] + i] == s:
                at = i
        for i in range(at, P - 1):
            g[rk[O_ORDER] + i] = g[rk[O_ORDER] + i + 1]
        for i in range(P - 1, k, -1):
            g[rk[O_ORDER] + i] = g[rk[O_ORDER] + i - 1]
        g[rk[O_ORDER] + k] = s
    for c in range(P):
        g[rk[O_LAB_SEAT] + c] = -1
        g[rk[O_LAB_GENE] + c] = -1
        g[rk[O_LAB_BID] + c] = 0
    g[G_PHASE] = PH_MOVEMENT
