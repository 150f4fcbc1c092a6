"""Card effects over the batch (contract 5.1, 5.4): conditions, targets, the verbs,
reactions; and what the verbs reach beyond the seats, in one module since each resolves
effects in turn: the market (swaps, the purchase of phase 3 step 3, a new market in phase 4)
and Events and Pressure tokens (contract 5.3)."""
from __future__ import annotations

import numpy as np

from . import kernels, piles
from .arrays import any_cols
from .components import KIND_EVENTS, KIND_EVOLUTION
from .state import COND, END_STALLED, PKIND, TARGET, TRIGGER, VERB


# Verbs applied to each target in turn; the others act on the actor alone.
_PER_TARGET = ("gain_points", "lose_points", "gain_tokens", "lose_tokens", "steal_tokens",
               "gain_fury", "lose_fury", "copy_fury")


def _verb_mask(*names) -> np.ndarray:
    """Lookup table verb code -> bool, for arithmetic on mixed verbs."""
    mask = np.zeros(len(VERB), bool)
    for name in names:
        mask[VERB[name]] = True
    return mask


_PER_TARGET_VERB = _verb_mask(*_PER_TARGET)
# actor-only verbs without an amount (a knocked-out entity's is skipped; see actor_only_verbs)
_VERB_NO_AMOUNT = _verb_mask("reveal_pressure", "draw_event", "take_totem")
# each verb's case in kernels.apply_verbs
VERB_FAMILY = np.full(len(VERB), kernels.NOT_PER_TARGET, np.int8)
for _name, _family in (("gain_points", kernels.GAIN_POINTS), ("lose_points", kernels.LOSE_POINTS),
                       ("gain_tokens", kernels.GAIN_TOKENS), ("lose_tokens", kernels.LOSE_TOKENS),
                       ("steal_tokens", kernels.STEAL), ("gain_fury", kernels.GAIN_FURY),
                       ("copy_fury", kernels.COPY_FURY), ("lose_fury", kernels.LOSE_FURY)):
    VERB_FAMILY[VERB[_name]] = _family
_COND_CODES = np.array([COND[c] for c in ("always", "has_totem", "no_totem", "first", "last")],
                       np.int64)   # kernels.conditions' order
_TARGET_CODES = np.array([TARGET[t] for t in ("self", "other", "all", "all_others", "before", "after",
                                            "self_and_other")], np.int64)   # kernels.fill_targets' order
_WIDE_TARGETS = [TARGET[t] for t in ("all", "all_others", "before", "after")]


def move_pawn(run, g, t, delta):
    """Pawn t of each game moves by delta, inside 0..track_length; 4th Card check."""
    st = run.st
    gi = g * run.P + t
    pf = st.pos.reshape(-1)
    old = pf.take(gi)
    new = np.minimum(np.maximum(old + delta, 0), run.L).astype(np.int16)
    pf[gi] = new
    top = new >= run.L
    if top.any():
        st.at_end[g[top]] = True
    moved = (new != old) & ~st.fourth.take(g)
    if moved.any():
        gm = g[moved]
        flips = any_cols(st.pos.take(gm, axis=0) >= run.rs["fourth_card_space"])
        st.fourth[gm[flips]] = True
        st.fourth_round[gm[flips]] = run.rnd


def gain_tokens(run, g, t, n):
    st = run.st
    sup = st.supply.take(g)
    take = np.minimum(n, sup)
    gi = g * run.P + t
    tf = st.tokens.reshape(-1)
    tf[gi] = tf.take(gi) + take
    st.supply[g] = sup - take


def gain_fury(run, g, t, n):
    """Section 5.1: Fury wraps past fury_max; each wrap is fury_overflow_points points."""
    apply(run, g, t, np.full(len(g), VERB["gain_fury"], np.int8), n, n, t)


def condition_holds(run, g, a, cond) -> np.ndarray:
    """(G,) bool: the condition of each game's effect holds for its actor (kernels.conditions)."""
    holds = np.empty(len(g), bool)
    st = run.st
    kernels.conditions(g, np.asarray(a, np.int64), cond, _COND_CODES, int(run.order_known), st.totem, st.order, holds)
    return holds


def resolve(run, g, a, verb, amount, target, cond, F, event=False, on=None):
    """Resolve an effect for actor a: condition, targets, decisions, verb (5.1, 5.3).
    `on`: None, or (G,) bool the effect's entity is active (see resolve_effect)."""
    ok = condition_holds(run, g, a, cond)
    if not ok.all():
        g, a, verb, amount, target, F = g[ok], a[ok], verb[ok], amount[ok], target[ok], F[ok]
        on = None if on is None else on[ok]
    resolve_effect(run, g, a, verb, amount, target, F, event, on)


