"""The compiled turn (contract 3, 4, 6, 10): setup, decisions, playing a card and its
answers, the crown step, drawing back up, and the game loop over the batch.

`pol` is a tuple of one compiled policy per seat (jit.DECIDE_SIG, see decisions.py): the
engine only calls it; `u` is the uint64 scratch (u[0] the seed).
"""
from __future__ import annotations

import numpy as np

from ...rng import BOT, CHANCE
from .codes import (CANCEL, COMPLETE, COPY_CARD, D_ACTION, D_CANCEL, D_CROWN_COMPLETE,
                    D_DISCARD_PLACE, D_DOUBLE, D_NEXT_CARD, D_OPENING, D_PEEK, END_BOXED,
                    END_REVOLUTION, ERR_BAD_CHOICE, ERR_TURN_LIMIT, K_DECK, K_PART,
                    K_REMOVED_COLOUR, K_STRIKES, LOCK, NONE, SYM_CROWN_COMPLETE,
                    SYM_CROWN_DOUBLE, SYM_CROWN_PEEK)
from .decisions import (C_ACTOR, C_AMOUNT, C_COLOUR, C_DECLARED, C_DEPTH, C_EFFECT, C_OPT_A,
                        C_OPT_B, C_SLOT, effect_decision, effect_live, effective_effect)
from .jit import kernel
from .piles import add, complete_slot, discard, factorial, key3, refill, revolution, shuffle, take, unrank
from .state import (G_ANS_N, G_CUR, G_DISC_N, G_DLEN, G_DTOP, G_ENDED, G_ERR, G_GAME, G_RB, G_REASON,
                    G_RP, G_SDLEN, G_SDTOP, G_TPLAY_N, G_TURN, O_ANS, O_CTX, O_DCNT, O_DECK, O_HAND,
                    O_FRAME, O_HAND_N, O_HLIST, O_INPLAY, O_LOCK, O_LOCK_N, O_OPTS, O_OPTS2, O_PLAYED, O_SCRIPT, O_SDECK, O_SLOT,
                    O_SPOS, O_SUP, O_TAKEN_N, O_TFAT, O_TMP, O_TOK, O_TPLAY, R_BONUS, R_BOXED_RESOLVE,
                    R_C, R_DBL_REPEATS, R_DISCARD_PLACE, R_E, R_EXTRA, R_H, R_IDLE_FORBIDDEN, R_M, R_MAX_TURNS, R_N,
                    R_OPENING, R_P, R_PEEK, R_REV, R_RM_CANCELS, R_RM_COLOURS, R_S, R_SMALL, R_TOKENS,
                    T_CAMT, T_CCOL, T_CEFF, T_CNAME, T_CSID, T_SSID)
from .table import apply_tokens, effect_options, leader, live, place, symbol


@kernel
def ask(g, rk, u, pol, kind, seat, n):
    """Decision `kind` of `seat` among n options (rows at O_OPTS); contract 2's address."""
    d = g[rk[O_DCNT] + seat]
    g[rk[O_DCNT] + seat] = d + 1
    h = add(add(add(key3(u[0], g[G_GAME], BOT), g[G_TURN]), seat), d)
    c = pol[seat](g, rk, kind, seat, n, h)
    if c < 0 or c >= n:
        if g[G_ERR] == 0:
            g[G_ERR] = ERR_BAD_CHOICE
        c = 0
    return c


@kernel
def opt(g, rk, c, j):
    return g[rk[O_OPTS] + 2 * c + j]


@kernel
def set_opt(g, rk, n, a, b):
    g[rk[O_OPTS] + 2 * n] = a
    g[rk[O_OPTS] + 2 * n + 1] = b


