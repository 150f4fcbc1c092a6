"""The greedy bot's compiled (batch) form: contract section 13, decision by decision, as a
C-callable policy of simcore/games/capybara/decisions.py's interface.

Each decision takes the option with the lowest E(s) after it (batch_evaluation.py: the
evaluation; batch_best_option.py: an effect's best option; batch_memo.py: a card's value
scored once per decision). Ties go to the lowest option index.

Restricted play (strategies/restrict.py's rule): `decide_greedy(..., mode, ent)`
with mode FAVOR or AVOID and a card name id `ent` chooses, at ACTION (play a card), NEXT_CARD
(play another) and CANCEL (yes = answer with the lowest-uid Capybaranka in hand), among the
options that play a card named `ent` (favor) or those that do not (avoid). The greedy's
data are its script rows: row 0 [mode, ent] (PLAIN, -1 unrestricted), then its weights
(rules._pack writes a seat's script rows into every game's array; they stay put across
games): read at run time, so neither a restriction nor a weights file recompiles anything.
"""
from __future__ import annotations

from simcore.games.capybara.codes import (CANCEL, D_ACTION, D_CANCEL, D_COMPLETE, D_COPY_TOKENS,
                                          D_CROWN_COMPLETE, D_DISCARD_PLACE, D_DOUBLE, D_GATHER,
                                          D_LOCK, D_NEXT_CARD, D_OPENING, D_PEEK, D_PLACE,
                                          D_PLACE_OTHERS)
from simcore.games.capybara.decisions import (C_ACTOR, C_AMOUNT, C_COLOUR, C_DECLARED, C_DEPTH,
                                              C_EFFECT, C_OPT_A, C_OPT_B, C_SLOT)
from simcore.games.capybara.jit import kernel, policy
from simcore.games.capybara.state import (G_DTOP, O_CTX, O_DECK, O_HAND, O_OPTS, O_OPTS2, O_SCRIPT,
                                          O_SFAT, O_SLOT, O_TOK, R_DISCARD_PLACE, R_L, R_M, R_N,
                                          R_OPENING, R_P, T_CEFF, T_CNAME)
from simcore.games.capybara.table import leader, sim_take, to_sim

from .batch_best_option import best_effect, score_options
from .batch_evaluation import evaluate, option_e, place_e, values_now
from .batch_memo import banned_out, card_value, discard_value, memo_choice, memo_open

# The weights (weights/default.toml, or the file of `greedy:weights=FILE`) ride in the seat's
# script rows after row 0 ([mode, ent]), in default.toml's order: read at run time, so a
# new weights file compiles nothing (registered.greedy_script writes them).
W_KEEP_CANCEL, W_CANCEL_FATIGUE, W_NEXT_CARD, W_DOUBLE, W_CROWN = range(5)
N_WEIGHTS = 5                 # weights/default.toml's [weights], in this order


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