def knocked_out(amount, F, on):
    """A knocked-out entity's effect (section 5.5): every decision it asks is still
    asked, as if it worked, and its verb changes nothing. Amount 0 (and copied Fury 0) makes
    each point, token, Fury and discount verb a no-op; actor_only_verbs skips the others."""
    return amount * on, F * on


def resolve_effect(run, g, a, verb, amount, target, F, event=False, on=None) -> np.ndarray:
    """The effect's targets and verb, the condition already checked. Returns (G,) the first
    target of each game (-1: none), for a card's `more` (take_more). `on`: None (every
    entity active) or (G,) bool, False where the effect's entity is knocked out."""
    if len(g) == 0:
        return np.zeros(0, np.int64)
    if on is not None:
        if on.all():
            on = None
        else:
            amount, F = knocked_out(amount, F, on)
    per_target = _PER_TARGET_VERB[verb]
    if not event and per_target.all() and (target == TARGET["self"]).all():
        apply(run, g, a, verb, amount, F, a)      # the common case: on the actor alone
        return a
    T = targets(run, g, a, verb, target)
    if event:
        T = ignore_event(run, g, verb, T)
    # the per-target verbs, one target after another (the kernel skips the other verbs)
    apply_targets(run, g, a, verb, amount, F, T)
    if not per_target.all():
        i = np.flatnonzero(~per_target)
        actor_only_verbs(run, g[i], a[i], verb[i], amount[i], None if on is None else on[i])
    return T[:, 0]


def take_more(run, g, a, card, t):
    """'You may also ... N more' (a card's `more`, e.g. Rapina): the actor's MORE decision,
    then the effect again with amount N on the same target t (section 5.2); a knocked-out
    card asks it too and then changes nothing."""
    tb = run.tb
    yes = run.decide("MORE", g, a, n=2, info={"card": card, "target": t}) == 1
    if tb.knockouts:
        yes &= tb.active[card]
    if yes.any():
        g, a, card, t = g[yes], a[yes], card[yes], t[yes]
        apply(run, g, a, tb.verb[card], tb.more[card], np.zeros(len(g), np.int16), t)


def apply(run, g, a, verb, n, F, t):
    """The point, token and Fury verbs on one target t per game (kernels.apply_verbs)."""
    apply_targets(run, g, a, verb, n, F, np.asarray(t, np.int64)[:, None])


def apply_targets(run, g, a, verb, n, F, T):
    """The point, token and Fury verbs on each game's targets T (G, K), in order, -1
    padded (kernels.apply_verbs; the other verbs are skipped)."""
    if len(g) == 0:
        return
    st, rs = run.st, run.rs
    i64 = np.int64                     # one compiled signature whatever the callers' dtypes
    kernels.apply_verbs(np.asarray(g, i64), np.asarray(a, i64), np.asarray(verb, np.int8), np.asarray(n, i64),
                        np.asarray(F, i64), np.ascontiguousarray(T, i64), VERB_FAMILY,
                        run.L, run.fury_mod, rs["fury_overflow_points"], rs["fourth_card_space"], run.rnd,
                        st.tokens, st.supply, st.fury, st.pos, st.at_end, st.fourth, st.fourth_round)


def actor_only_verbs(run, g, a, verb, amount, on=None):
    """The verbs that act on the actor alone. `on`: None or (G,) bool; where False (a
    knocked-out entity) swap_market still asks which cards and swaps none, the other
    verbs do nothing (their amounts are already 0)."""
    st = run.st
    if on is not None and not on.all():
        verb = np.where(~on & _VERB_NO_AMOUNT[verb], VERB["none"], verb)
    counts = np.bincount(verb, minlength=len(VERB))
    for name in ("swap_market", "discount", "reveal_pressure", "draw_event", "take_totem"):
        if counts[VERB[name]] == 0:
            continue
        if counts[VERB[name]] == len(g):
            gs, as_, sel = g, a, slice(None)
        else:
            sel = verb == VERB[name]
            gs, as_ = g[sel], a[sel]
        if name == "swap_market":
            swap_market(run, gs, as_, None if on is None else on[sel])
        elif name == "discount":
            st.discount[gs] += amount[sel]
        elif name == "reveal_pressure":
            reveal_pressure(run, gs, as_)
        elif name == "draw_event":
            draw_event(run, gs, as_)
        else:
            st.totem[gs] = as_