@kernel
def to_hand(g, rk, x, card):
    """`card` into x's hand: its flag, and its place in x's ascending uid list."""
    N = rk[R_N]
    g[rk[O_HAND] + x * N + card] = 1
    n = g[rk[O_HAND_N] + x]
    hl = rk[O_HLIST] + x * N
    j = n
    while j > 0 and g[hl + j - 1] > card:
        g[hl + j] = g[hl + j - 1]
        j -= 1
    g[hl + j] = card
    g[rk[O_HAND_N] + x] = n + 1


@kernel
def from_hand(g, rk, x, card):
    N = rk[R_N]
    g[rk[O_HAND] + x * N + card] = 0
    n = g[rk[O_HAND_N] + x]
    hl = rk[O_HLIST] + x * N
    j = 0
    while g[hl + j] != card:
        j += 1
    for k in range(j, n - 1):
        g[hl + k] = g[hl + k + 1]
    g[rk[O_HAND_N] + x] = n - 1


@kernel
def tally(g, rk, x, card):
    g[rk[O_PLAYED] + x * rk[R_E] + rk[rk[T_CNAME] + card]] += 1


# ------------------------------------------------------------------ setup (contract 3)

@kernel
def setup(g, rk, u, pol, game):
    P, m, N, S, R, H = rk[R_P], rk[R_M], rk[R_N], rk[R_S], rk[R_REV], rk[R_H]
    for k in range(rk[O_SCRIPT]):
        g[k] = 0
    for k in range(rk[O_SPOS], g.shape[0]):
        g[k] = 0
    g[G_GAME] = game
    chance = key3(u[0], game, CHANCE)
    sd = rk[O_SDECK]
    for k in range(S):
        g[sd + k] = k
    shuffle(g, rk, u, add(chance, K_STRIKES), sd, S, rk[T_SSID])
    g[G_SDTOP], g[G_SDLEN] = 0, S
    for i in range(m):
        g[rk[O_SLOT] + i] = -1
    for x in range(P):
        g[rk[O_SUP] + x] = rk[R_TOKENS]
    for i in range(m):
        refill(g, rk, i)
    # capybara cards in play
    ip, tmp = rk[O_INPLAY], rk[O_TMP]
    for c in range(N):
        g[ip + c] = 1
    if rk[R_SMALL]:
        C = rk[R_C]
        for k in range(C):
            g[tmp + k] = k
        shuffle(g, rk, u, add(chance, K_REMOVED_COLOUR), tmp, C, -1)
        for c in range(N):
            for k in range(rk[R_RM_COLOURS]):
                if rk[rk[T_CCOL] + c] == g[tmp + k]:
                    g[ip + c] = 2
        left = rk[R_RM_CANCELS]
        for c in range(N - 1, -1, -1):
            if left > 0 and rk[rk[T_CCOL] + c] < 0:
                g[ip + c] = 2
                left -= 1
    dk = rk[O_DECK]
    n = 0
    for c in range(N):
        if g[ip + c] == 1:
            g[dk + n] = c
            n += 1
    shuffle(g, rk, u, add(chance, K_DECK), dk, n, rk[T_CSID])
    for x in range(P):
        for k in range(H):
            to_hand(g, rk, x, g[dk + x * H + k])
    rest = n - P * H
    q, r = rest // R, rest % R
    at, w = P * H, 0
    for i in range(R):
        size = q + 1 if i < r else q
        start = w
        for k in range(size):
            g[tmp + w] = g[dk + at + k]
            w += 1
        g[tmp + w] = N + i
        w += 1
        shuffle(g, rk, u, add(add(chance, K_PART), i), tmp + start, size + 1, rk[T_CSID])
        at += size
    for k in range(w):
        g[dk + k] = g[tmp + k]
    g[G_DTOP], g[G_DLEN] = 0, w
    # opening tokens, seats P-1 .. 0 (turn 0)
    for j in range(P - 1, -1, -1):
        nn = 0
        for i in range(m):
            if g[rk[O_SLOT] + i] >= 0 and strike_tokens(g, rk, i) == 0:
                set_opt(g, rk, nn, i, -1)
                nn += 1
        if nn == 0:
            for i in range(m):
                if g[rk[O_SLOT] + i] >= 0:
                    set_opt(g, rk, nn, i, -1)
                    nn += 1
        if nn > 0:
            c = ask(g, rk, u, pol, D_OPENING, j, nn)
            place(g, rk, False, j, opt(g, rk, c, 0), rk[R_OPENING])
    g[G_TURN], g[G_CUR] = 0, 0


