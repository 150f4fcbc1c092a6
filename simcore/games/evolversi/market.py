"""The market over the batch: swaps, the purchase (phase 3 step 3) and a new market (phase 4)."""
from __future__ import annotations

import numpy as np

from . import effects, kernels
from .arrays import any_cols, put_rows
from .components import KIND_EVOLUTION
from .state import END_STALLED, TRIGGER


def market_pairs(run, g):
    market = run.st.market.take(g, axis=0)
    occupied = market >= 0
    valid = occupied[:, run.pairs[:, 0]] & occupied[:, run.pairs[:, 1]]
    return valid, market

# BUY columns: no purchase, then market slot i in column FIRST_SLOT + i
NO_PURCHASE, FIRST_SLOT = 0, 1


def swap_market(run, g, a, on=None):
    """SWAP_MARKET, then the two cards change slots; `on` (G,) bool or None: where False (a
    knocked-out card) the decision is asked and nothing moves."""
    st = run.st
    valid, market = market_pairs(run, g)
    can = any_cols(valid) if valid.shape[1] else np.zeros(len(g), bool)
    if not can.any():
        return
    g, a, valid, market = g[can], a[can], valid[can], market[can]
    col = run.decide("SWAP_MARKET", g, a, valid=valid, info={"market": market},
                      shared={"pairs": run.pairs})
    if on is not None:
        on = on[can]
        g, col = g[on], col[on]
    mf = st.market.reshape(-1)
    i, j = g * run.M + run.pairs[col, 0], g * run.M + run.pairs[col, 1]
    ci, cj = mf.take(i), mf.take(j)
    mf[i] = cj
    mf[j] = ci


def buy(run, g, a):
    """Step 3: BUY, pay, the card on top of the deck, the market slides right."""
    st, tb, P, M = run.st, run.tb, run.P, run.M
    G = len(g)
    gi = g * P + a
    market = st.market.take(g, axis=0)                              # (G, M)
    discount = st.discount.take(g)
    tf = st.tokens.reshape(-1)
    tokens = tf.take(gi)
    if discount.any():
        cost = np.maximum(run.costs[None, :] - discount[:, None], 0)
    else:                                   # the printed costs (a read-only view, no copy)
        cost = np.broadcast_to(run.costs, (G, M))
    valid = np.empty((G, M + 1), bool)
    valid[:, NO_PURCHASE] = True
    valid[:, FIRST_SLOT:] = (market >= 0) & (cost <= tokens[:, None])
    col = run.decide("BUY", g, a, valid=valid, info={"market": market, "cost": cost, "tokens": tokens})
    b = np.flatnonzero(col != NO_PURCHASE)
    if len(b):
        gb, ab, slot = g[b], a[b], col[b] - FIRST_SLOT
        kernels.pay_and_take(gb, ab, slot, run.costs, st.discount, tb.row, st.market, st.tokens, st.supply,
                             st.deck, st.n_deck, st.bought)
        effects.reactions(run, gb, ab, TRIGGER["other_buy"], np.zeros(len(gb), np.int16))
        run.end_check(gb)
        keep = st.alive.take(g)
        if not keep.all():
            g, a = g[keep], a[keep]
    return g, a


def new_market(run, g):
    """Phase 4: played cards to own discards, market to the common discards, refill
    (kernels.new_market), the leader bonus, the round limit."""
    st = run.st
    kernels.new_market(g, run.m, st.games, run.seed_u64, KIND_EVOLUTION, run.tb.ident, st.above, st.below,
                       st.revealed, st.discard, st.n_discard, st.market, st.common, st.n_common,
                       st.evo_deck, st.n_evo, st.evo_shuffles)
    g = leader_bonus(run, g)
    if run.rnd == run.rs["max_rounds"]:
        st.alive[g] = False
        st.end_reason[g] = END_STALLED
        st.rounds[g] = run.rnd


def leader_bonus(run, g):
    """The planted runaway-leader rule (leader_bonus, 0 = off): the sole leader on the track
    moves leader_bonus spaces; reaching the last space ends the game. Returns the live games."""
    bonus = run.rs["leader_bonus"]
    if bonus == 0 or len(g) == 0:
        return g
    pos = run.st.pos.take(g, axis=0)                             # (G, P)
    top = pos.max(axis=1)
    sole = (pos == top[:, None]).sum(axis=1) == 1
    if not sole.any():
        return g
    effects.move_pawn(run, g[sole], pos[sole].argmax(axis=1), bonus)
    return run.end_check(g)


def refill_market(run, g):
    """Slots 0..m-1 from the Evolution deck, reshuffling the common discards when it is empty."""
    st = run.st
    kernels.refill_market(g, run.m, st.games, run.seed_u64, KIND_EVOLUTION, run.tb.ident, st.market,
                          st.common, st.n_common, st.evo_deck, st.n_evo, st.evo_shuffles)