def targets(run, g, a, verb, target) -> np.ndarray:
    """(G, P) (or (G, 2) if no effect has more targets) seats the verb applies to,
    in order, -1 padded (section 5.1): the TARGET decisions, then kernels.fill_targets."""
    st, P = run.st, run.P
    G = len(g)
    counts = np.bincount(target, minlength=len(TARGET))
    wide = counts[_WIDE_TARGETS].sum() > 0
    T = np.empty((G, P if wide else 2), np.int64)
    if counts[TARGET["self"]] == G:
        T[:, 0] = a
        T[:, 1:] = -1
        return T
    other = np.zeros(G, np.int64)
    if counts[TARGET["other"]] or counts[TARGET["self_and_other"]]:
        c = np.flatnonzero((target == TARGET["other"]) | (target == TARGET["self_and_other"]))
        other[c] = choose_target(run, g[c], a[c], verb[c])
    kernels.fill_targets(g, np.asarray(a, np.int64), target, other, _TARGET_CODES, st.order, st.order_pos, T)
    return T


def others(run, a) -> np.ndarray:
    """(G, P-1) the other seats clockwise from a + 1 (the TARGET option order)."""
    return run._others.take(a, axis=0)


def choose_target(run, g, a, verb) -> np.ndarray:
    opts = others(run, a)
    pick = run.decide("TARGET", g, a, n=run.P - 1, info={"verb": verb, "options": opts})
    return opts[np.arange(len(g)), pick]


def reactions(run, g, x, trigger, F):
    """Section 5.4: the other seats' reaction cards, clockwise from x + 1."""
    if not run.tb.has_reactions or len(g) == 0:
        return
    st, tb, H = run.st, run.tb, run.H
    after_own = run.rs["reactions_after_own_turn"]
    bf = st.below.reshape(-1)
    for k in range(1, run.P):
        s = (x + k) % run.P
        gi = g * run.P + s
        for q in range(H):
            card = bf.take(gi * H + q)
            can = (tb.trigger[card] == trigger) & st.alive.take(g)
            if not after_own:
                can &= ~st.revealed.reshape(-1).take(gi)
            if not can.any():
                continue
            c = np.flatnonzero(can)
            gc, sc, cc, Fc = g[c], s[c], card[c], F[c]
            fire = ~tb.optional[cc]
            opt = np.flatnonzero(tb.optional[cc])
            if len(opt):
                yes = run.decide("REACT", gc[opt], sc[opt], n=2, info={"card": cc[opt]}) == 1
                fire[opt] = yes
            gc, sc, cc, Fc = gc[fire], sc[fire], cc[fire], Fc[fire]
            if len(gc) == 0:
                continue
            resolve(run, gc, sc, tb.verb[cc], tb.amount[cc], tb.target[cc], tb.cond[cc], Fc,
                    on=tb.active[cc] if tb.knockouts else None)
            bf[(gc * run.P + sc) * H + q] = -1
            piles.to_own_discard(run, gc, sc, cc)
            run.end_check(gc)


# ---------------------------------------------------------------- the market

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
        reactions(run, gb, ab, TRIGGER["other_buy"], np.zeros(len(gb), np.int16))
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
    move_pawn(run, g[sole], pos[sole].argmax(axis=1), bonus)
    return run.end_check(g)


def refill_market(run, g):
    """Slots 0..m-1 from the Evolution deck, reshuffling the common discards when it is empty."""
    st = run.st
    kernels.refill_market(g, run.m, st.games, run.seed_u64, KIND_EVOLUTION, run.tb.ident, st.market,
                          st.common, st.n_common, st.evo_deck, st.n_evo, st.evo_shuffles)


# ---------------------------------------------------------------- Events and Pressure tokens

def ignore_event(run, g, verb, T) -> np.ndarray:
    """Section 5.3: the Totem holder among the targets may ignore the Event."""
    st = run.st
    holder = st.totem.take(g).astype(np.int64)
    hit = any_cols(T == holder[:, None])
    if hit.any():
        h = np.flatnonzero(hit)
        ignore = run.decide("IGNORE_EVENT", g[h], holder[h], n=2, info={"verb": verb[h]}) == 1
        rows = h[ignore]
        T[rows] = np.where(T[rows] == holder[rows, None], -1, T[rows])
    return T


def draw_event(run, g, a):
    """draw_event: the top Event (reshuffle the Event discards if needed), resolve, discard."""
    st, tb = run.st, run.tb
    ev = np.empty(len(g), np.int64)
    kernels.draw_event(g, st.games, run.seed_u64, KIND_EVENTS, tb.ev_ident, st.event_deck, st.n_event,
                       st.event_discard, st.n_event_discard, st.event_shuffles, ev)
    has = ev >= 0
    if not has.all():
        g, a, ev = g[has], a[has], ev[has]
    if len(g) == 0:
        return
    V = st.event_deck.shape[1]
    resolve(run, g, a, tb.ev_verb[ev], tb.ev_amount[ev], tb.ev_target[ev], tb.ev_cond[ev],
                    np.zeros(len(g), np.int16), event=True, on=tb.ev_active[ev] if tb.knockouts else None)
    k = st.n_event_discard.take(g)
    st.event_discard.reshape(-1)[g * V + k] = ev
    st.n_event_discard[g] = k + 1