@kernel
def strike_tokens(g, rk, i):
    P = rk[R_P]
    t = 0
    for s in range(P):
        t += g[rk[O_TOK] + i * P + s]
    return t


# ------------------------------------------------------------------ cards (contract 4.1, 6)

@kernel
def answer(g, rk, u, pol, a):
    """Contract 6's answer(card, a) as a loop over a stack of answering frames (in O_TMP, the
    answering cards in O_FRAME): True if the card played by `a` is cancelled."""
    P, N = rk[R_P], rk[R_N]
    fx, fj, fv = rk[O_TMP], rk[O_TMP] + N, rk[O_FRAME]
    depth = 0
    g[fx] = a
    g[fj] = 1
    ret = -1
    while True:
        if ret == 0 and not effect_live(g, rk, g[fv + depth + 1]):
            ret = 2                    # it stands but is knocked out: this card stands, no more asking
        if ret == 0:                   # the answer at depth + 1 stands: this card is cancelled
            if depth == 0:
                return True
            depth -= 1
            ret = 1
            continue
        if ret == 2:
            if depth == 0:
                return False
            depth -= 1
            ret = 0
            continue
        ret = -1                       # (ret == 1: that answer was cancelled, ask on)
        if g[fj + depth] >= P:
            if depth == 0:
                return False
            depth -= 1
            ret = 0
            continue
        y = (g[fx + depth] + g[fj + depth]) % P
        g[fj + depth] += 1
        v = -1
        hl = rk[O_HLIST] + y * N
        for k in range(g[rk[O_HAND_N] + y]):       # the lowest-uid cancel card in y's hand
            c = g[hl + k]
            if rk[rk[T_CEFF] + c] == CANCEL:
                v = c
                break
        if v < 0:
            continue
        g[rk[O_CTX] + C_DEPTH] = depth
        if ask(g, rk, u, pol, D_CANCEL, y, 2) == 1:
            from_hand(g, rk, y, v)
            tally(g, rk, y, v)
            g[rk[O_ANS] + g[G_ANS_N]] = v
            g[G_ANS_N] += 1
            depth += 1
            g[fx + depth] = y
            g[fj + depth] = 1
            g[fv + depth] = v


@kernel
def apply_real(g, rk, eff, amount, colour, a, oa, ob, card, idx):
    if eff == COMPLETE:
        take(g, rk, oa, leader(g, rk, rk[O_TOK], oa))
        refill(g, rk, oa)
    elif eff == LOCK:
        g[rk[O_LOCK] + oa * rk[R_N] + g[rk[O_LOCK_N] + oa]] = card
        g[rk[O_LOCK_N] + oa] += 1
        g[rk[O_TPLAY] + idx] = -1       # it lies on the strike, not in the discard pile
    else:
        apply_tokens(g, rk, False, eff, amount, colour, a, oa, ob)


@kernel
def set_ctx(g, rk, a, eff, amount, colour):
    c = rk[O_CTX]
    g[c + C_ACTOR], g[c + C_EFFECT], g[c + C_AMOUNT], g[c + C_COLOUR] = a, eff, amount, colour
    g[c + C_DECLARED], g[c + C_OPT_A], g[c + C_OPT_B] = 0, -1, -1


