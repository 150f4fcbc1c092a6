"""Whole rounds compiled: phases 1, 2 and 4 around turn.py's phase 3, game by
game, for the bots with a compiled form: `play` plays every game of a batch to its end in
one numba call (rules.play_batch), or one round (rules.play_round, a search branch).

Each step is the numpy engine's, card for card and key for key, with the same per-game
bodies (kernels.py): phase 1 is phases.play_cards (each seat draws in seat order,
kernels.draw_seats, its Power when it reshuffled, then every seat's PLACE and
kernels.place_seats), phase 2 kernels.turn_order_one, phase 4 market.new_market
(kernels.market_one, the leader bonus, the round limit). One
game's arrays stay in cache through its whole game, and no numpy call sits between the
steps (docs/games/evolversi.md section 14).

The per-game steps take only the arrays they touch, and each is one call per round (a
call that takes the state tuple passes some 600 scalars: turn.py; its cost, not the
steps', was most of the compiled time); phase 3's turn.take_turn is inlined, as in
turn.actions before.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from . import kernels as K
from . import turn as T, turn_inputs
from .components import KIND_EVOLUTION, KIND_OWN_DECK
from .decisions import D_PLACE, OPT
from .jit import fast
from .state import END_STALLED

# the tables phases 1 and 4 read (phase 3's are turn.Tables)
Tables = namedtuple("Tables", ["power_verb", "power_amount", "power_target", "power_active", "ident",
                               "place_mask", "place_n"])
# the rule numbers they read, after turn.constants' (rs names: hand_size, hand_size_fourth,
# the market fill, leader_bonus, max_rounds)
C_HAND, C_HAND_FOURTH, C_FILL, C_BONUS, C_MAX_ROUNDS = range(turn_inputs.N_CONST, turn_inputs.N_CONST + 5)
N_CONST = turn_inputs.N_CONST + 5
# the numpy path's per-game bodies (kernels.py), compiled in this build too: without
# reference counting, as the rest of play (calling the kernels' own build was 2-5% slower).
# Inlined at numba's IR level, as `place`: each has one call site here (play), so inlining
# adds no code to compile (cold compile unchanged, 28.5 s -> 28.8 s), and each saved a call
# passing some 18 arrays a round (play 1.09x faster)
draw_seats, place_seats = fast(K.draw_seats.py_func, inline=True), fast(K.place_seats.py_func, inline=True)
turn_order_one, market_one = fast(K.turn_order_one.py_func, inline=True), fast(K.market_one.py_func, inline=True)
# play's first phase: a fresh round, or phases 2-4 after a saved phase 1 (rules.finish_round)
FROM_PLAY, FROM_ORDER = 1, 2


def tables(run) -> Tables:
    """The Power tables, and each hand size h's PLACE options as bit masks (bit j: hand
    position j goes above), in tb.place_options' order."""
    tb = run.tb
    opts = tb.place_options
    mask = np.zeros((len(opts), max(len(o) for o in opts)), np.int64)
    for h, o in enumerate(opts):
        mask[h, :len(o)] = (o.astype(np.int64) << np.arange(h, dtype=np.int64)).sum(axis=1)
    return Tables(tb.power_verb, tb.power_amount, tb.power_target, tb.power_active, tb.ident, mask,
                  np.array([len(o) for o in opts], np.int64))


def constants(run) -> np.ndarray:
    rs = run.rs
    c = np.zeros(N_CONST, np.int64)
    c[:turn_inputs.N_CONST] = turn_inputs.constants(run)
    c[C_HAND], c[C_HAND_FOURTH], c[C_FILL] = rs["hand_size"], rs["hand_size_fourth"], run.m
    c[C_BONUS], c[C_MAX_ROUNDS] = rs["leader_bonus"], rs["max_rounds"]
    return c


@fast(inline=True)
def place(b, mask, n_opt, hand, n_hand, above, below, counter, games, C, pol, rk, q, picked):
    """PLACE for every seat of game b in seat order (frame: decisions.FRAME; `picked`: P
    int64 of scratch for the masks chosen), then kernels.place_seats for them all (one call
    per round, not per seat: a seat's choice does not depend on the others' placement).
    Inlined into play, its one call site."""
    P = hand.shape[1]
    for x in range(P):
        h = np.int64(n_hand[b, x])
        q[0] = h
        for j in range(h):
            q[1 + j] = hand[b, x, j]
        n = n_opt[h]
        for r in range(n):
            q[OPT + r] = mask[h, r]
        picked[x] = mask[h, T.ask_on(b, x, D_PLACE, n, counter, games, C, pol[x], rk[x], q)]
    place_seats(b, 0, P, picked, hand, n_hand, above, below)