def reveal_pressure(run, g, a):
    """reveal_pressure: own turn only, within pressure_per_turn; lowest space >= pawn,
    else the lowest face-down token."""
    st = run.st
    own = (st.actor.take(g) == a) & (st.reveals.take(g) < run.rs["pressure_per_turn"])
    if not own.all():
        g, a = g[own], a[own]
    if len(g) == 0 or st.p_space.shape[1] == 0:   # no Pressure tokens in this game
        return
    space = st.p_space.take(g, axis=0).astype(np.int64)
    face_down = (st.p_token.take(g, axis=0) >= 0) & ~st.p_revealed.take(g, axis=0)
    ahead = space >= st.pos.reshape(-1).take(g * run.P + a)[:, None]
    big = 1 << 20
    rank = np.where(face_down, np.where(ahead, space, space + big), 4 * big)
    slot = rank.argmin(axis=1)
    found = face_down[np.arange(len(g)), slot]
    if found.any():
        activate_pressure(run, g[found], a[found], slot[found])


def activate_pressure(run, g, a, slot):
    """Section 5.3: reveal the token (it stays face up) and do what it says. A knocked-out
    token (section 5.5) is revealed, asks its decision and changes nothing."""
    st, tb = run.st, run.tb
    gs = g * st.p_token.shape[1] + slot
    st.p_revealed.reshape(-1)[gs] = True
    st.reveals[g] += 1
    token = st.p_token.reshape(-1).take(gs)
    kind = tb.pressure_kind[token]
    on = tb.pressure_active[token] if tb.knockouts else np.ones(len(g), bool)
    meteor = (kind == PKIND["meteor"]) & on
    if meteor.any():
        draw_event(run, g[meteor], a[meteor])
    tof = np.flatnonzero(kind == PKIND["totem_or_fury"])
    if len(tof):
        gt, at = g[tof], a[tof]
        holds = st.totem.take(gt) == at
        fury = run.decide("TOTEM_OR_FURY", gt, at, n=2, info={"holds_totem": holds}) == 1
        works = on[tof]
        totem = ~fury & works
        st.totem[gt[totem]] = at[totem]
        fury &= works
        if fury.any():
            gain_fury(run, gt[fury], at[fury], tb.pressure_fury[token[tof][fury]])
    swap = kind == PKIND["swap_above"]
    if swap.any():
        swap_above(run, g[swap], a[swap], on[swap])


def swap_above(run, g, a, on):
    """SWAP_ABOVE: (own above index, other seat, its above index), lexicographic; where
    `on` is False (a knocked-out token) the decision is asked and nothing moves."""
    st, H, P = run.st, run.H, run.P
    K = H * (P - 1) * H
    own, theirs = np.empty((len(g), K), np.int16), np.empty((len(g), K), np.int16)
    valid = np.empty((len(g), K), bool)
    kernels.swap_above_options(g, a, st.above, own, theirs, valid)
    can = valid.any(axis=1)
    if not can.any():
        return
    if not can.all():
        g, a, valid, own, theirs, on = g[can], a[can], valid[can], own[can], theirs[can], on[can]
    col = run.decide("SWAP_ABOVE", g, a, valid=valid, info={"own": own, "theirs": theirs})
    if not on.all():
        g, a, col = g[on], a[on], col[on]
    kernels.swap_above(g, a, col, st.above)


def pressure_step(run, g, a):
    """Step 5: the face-down token under the actor's pawn, if this turn may still reveal one."""
    st, P = run.st, run.P
    if st.p_space.shape[1] == 0:
        return
    # only pawns on a space that holds a Pressure token in some game can reveal one
    near = run.pressure_spaces()[st.pos.reshape(-1).take(g * P + a)] & (st.reveals.take(g) < run.rs["pressure_per_turn"])
    if not near.any():
        return
    gn, an = g[near], a[near]
    slot = np.empty(len(gn), np.int64)
    kernels.pressure_here(gn, an, st.pos, st.p_space, st.p_token, st.p_revealed, slot)
    hit = slot >= 0
    if hit.any():
        gh, ah = gn[hit], an[hit]
        activate_pressure(run, gh, ah, slot[hit])
        run.end_check(gh)
