"""Phases 1-3 of a round over the batch (contract section 4): play the cards, turn order, actions."""
from __future__ import annotations

import math

import numpy as np

from . import effects, kernels
from .arrays import any_cols
from .components import KIND_OWN_DECK
from .state import TRIGGER


def play_cards(run, g, fresh=False):
    """Phase 1: every seat draws (seat order), then every seat places (seat order).

    `fresh`: every game of g starts the round with no cards drawn or placed (the case
    in play_round), so the checks for a state resumed mid-phase are skipped.
    """
    st, P = run.st, run.P
    run.order_known = False
    if not fresh:
        g = draw_due(run, g)
    else:
        for s in range(P):
            draw_hand(run, g[st.alive.take(g)], s)
        g = g[st.alive.take(g)]
    if fresh:                                  # every seat of every game places
        place(run, np.repeat(g, P), np.tile(np.arange(P), len(g)))
        return
    for s in range(P):
        place(run, g[~placed(run, g, s)], s)


def placed(run, g, s) -> np.ndarray:
    """(G,) bool: seat s of each game of g has cards above or below its board."""
    st, H = run.st, run.H
    gi = g * run.P + s
    return (any_cols(st.above.reshape(-1, H).take(gi, axis=0) >= 0)
            | any_cols(st.below.reshape(-1, H).take(gi, axis=0) >= 0))


def draw_due(run, g) -> np.ndarray:
    """Phase 1's draws, in seat order, for the seats with nothing in hand or on the board
    yet (a state resumed in phase 1 may have drawn some). Returns the games still running."""
    st, P = run.st, run.P
    for s in range(P):
        g = g[st.alive.take(g)]
        nothing_yet = (st.n_hand.reshape(-1).take(g * P + s) == 0) & ~placed(run, g, s)
        draw_hand(run, g[nothing_yet], s)
    return g[st.alive.take(g)]


def draw_hand(run, g, s):
    """Draw h cards; when the deck runs out, reshuffle the discards once, then the Power
    (the draw and the reshuffle: kernels.draw_hands; the Power: here, in seat order)."""
    st, rs = run.st, run.rs
    if len(g) == 0:
        return
    fires = np.empty(len(g), bool)
    # the 4th Card counts from the round after it flipped (a Power may flip it now)
    kernels.draw_hands(g, s, run.rnd, rs["hand_size"], rs["hand_size_fourth"], st.fourth, st.fourth_round,
                       st.games, run.seed_u64, KIND_OWN_DECK, run.tb.ident, st.deck, st.n_deck,
                       st.deck_shuffles, st.discard, st.n_discard, st.hand, st.n_hand, fires)
    if fires.any():
        power(run, g[fires], s)


def power(run, g, s):
    """The animal's Power (no OPTIONAL decision), then the end check."""
    st, tb = run.st, run.tb
    animal = st.animal.reshape(-1).take(g * run.P + s)
    a = np.full(len(g), s, np.int64)
    effects.resolve_effect(run, g, a, tb.power_verb[animal], tb.power_amount[animal], tb.power_target[animal],
                           np.zeros(len(g), np.int16), on=tb.power_active[animal] if tb.knockouts else None)
    run.end_check(g)


def place(run, g, s):
    """PLACE: choose which hand positions go above (contract section 6). `s`: the seat,
    or one seat per game of g (the seats' decisions do not depend on each other)."""
    st, tb, P, H = run.st, run.tb, run.P, run.H
    if len(g) == 0:
        return
    s = np.asarray(s, np.int64)
    if s.ndim == 0:
        s = np.full(len(g), s)
    gi = g * P + s
    n_hand = st.n_hand.reshape(-1).take(gi)
    lo, hi = int(n_hand.min()), int(n_hand.max())
    for h in ([lo] if lo == hi else np.unique(n_hand).tolist()):
        if lo == hi:
            gh, gih, seat = g, gi, s
        else:
            sel = n_hand == h
            gh, gih, seat = g[sel], gi[sel], s[sel]
        options = tb.place_options[h]
        hand = st.hand.reshape(-1, H).take(gih, axis=0)[:, :h]
        pick = run.decide("PLACE", gh, seat, n=len(options), info={"hand": hand},
                           shared={"options": options})
        kernels.place_hand(gh, seat, pick, options, st.hand, st.n_hand, st.above, st.below)


def turn_order(run, g):
    """Phase 2: Strength descending, ties from the Totem holder clockwise (kernels.turn_order)."""
    st = run.st
    kernels.turn_order(g, run.tb.strength, st.totem, st.above, st.order, st.order_pos)
    run.order_known = True


