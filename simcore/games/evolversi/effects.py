"""Card effects over the batch (contract 5.1, 5.4): conditions, targets, the verbs, reactions."""
from __future__ import annotations

import numpy as np

from . import kernels, market, piles, pressure
from .arrays import any_cols
from .state import COND, TARGET, VERB


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
        T = pressure.ignore_event(run, g, verb, T)
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
            market.swap_market(run, gs, as_, None if on is None else on[sel])
        elif name == "discount":
            st.discount[gs] += amount[sel]
        elif name == "reveal_pressure":
            pressure.reveal_pressure(run, gs, as_)
        elif name == "draw_event":
            pressure.draw_event(run, gs, as_)
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
