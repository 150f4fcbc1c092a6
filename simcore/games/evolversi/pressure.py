"""Events and Pressure tokens over the batch (contract 5.3)."""
from __future__ import annotations

import numpy as np

from . import effects, kernels
from .components import KIND_EVENTS
from .arrays import any_cols
from .state import PKIND


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
    effects.resolve(run, g, a, tb.ev_verb[ev], tb.ev_amount[ev], tb.ev_target[ev], tb.ev_cond[ev],
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
            effects.gain_fury(run, gt[fury], at[fury], tb.pressure_fury[token[tof][fury]])
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