@kernel
def play_card(g, rk, u, pol, a, card, first, dbl):
    """Contract 4.1: play `card` from a's hand (first card of the turn: `first`; a led a
    crown_double strike before it: `dbl` = 1, a live one: 2). A knocked-out effect (card or
    crown) is declared, answered and repeated as if it worked, and applied never."""
    from_hand(g, rk, a, card)
    tally(g, rk, a, card)
    idx = g[G_TPLAY_N]
    g[rk[O_TPLAY] + idx] = card
    g[G_TPLAY_N] = idx + 1
    colour = rk[rk[T_CCOL] + card]
    eff, amount = effective_effect(g, rk, card)
    works = effect_live(g, rk, card)
    dk = effect_decision(eff)
    set_ctx(g, rk, a, eff, amount, colour)
    oa, ob, declared = -1, -1, False
    if dk >= 0:
        n = effect_options(g, rk, eff, colour, a, rk[O_OPTS])
        if n > 0:
            c = ask(g, rk, u, pol, dk, a, n)
            oa, ob, declared = opt(g, rk, c, 0), opt(g, rk, c, 1), True
            set_ctx(g, rk, a, eff, amount, colour)
            ctx = rk[O_CTX]
            g[ctx + C_DECLARED], g[ctx + C_OPT_A], g[ctx + C_OPT_B] = 1, oa, ob
    if answer(g, rk, u, pol, a):
        return
    if declared and works:
        apply_real(g, rk, eff, amount, colour, a, oa, ob, card, idx)
    if first and dbl > 0 and eff != LOCK and dk >= 0:
        for _ in range(rk[R_DBL_REPEATS]):
            n = effect_options(g, rk, eff, colour, a, rk[O_OPTS])
            if n == 0:
                break
            set_ctx(g, rk, a, eff, amount, colour)
            if ask(g, rk, u, pol, D_DOUBLE, a, 2) == 0:
                break
            n = effect_options(g, rk, eff, colour, a, rk[O_OPTS])
            c = ask(g, rk, u, pol, dk, a, n)
            if works and dbl == 2:
                apply_real(g, rk, eff, amount, colour, a, opt(g, rk, c, 0), opt(g, rk, c, 1), card, idx)


@kernel
def leads_symbol(g, rk, a, sym):
    """0: a leads no strike with symbol `sym`; 1: only knocked-out ones; 2: a live one."""
    best = 0
    for i in range(rk[R_M]):
        if symbol(g, rk, i) == sym and leader(g, rk, rk[O_TOK], i) == a:
            best = max(best, 2 if live(g, rk, i) else 1)
    return best


@kernel
def playable(g, rk, a, card):
    """Contract 4 step 1: whether `play card` is an option of a now. A coloured card; an
    effective `complete` needs a strike with a leader; with no_effect_plays = forbidden every
    card needs an option for its effective effect. Counted on the O_OPTS2 rows (O_OPTS holds
    the list being built)."""
    colour = rk[rk[T_CCOL] + card]
    if colour < 0:
        return False
    eff, _ = effective_effect(g, rk, card)
    if eff != COMPLETE and rk[R_IDLE_FORBIDDEN] == 0:
        return True
    return effect_decision(eff) >= 0 and effect_options(g, rk, eff, colour, a, rk[O_OPTS2]) > 0