@fast
def leader_bonus(b, C, pos, tokens, supply, fury, at_end, fourth, fourth_round):
    """market.leader_bonus on game b: the sole leader moves leader_bonus spaces."""
    P = pos.shape[1]
    top, lead, count = -1, 0, 0
    for p in range(P):
        if pos[b, p] > top:
            top, lead, count = pos[b, p], p, 1
        elif pos[b, p] == top:
            count += 1
    if count == 1:
        T.apply_on(b, lead, K.GAIN_POINTS, C[C_BONUS], 0, lead, tokens, supply, fury, pos, at_end, fourth,
                   fourth_round, C)


@fast
def play(g, first, n_rounds, S, TB, R, C, pol, rk, X, standing):
    """Play each game of g on, game by game, from phase `first` of round C[turn.C_RND], for
    n_rounds rounds at most (until it ends). `standing` (B, max_rounds, P): each seat's
    track position after each round played (play_batch's trajectories), or empty. A game
    that ends skips the rest of its round (the S.alive checks)."""
    keys, key, q = X[0], X[2], X[3]
    P = S.order.shape[1]
    rnd = C[T.C_RND]
    for i in range(len(g)):
        b = g[i]
        C[T.C_RND] = rnd
        for r in range(n_rounds):
            if not S.alive[b]:
                break
            if r > 0 or first == FROM_PLAY:
                C[T.C_ORDER_KNOWN] = 0
                for s in range(P):
                    S.counter[b, s] = 0
                s = 0                                                    # phase 1
                while s < P:
                    s = draw_seats(b, s, P, C[T.C_RND], C[C_HAND], C[C_HAND_FOURTH], S.fourth, S.fourth_round,
                                   S.games, np.uint64(C[T.C_SEED]), KIND_OWN_DECK, R.ident, S.deck, S.n_deck,
                                   S.deck_shuffles, S.discard, S.n_discard, S.hand, S.n_hand, keys)
                    if s < P:            # seat s reshuffled: its Power, before the next seat draws
                        a = S.animal[b, s]
                        on = R.power_active[a] or C[T.C_KNOCKOUTS] == 0
                        verb = np.int64(R.power_verb[a])
                        if TB.per_target[verb] and R.power_target[a] == T.T_SELF:
                            # turn.resolve_card's first case (the seat alone, no decision),
                            # without the call that takes the state
                            T.apply_one(b, s, TB.family[verb], R.power_amount[a] if on else 0, 0, s, S, C)
                        else:
                            T.resolve_effect(b, np.int64(s), verb, np.int64(R.power_amount[a]),
                                             np.int64(R.power_target[a]), np.int64(0), bool(on),
                                             S, TB, C, pol, rk, X)
                        if T.end_check(b, S, C):
                            break
                        s += 1
                if S.alive[b]:
                    place(b, R.place_mask, R.place_n, S.hand, S.n_hand, S.above, S.below, S.counter, S.games,
                          C, pol, rk, q, key)
            if S.alive[b]:
                turn_order_one(b, TB.strength, S.totem, S.above, S.order, S.order_pos, key)   # phase 2
                C[T.C_ORDER_KNOWN] = 1
                for k in range(P):                                       # phase 3
                    if not S.alive[b]:
                        break
                    T.take_turn(b, k, S, TB, C, pol, rk, X)
            if S.alive[b]:                                               # phase 4
                market_one(b, C[C_FILL], S.games, np.uint64(C[T.C_SEED]), KIND_EVOLUTION, R.ident, S.above,
                             S.below, S.revealed, S.discard, S.n_discard, S.market, S.common, S.n_common,
                             S.evo_deck, S.n_evo, S.evo_shuffles, keys)
                if C[C_BONUS] != 0:
                    leader_bonus(b, C, S.pos, S.tokens, S.supply, S.fury, S.at_end, S.fourth, S.fourth_round)
                    T.end_check(b, S, C)
                if S.alive[b] and C[T.C_RND] == C[C_MAX_ROUNDS]:
                    S.alive[b] = False
                    S.end_reason[b] = END_STALLED
                    S.rounds[b] = C[T.C_RND]
            if standing.shape[0]:
                for p in range(P):
                    standing[b, C[T.C_RND] - 1, p] = S.pos[b, p]
            C[T.C_RND] += 1
    C[T.C_RND] = rnd