def take_turn(run, g, k):
    """Phase 3 for the k-th seat of the turn order in every game of g (steps 1-5; a game
    that ends drops out of g at the step where it ends)."""
    st, P = run.st, run.P
    a = st.order.reshape(-1).take(g * P + k).astype(np.int64)
    st.actor[g] = a
    st.discount[g] = 0
    st.reveals[g] = 0
    take_tokens(run, g, a)
    g, a = reveal(run, g, a)
    g, a = effects.buy(run, g, a)
    reserve(run, g, a)
    effects.pressure_step(run, g, a)
    st.actor[g] = -1


def take_tokens(run, g, a):
    """Step 1: the tokens shown on the cards above, as far as the supply goes."""
    st = run.st
    kernels.take_tokens(g, a, run.tb.tokens, st.above, st.tokens, st.supply)


def reveal(run, g, a):
    """Step 2: reveal the cards below: the Fury symbols (then reactions), then the effects.
    Returns the games still running and their actors."""
    st, tb = run.st, run.tb
    F = np.empty(len(g), np.int64)
    kernels.reveal_below(g, a, tb.fury, st.below, st.revealed, F)
    f = np.flatnonzero(F > 0)
    if len(f):
        gf, af, Ff = g[f], a[f], F[f]
        effects.gain_fury(run, gf, af, Ff)
        run.end_check(gf)
        live = st.alive.take(gf)
        effects.reactions(run, gf[live], af[live], TRIGGER["other_fury"], Ff[live])
        keep = st.alive.take(g)
        if not keep.all():
            g, a = g[keep], a[keep]
    return own_effects(run, g, a)


def reserve(run, g, a):
    """Step 4: the tokens above the animal's reserve go back to the supply."""
    st = run.st
    kernels.reserve(g, a, run.tb.reserve, st.animal, st.tokens, st.supply)


def own_effects(run, g, a):
    """Step 2b: the own-turn effects below (placement order), in the ORDER chosen
    (section 5.2)."""
    st, tb, H = run.st, run.tb, run.H
    G = len(g)
    if G == 0:
        return g, a
    # the effect cards first, in placement order, then -1 (read after the reactions)
    E = np.empty((G, H), np.int16)
    n_fx = np.empty(G, np.int64)
    kernels.effect_cards(g, a, tb.own_fx, st.below, E, n_fx)
    several = np.flatnonzero(n_fx >= 2)
    if len(several):
        gs, as_, ns = g[several], a[several], n_fx[several]
        n_opt = np.array([math.factorial(n) for n in range(H + 1)])[ns]
        pick = run.decide("ORDER", gs, as_, n=n_opt, info={"cards": E[several, :H]})
        turned = pick != 0                # option 0 keeps the placement order
        if turned.any():
            for n in np.unique(ns[turned]).tolist():
                sel = turned & (ns == n)
                perm = run.tb.perms[n][pick[sel]]                   # (g_n, n)
                rows = several[sel]
                E[rows, :n] = np.take_along_axis(E[rows, :n], perm.astype(np.int64), axis=1)
    for j in range(int(n_fx.max())):
        sel = (j < n_fx) & st.alive.take(g)
        if not sel.any():
            continue
        gj, aj, card = g[sel], a[sel], E[:, j][sel]
        ok = effects.condition_holds(run, gj, aj, tb.cond[card])
        opt = np.flatnonzero(ok & tb.optional[card])
        if len(opt):
            ok[opt] = optional(run, gj[opt], aj[opt], card[opt]) == 1
        if not ok.all():
            gj, aj, card = gj[ok], aj[ok], card[ok]
        t = effects.resolve_effect(run, gj, aj, tb.verb[card], tb.amount[card], tb.target[card],
                                   np.zeros(len(gj), np.int16), on=tb.active[card] if tb.knockouts else None)
        more = np.flatnonzero(tb.more[card] > 0)
        if len(more):
            effects.take_more(run, gj[more], aj[more], card[more], t[more])
        discard_symbol(run, gj, aj, card)
        run.end_check(gj)
    keep = st.alive.take(g)
    if keep.all():
        return g, a
    return g[keep], a[keep]


def optional(run, g, a, card):
    return run.decide("OPTIONAL", g, a, n=2, info={"card": card})


def discard_symbol(run, g, a, card):
    """An activated card with the discard symbol leaves the board at once (kernels.discard_symbol)."""
    st = run.st
    kernels.discard_symbol(g, np.asarray(a, np.int64), card, run.tb.discard_sym,
                           int(run.rs["discard_symbol_to"] == "common"), st.below, st.common, st.n_common,
                           st.discard, st.n_discard)