@kernel
def action(g, rk, u, pol, a):
    """Contract 4 step 1: play a colour run, or discard a card to place a token."""
    P, m, N = rk[R_P], rk[R_M], rk[R_N]
    hl = rk[O_HLIST] + a * N            # a's hand, ascending uids
    nh = g[rk[O_HAND_N] + a]
    n = 0
    for k in range(nh):
        c = g[hl + k]
        if playable(g, rk, a, c):
            set_opt(g, rk, n, 0, c)
            n += 1
    for k in range(nh):
        set_opt(g, rk, n, 1, g[hl + k])
        n += 1
    if n == 0:
        return
    g[rk[O_CTX] + C_ACTOR] = a
    k = ask(g, rk, u, pol, D_ACTION, a, n)
    kind, card = opt(g, rk, k, 0), opt(g, rk, k, 1)
    if kind == 1:
        from_hand(g, rk, a, card)
        discard(g, rk, card)
        n = 0
        for j in range(P):
            x = (a + j) % P
            if g[rk[O_SUP] + x] >= 1:
                for i in range(m):
                    if g[rk[O_SLOT] + i] >= 0 and g[rk[O_LOCK_N] + i] == 0:
                        set_opt(g, rk, n, x, i)
                        n += 1
        if n > 0:
            c = ask(g, rk, u, pol, D_DISCARD_PLACE, a, n)
            place(g, rk, False, opt(g, rk, c, 0), opt(g, rk, c, 1), rk[R_DISCARD_PLACE])
        return
    colour = rk[rk[T_CCOL] + card]
    play_card(g, rk, u, pol, a, card, True, leads_symbol(g, rk, a, SYM_CROWN_DOUBLE))
    while True:
        n = 1
        set_opt(g, rk, 0, -1, -1)
        for k in range(g[rk[O_HAND_N] + a]):
            c = g[hl + k]
            if rk[rk[T_CCOL] + c] == colour and playable(g, rk, a, c):
                set_opt(g, rk, n, c, -1)
                n += 1
        if n == 1:
            return
        g[rk[O_CTX] + C_ACTOR] = a
        k = ask(g, rk, u, pol, D_NEXT_CARD, a, n)
        if k == 0:
            return
        play_card(g, rk, u, pol, a, opt(g, rk, k, 0), False, False)


@kernel
def crown_step(g, rk, u, pol, a):
    m = rk[R_M]
    for i in range(m):
        sym = symbol(g, rk, i)
        if sym != SYM_CROWN_COMPLETE and sym != SYM_CROWN_PEEK:
            continue
        if leader(g, rk, rk[O_TOK], i) != a:
            continue
        g[rk[O_CTX] + C_SLOT] = i
        works = live(g, rk, i)          # a knocked-out crown is asked about, and does nothing
        if sym == SYM_CROWN_COMPLETE:
            if ask(g, rk, u, pol, D_CROWN_COMPLETE, a, 2) == 1 and works:
                take(g, rk, i, a)
                lo = i - 1 if i > 0 and complete_slot(g, rk, i - 1) else i
                if i + 1 < m:
                    complete_slot(g, rk, i + 1)
                for j in range(lo, min(i + 2, m)):
                    if g[rk[O_SLOT] + j] < 0:
                        refill(g, rk, j)
        elif g[G_DLEN] > g[G_DTOP]:
            k = min(rk[R_PEEK], g[G_DLEN] - g[G_DTOP])
            g[rk[O_CTX] + C_SLOT] = k
            c = ask(g, rk, u, pol, D_PEEK, a, factorial(k))
            if works:
                unrank(g, rk[O_DECK] + g[G_DTOP], k, c, rk[O_TMP])


@kernel
def end(g, reason):
    g[G_ENDED] = 1
    g[G_REASON] = reason


@kernel
def draw(g, rk, a):
    """Contract 4.2: draw back up; Revolutions are played at once (the last ends the game)."""
    N, R = rk[R_N], rk[R_REV]
    dk = rk[O_DECK]
    target = rk[R_H]
    while g[rk[O_HAND_N] + a] < target and g[G_DTOP] < g[G_DLEN]:
        c = g[dk + g[G_DTOP]]
        g[G_DTOP] += 1
        if c < N:
            to_hand(g, rk, a, c)
            continue
        revolution(g, rk)
        g[G_RP] += 1
        if g[G_RP] + g[G_RB] == R:
            end(g, END_REVOLUTION)
            return
        if rk[R_BONUS]:
            target += rk[R_EXTRA]
        for _ in range(rk[R_EXTRA]):
            while g[G_DTOP] < g[G_DLEN]:
                c = g[dk + g[G_DTOP]]
                g[G_DTOP] += 1
                if c < N:
                    to_hand(g, rk, a, c)
                    break
                if g[G_RP] + g[G_RB] == R - 1 and rk[R_BOXED_RESOLVE]:
                    revolution(g, rk)
                    g[G_RP] += 1
                    end(g, END_REVOLUTION)
                    return
                g[G_RB] += 1
                if g[G_RP] + g[G_RB] == R:
                    end(g, END_BOXED)
                    return


@kernel
def play_turn(g, rk, u, pol):
    """Contract 4: one turn of seat `current`."""
    P = rk[R_P]
    g[G_TURN] += 1
    a = g[G_CUR]
    for x in range(P):
        g[rk[O_DCNT] + x] = 0
    g[G_TPLAY_N] = 0
    g[G_ANS_N] = 0
    action(g, rk, u, pol, a)
    for k in range(g[G_ANS_N]):
        discard(g, rk, g[rk[O_ANS] + k])
    for k in range(g[G_TPLAY_N]):
        if g[rk[O_TPLAY] + k] >= 0:
            discard(g, rk, g[rk[O_TPLAY] + k])
    g[G_TPLAY_N] = 0
    g[G_ANS_N] = 0
    crown_step(g, rk, u, pol, a)
    draw(g, rk, a)
    if not g[G_ENDED]:
        g[G_CUR] = (a + 1) % P


@kernel
def run(g, rk, u, pol, until, standing, b):
    """Play on until the end (until 2), the end of this turn (0) or of the round (1).
    `standing` (B, R, P): with B > 0, row b gets each seat's -fatigue after every table round
    and at the end (contract 11, trajectory); a (0, 0, 0) array records nothing."""
    P = rk[R_P]
    record = standing.shape[0] > 0
    while not g[G_ENDED] and g[G_ERR] == 0:
        if g[G_TURN] >= rk[R_MAX_TURNS]:
            g[G_ERR] = ERR_TURN_LIMIT
            return
        play_turn(g, rk, u, pol)
        at_round_end = g[G_TURN] % P == 0
        if record and (at_round_end or g[G_ENDED]):
            r = (g[G_TURN] + P - 1) // P - 1       # the (possibly partial) round just played
            for s in range(P):
                standing[b, r, s] = -g[rk[O_TFAT] + s]
        if until == 0 or (until == 1 and at_round_end):
            return


@kernel
def outcome(g, rk, b, fat, left, nstr, win, played, misc):
    """Contract 10-11: scores, tie-breaks, the row of game b."""
    P, m, E = rk[R_P], rk[R_M], rk[R_E]
    for s in range(P):
        fat[b, s] = g[rk[O_TFAT] + s]
        t = 0
        for i in range(m):
            t += g[rk[O_TOK] + i * P + s]
        left[b, s] = t
        nstr[b, s] = g[rk[O_TAKEN_N] + s]
        for e in range(E):
            played[b, s, e] = g[rk[O_PLAYED] + s * E + e]
    for s in range(P):
        best = True
        for x in range(P):
            if (fat[b, x], left[b, x], nstr[b, x]) < (fat[b, s], left[b, s], nstr[b, s]):
                best = False
        win[b, s] = best
    misc[b, 0] = g[G_TURN]
    misc[b, 1] = g[G_RP]
    misc[b, 2] = g[G_RB]
    misc[b, 3] = g[G_REASON]
    misc[b, 4] = g[G_ERR]


@kernel
def play_games(g, rk, u, pol, games, fat, left, nstr, win, played, misc, standing):
    """Every game of `games` from setup to the end, one after the other on the same `g`;
    `standing`: (B, R, P) trajectories, or (0, 0, 0) for none (see run)."""
    for b in range(games.shape[0]):
        setup(g, rk, u, pol, games[b])
        run(g, rk, u, pol, 2, standing, b)
        outcome(g, rk, b, fat, left, nstr, win, played, misc)
