"""Phase 3 compiled whole (contract 4 "Phase 3", 5): the actions of one seat per game, with
every effect, reaction, Event, Pressure token and decision inside, the bots as compiled
policies handed in (jit.DECIDE_PTR_SIG: `pol[seat](address(q), address(rk[seat]), kind, seat, n, h)`).

This is the numpy engine's `phases.take_turn` game by game: the same steps in the same
order, the same end checks at the same places, the same decisions with the same counters
and keys (section 2), so a game plays the same whichever path runs it
(tests/evolversi/test_compiled_turn.py; the goldens and agreements). The numpy path stays
for the bots without a compiled form (script, restricted greedy) and for run_state.

A decision writes its facts into the frame `q` (decisions.FRAME: a header, then the
options at OPT, three words each) and the policy returns an option index 0..n-1 in the
contract's order; where the numpy engine passes a mask, the frame lists only the legal
options, in column order, so option r is the r-th legal column.

`S` is the state (the State arrays as a named tuple), `TB` the tables, `X` the scratch
(keys, E, T), all made by turn_inputs.py; nothing here allocates (nrt=False: jit.py).
"""
from __future__ import annotations

import numpy as np

from ...rng import BOT, CHANCE
from ...jit import address
from ...rng_jit import add, key3
from . import kernels as K
from .components import KIND_EVENTS
from .decisions import (D_BUY, D_IGNORE_EVENT, D_MORE, D_OPTIONAL, D_ORDER, D_REACT, D_SWAP_ABOVE,
                        D_SWAP_MARKET, D_TARGET, D_TOTEM_OR_FURY, OPT)
from .jit import fast
from .state import COND, PKIND, TARGET, TRIGGER, VERB
from .turn_inputs import (C_AFTER_OWN, C_FOURTH, C_FURY_MOD, C_KEYS, C_KNOCKOUTS, C_L, C_ORDER_KNOWN, C_OVERFLOW,
                          C_PPT, C_REACTIONS, C_RND, C_SEED, C_TO_COMMON)

# the contract's stable shuffle (kernels.shuffle_into), compiled in this build too
shuffle_into = fast(K.shuffle_into.py_func)
V_NONE, V_SWAP_MARKET, V_DISCOUNT = VERB["none"], VERB["swap_market"], VERB["discount"]
V_REVEAL_PRESSURE, V_DRAW_EVENT, V_TAKE_TOTEM = VERB["reveal_pressure"], VERB["draw_event"], VERB["take_totem"]
T_SELF, T_OTHER, T_ALL, T_ALL_OTHERS = TARGET["self"], TARGET["other"], TARGET["all"], TARGET["all_others"]
T_BEFORE, T_AFTER, T_PAIR = TARGET["before"], TARGET["after"], TARGET["self_and_other"]
C_ALWAYS, C_HAS_TOTEM, C_NO_TOTEM, C_FIRST, C_LAST = (COND[c] for c in ("always", "has_totem", "no_totem", "first", "last"))
TR_FURY, TR_BUY = TRIGGER["other_fury"], TRIGGER["other_buy"]
P_METEOR, P_TOTEM_OR_FURY, P_SWAP_ABOVE = PKIND["meteor"], PKIND["totem_or_fury"], PKIND["swap_above"]
END_TRACK = 0
# an Event with one of these verbs would resolve Events inside Events (a recursion numba
# does not compile): such a ruleset plays phase 3 on the numpy path (rules.compiled_turn)
EVENT_VERBS_NOT_COMPILED = np.array([V_REVEAL_PRESSURE, V_DRAW_EVENT], np.int8)

# The small helpers called most take only the arrays they touch (`*_on`); their `S` forms
# are inlined by numba, so the whole state is never passed to them (each array is a dozen
# arguments of a call).
@fast(inline=True)
def ask_on(b, x, kind, n, counter, games, C, decide, rkx, q):
    """`decide` = pol[x] and `rkx` = rk[x], taken by the caller: the seats' whole tuple and
    table would be some ten more words a call. Inlined where it is asked (a call passing
    four arrays cost more than these lines); the policy gets the frame and its data as two
    pointers (jit.DECIDE_PTR_SIG), the key hashed by a call (only when read)."""
    d = np.uint64(counter[b, x])
    counter[b, x] += 1
    if n == 1:                       # the one legal option: any policy answers 0 (decisions.py)
        return 0
    h = np.uint64(0)                 # the key, when some seat's policy reads keys (C_KEYS)
    if C[C_KEYS]:
        h = bot_key(np.uint64(C[C_SEED]), games[b], np.int64(C[C_RND]), np.int64(x), d)
    return decide(address(q), address(rkx), kind, x, n, h)


@fast
def bot_key(seed, game, rnd, x, d):
    """Contract section 2's decision key(seed, game, BOT, round, seat, d)."""
    return add(add(add(key3(seed, game, BOT), rnd), x), d)


@fast(inline=True)
def ask(b, x, kind, n, S, C, pol, rk, q):
    """Seat x of game b decides (contract section 2's counter and key); returns the option."""
    return ask_on(np.int64(b), np.int64(x), np.int64(kind), np.int64(n), S.counter, S.games, C, pol[x], rk[x], q)


@fast
def end_check_on(b, at_end, pos, alive, end_reason, rounds, winner, C):
    if not at_end[b]:
        return False
    at_end[b] = False
    P = pos.shape[1]
    won = False
    for p in range(P):
        if pos[b, p] >= C[C_L]:
            won = True
    if not won:
        return False
    alive[b] = False
    end_reason[b] = END_TRACK
    rounds[b] = C[C_RND]
    for p in range(P):
        winner[b, p] = pos[b, p] >= C[C_L]
    return True


@fast(inline=True)
def end_check(b, S, C):
    """Section 5.1 on game b: True if it ended (a pawn flagged on the last space). The
    flag is read here, so the common case (none) makes no call."""
    return S.at_end[b] and end_check_on(np.int64(b), S.at_end, S.pos, S.alive, S.end_reason, S.rounds, S.winner, C)


@fast(inline=True)
def apply_one(b, x, f, amt, Fc, t, S, C):
    """kernels.apply_verbs on one target t of game b (f: the verb's family)."""
    if t >= 0 and f != K.NOT_PER_TARGET:
        apply_on(np.int64(b), np.int64(x), np.int64(f), np.int64(amt), np.int64(Fc), np.int64(t), S.tokens, S.supply, S.fury, S.pos, S.at_end, S.fourth, S.fourth_round, C)


@fast(inline=True)
def apply_on(b, x, f, amt, Fc, t, tokens, supply, fury, pos, at_end, fourth, fourth_round, C):
    """kernels.apply_verbs on target t of game b. Inlined at its sites, though not a one-line
    helper (docs/design.md, "Compiled engines" 2): its call passed 7 arrays, about 60 words,
    for a few loads and stores; inlined, play is 1.09x faster for 9 s more of cold compile
    (28 -> 37-39 s of CPU)."""
    points = 0
    if f == K.GAIN_POINTS:
        points = amt
    elif f == K.LOSE_POINTS:
        points = -amt
    elif f == K.GAIN_TOKENS:
        got = min(amt, np.int64(supply[b]))
        tokens[b, t] += got
        supply[b] -= got
    elif f == K.LOSE_TOKENS or f == K.STEAL:
        lost = min(amt, np.int64(tokens[b, t]))
        tokens[b, t] -= lost
        if f == K.STEAL:
            tokens[b, x] += lost
        else:
            supply[b] += lost
    elif f == K.LOSE_FURY:
        fury[b, t] = max(np.int64(fury[b, t]) - amt, 0)
    else:                                    # GAIN_FURY, COPY_FURY
        total = np.int64(fury[b, t]) + (Fc if f == K.COPY_FURY else amt)
        fury[b, t] = total % C[C_FURY_MOD]
        points = (total // C[C_FURY_MOD]) * C[C_OVERFLOW]
    if points == 0:
        return
    L = C[C_L]
    old = np.int64(pos[b, t])
    new = min(max(old + points, 0), L)
    pos[b, t] = new
    if new >= L:
        at_end[b] = True
    if new != old and not fourth[b]:
        for p in range(pos.shape[1]):
            if pos[b, p] >= C[C_FOURTH]:
                fourth[b] = True
                fourth_round[b] = C[C_RND]
                break


@fast(inline=True)
def gain_fury(b, t, n, S, TB, C):
    apply_one(b, t, K.GAIN_FURY, n, n, t, S, C)


@fast
def condition_on(b, x, c, totem, order, C):
    if c == C_HAS_TOTEM:
        return totem[b] == x
    if c == C_NO_TOTEM:
        return totem[b] != x
    if c == C_FIRST:
        return C[C_ORDER_KNOWN] != 0 and order[b, 0] == x
    if c == C_LAST:
        return C[C_ORDER_KNOWN] != 0 and order[b, order.shape[1] - 1] == x
    return True


@fast(inline=True)
def condition(b, x, c, S, C):
    """Section 5.1's condition c for actor x of game b (kernels.conditions; "always"
    makes no call)."""
    return c == C_ALWAYS or condition_on(np.int64(b), np.int64(x), np.int64(c), S.totem, S.order, C)


@fast
def draw_event(b, x, S, TB, C, pol, rk, X):
    """The top Event (the Event discards reshuffled if the deck is empty), resolved, discarded."""
    keys, q = X[0], X[3]
    if S.n_event[b] == 0 and S.n_event_discard[b] > 0:
        no = np.int64(S.event_shuffles[b]) + 1
        nd = np.int64(S.n_event_discard[b])
        prefix = add(add(key3(np.uint64(C[C_SEED]), S.games[b], CHANCE), KIND_EVENTS), no)
        shuffle_into(S.event_discard[b], nd, S.event_deck[b], prefix, TB.ev_ident, keys)
        S.n_event[b] = nd
        S.n_event_discard[b] = 0
        S.event_shuffles[b] = no
    n = S.n_event[b]
    if n == 0:
        return
    ev = np.int64(S.event_deck[b, n - 1])
    S.event_deck[b, n - 1] = -1
    S.n_event[b] = n - 1
    if condition(b, x, TB.ev_cond[ev], S, C):
        on = TB.ev_active[ev] or C[C_KNOCKOUTS] == 0
        amt = np.int64(TB.ev_amount[ev]) if on else 0
        targets_and_verbs(b, x, TB.ev_verb[ev], amt, 0, TB.ev_target[ev], True, on, S, TB, C, pol, rk, X)
    k = S.n_event_discard[b]
    S.event_discard[b, k] = ev
    S.n_event_discard[b] = k + 1


@fast
def swap_market(b, x, on, S, C, pol, rk, X):
    """SWAP_MARKET among the occupied slot pairs; the two cards change slots (not if knocked out)."""
    q, opt = X[3], X[4]
    M = S.market.shape[1]
    n = 0
    for i in range(M):
        for j in range(i + 1, M):
            if S.market[b, i] >= 0 and S.market[b, j] >= 0:
                q[OPT + 3 * n] = S.market[b, i]
                q[OPT + 3 * n + 1] = S.market[b, j]
                q[OPT + 3 * n + 2] = i * M + j
                opt[n] = i * M + j
                n += 1
    if n == 0:
        return
    r = ask(b, x, D_SWAP_MARKET, n, S, C, pol, rk, q)
    if not on:
        return
    i, j = opt[r] // M, opt[r] % M
    c = S.market[b, i]
    S.market[b, i] = S.market[b, j]
    S.market[b, j] = c


@fast
def swap_above(b, x, on, above, counter, games, C, pol, rk, X):
    """SWAP_ABOVE (own above index, other seat, its above index) among the pairs of cards."""
    q, opt = X[3], X[4]
    P, H = above.shape[1], above.shape[2]
    n = 0
    col = 0
    for qq in range(H):
        for k in range(P - 1):
            o = (x + 1 + k) % P
            for r in range(H):
                if above[b, x, qq] >= 0 and above[b, o, r] >= 0:
                    q[OPT + 3 * n] = above[b, x, qq]
                    q[OPT + 3 * n + 1] = above[b, o, r]
                    q[OPT + 3 * n + 2] = col
                    opt[n] = col
                    n += 1
                col += 1
    if n == 0:
        return
    c = opt[ask_on(b, x, np.int64(D_SWAP_ABOVE), n, counter, games, C, pol[x], rk[x], q)]
    if not on:
        return
    qq, k, r = c // ((P - 1) * H), (c // H) % (P - 1), c % H
    o = (x + 1 + k) % P
    mine = above[b, x, qq]
    above[b, x, qq] = above[b, o, r]
    above[b, o, r] = mine


@fast(inline=True)
def activate_pressure(b, x, slot, S, TB, C, pol, rk, X):
    """Section 5.3: reveal the token and do what it says (a knocked-out one asks and does
    nothing). Only a Meteor pays the call that passes the state (draw_event)."""
    if pressure_token(np.int64(b), np.int64(x), np.int64(slot), S.p_token, S.p_revealed, S.reveals, S.totem,
                      S.above, S.counter, S.games, S.tokens, S.supply, S.fury, S.pos, S.at_end, S.fourth,
                      S.fourth_round, TB.pressure_kind, TB.pressure_fury, TB.pressure_active, C, pol, rk, X):
        draw_event(np.int64(b), np.int64(x), S, TB, C, pol, rk, X)


@fast
def pressure_token(b, x, slot, p_token, p_revealed, reveals, totem, above, counter, games, tokens, supply,
                   fury, pos, at_end, fourth, fourth_round, pressure_kind, pressure_fury, pressure_active,
                   C, pol, rk, X):
    """activate_pressure with only the arrays it touches: reveals the token and plays a
    Totem or Fury or a Swap; True for a Meteor to resolve (not knocked out)."""
    q = X[3]
    p_revealed[b, slot] = True
    reveals[b] += 1
    token = p_token[b, slot]
    kind = pressure_kind[token]
    on = pressure_active[token] or C[C_KNOCKOUTS] == 0
    if kind == P_METEOR:
        return on
    if kind == P_TOTEM_OR_FURY:
        q[0] = totem[b] == x
        to_fury = ask_on(b, x, np.int64(D_TOTEM_OR_FURY), np.int64(2), counter, games, C, pol[x], rk[x], q) == 1
        if on:
            if to_fury:
                n = np.int64(pressure_fury[token])
                apply_on(b, x, np.int64(K.GAIN_FURY), n, n, x, tokens, supply, fury, pos, at_end, fourth,
                         fourth_round, C)
            else:
                totem[b] = x
    elif kind == P_SWAP_ABOVE:
        swap_above(b, x, bool(on), above, counter, games, C, pol, rk, X)
    return False


@fast
def reveal_pressure(b, x, S, TB, C, pol, rk, X):
    """reveal_pressure: own turn only, within pressure_per_turn; the lowest face-down space
    >= the pawn, else the lowest face-down one."""
    if S.actor[b] != x or S.reveals[b] >= C[C_PPT]:
        return
    NS = S.p_space.shape[1]
    big = 1 << 20
    best, slot = 1 << 62, 0
    for k in range(NS):
        if S.p_token[b, k] >= 0 and not S.p_revealed[b, k]:
            sp = np.int64(S.p_space[b, k])
            rank = sp if sp >= S.pos[b, x] else sp + big
        else:
            rank = 4 * big
        if rank < best:
            best, slot = rank, k
    if NS and S.p_token[b, slot] >= 0 and not S.p_revealed[b, slot]:
        activate_pressure(np.int64(b), np.int64(x), np.int64(slot), S, TB, C, pol, rk, X)


@fast(inline=True)
def targets_and_verbs(b, x, verb, amt, F, target, event, on, S, TB, C, pol, rk, X):
    """effects.resolve_effect on game b (the condition already holds), all but the verbs
    reveal_pressure and draw_event: the targets (TARGET, IGNORE_EVENT), the per-target
    verbs, swap_market, discount and take_totem. Returns the first target (-1: none)."""
    T, q = X[2], X[3]
    P = S.pos.shape[1]
    f = TB.family[verb]
    if not event and TB.per_target[verb] and target == T_SELF:
        apply_one(b, x, f, amt, F, x, S, C)
        return x
    for j in range(P):
        T[j] = -1
    other = 0
    if target == T_OTHER or target == T_PAIR:
        q[0] = verb
        for j in range(P - 1):
            o = (x + 1 + j) % P
            q[OPT + 3 * j] = o
            q[OPT + 3 * j + 1] = S.tokens[b, o]
            q[OPT + 3 * j + 2] = S.pos[b, o]
        other = (x + 1 + ask(b, x, D_TARGET, P - 1, S, C, pol, rk, q)) % P
    if target == T_SELF:
        T[0] = x
    elif target == T_OTHER:
        T[0] = other
    elif target == T_PAIR:
        T[0] = x
        T[1] = other
    elif target == T_ALL:
        for j in range(P):
            T[j] = (x + j) % P
    elif target == T_ALL_OTHERS:
        for j in range(P - 1):
            T[j] = (x + 1 + j) % P
    elif target == T_BEFORE:
        for j in range(S.order_pos[b, x]):
            T[j] = S.order[b, j]
    elif target == T_AFTER:
        w = np.int64(S.order_pos[b, x])
        for j in range(P - 1 - w):
            T[j] = S.order[b, w + 1 + j]
    if event:
        holder = np.int64(S.totem[b])
        hit = False
        for j in range(P):
            if T[j] == holder:
                hit = True
        if hit:
            q[0] = verb
            if ask(b, holder, D_IGNORE_EVENT, 2, S, C, pol, rk, q) == 1:
                for j in range(P):
                    if T[j] == holder:
                        T[j] = -1
    first = T[0]
    for j in range(P):
        apply_one(b, x, f, amt, F, T[j], S, C)
    if verb == V_SWAP_MARKET:
        swap_market(np.int64(b), np.int64(x), bool(on), S, C, pol, rk, X)
    elif verb == V_DISCOUNT:
        S.discount[b] += amt
    elif verb == V_TAKE_TOTEM and on:
        S.totem[b] = x
    return first


@fast
def resolve_effect(b, x, verb, amount, target, Fc, on, S, TB, C, pol, rk, X):
    """resolve_card, called (a reaction's effect: rarer than an own card's, which inlines it)."""
    return resolve_card(b, x, verb, amount, target, Fc, on, S, TB, C, pol, rk, X)


@fast(inline=True)
def resolve_card(b, x, verb, amount, target, Fc, on, S, TB, C, pol, rk, X):
    """effects.resolve_effect for a card or a Power (not an Event: draw_event resolves its
    Event with targets_and_verbs, as no Event may reveal a token or draw an Event on this
    path: rules.compiled_turn), the condition already holds. Returns the first target."""
    amt, F = np.int64(amount), np.int64(Fc)
    if not on:
        amt, F = 0, 0
    first = targets_and_verbs(b, x, verb, amt, F, target, False, on, S, TB, C, pol, rk, X)
    if on and verb == V_REVEAL_PRESSURE:
        reveal_pressure(np.int64(b), np.int64(x), S, TB, C, pol, rk, X)
    elif on and verb == V_DRAW_EVENT:
        draw_event(np.int64(b), np.int64(x), S, TB, C, pol, rk, X)
    return first


@fast(inline=True)
def reactions(b, x, trigger, F, S, TB, C, pol, rk, X):
    """Section 5.4: the other seats' reaction cards, clockwise from x + 1. True if the game ended."""
    return C[C_REACTIONS] != 0 and reactions_on(np.int64(b), np.int64(x), np.int64(trigger), np.int64(F), S, TB, C, pol, rk, X)


@fast
def reactions_on(b, x, trigger, F, S, TB, C, pol, rk, X):
    q = X[3]
    P, H = S.below.shape[1], S.below.shape[2]
    for k in range(1, P):
        s = (x + k) % P
        for j in range(H):
            card = S.below[b, s, j]
            if card < 0 or TB.trigger[card] != trigger:
                continue
            if C[C_AFTER_OWN] == 0 and S.revealed[b, s]:
                continue
            if TB.optional[card]:
                q[0] = card
                if ask(b, s, D_REACT, 2, S, C, pol, rk, q) != 1:
                    continue
            if condition(b, s, TB.cond[card], S, C):
                on = TB.active[card] or C[C_KNOCKOUTS] == 0
                resolve_effect(np.int64(b), np.int64(s), np.int64(TB.verb[card]), np.int64(TB.amount[card]),
                               np.int64(TB.target[card]), np.int64(F), bool(on),
                               S, TB, C, pol, rk, X)
            S.below[b, s, j] = -1
            nd = S.n_discard[b, s]
            S.discard[b, s, nd] = card
            S.n_discard[b, s] = nd + 1
            if end_check(b, S, C):
                return True
    return False


@fast(inline=True)
def own_effects(b, x, S, TB, C, pol, rk, X):
    """Step 2b: the own-turn effect cards below in the ORDER chosen (5.2). True if it ended."""
    E, q = X[1], X[3]
    H = S.below.shape[2]
    n = 0
    for j in range(H):
        c = S.below[b, x, j]
        if c >= 0 and TB.own_fx[c]:
            E[n] = c
            q[1 + n] = c
            n += 1
    if n >= 2:
        nf = 1
        for i in range(2, n + 1):
            nf *= i
        q[0] = n
        pick = ask(b, x, D_ORDER, nf, S, C, pol, rk, q)
        if pick != 0:
            for i in range(n):
                E[i] = q[1 + TB.perms[n, pick, i]]
    for j in range(n):
        card = E[j]
        if not condition(b, x, TB.cond[card], S, C):
            continue
        if TB.optional[card]:
            q[0] = card
            q[1] = TB.verb[card]
            M = S.market.shape[1]
            q[2] = M
            for i in range(M):
                q[OPT + i] = S.market[b, i]
            if ask(b, x, D_OPTIONAL, 2, S, C, pol, rk, q) != 1:
                continue
        on = TB.active[card] or C[C_KNOCKOUTS] == 0
        t = resolve_card(b, x, TB.verb[card], TB.amount[card], TB.target[card], 0, on,
                           S, TB, C, pol, rk, X)
        if TB.more[card] > 0:
            q[0] = card
            q[1] = t
            if ask(b, x, D_MORE, 2, S, C, pol, rk, q) == 1 and on:
                apply_one(b, x, TB.family[TB.verb[card]], np.int64(TB.more[card]), 0, t, S, C)
        if TB.discard_sym[card]:
            slot = 0
            for i in range(H):
                if S.below[b, x, i] == card:
                    slot = i
                    break
            S.below[b, x, slot] = -1
            if C[C_TO_COMMON]:
                S.common[b, S.n_common[b]] = card
                S.n_common[b] += 1
            else:
                S.discard[b, x, S.n_discard[b, x]] = card
                S.n_discard[b, x] += 1
        if end_check(b, S, C):
            return True
    return False


@fast(inline=True)
def buy(b, x, S, TB, C, pol, rk, X):
    """Step 3: BUY, pay, the card on top of the deck, the slide, the reactions. True if it ended."""
    q, opt = X[3], X[4]
    M = S.market.shape[1]
    disc = np.int64(S.discount[b])
    tokens = np.int64(S.tokens[b, x])
    q[0] = tokens
    n = 1
    for i in range(M):
        cost = TB.costs[i] if disc == 0 else max(TB.costs[i] - disc, 0)
        if S.market[b, i] >= 0 and cost <= tokens:
            q[OPT + 3 * n] = S.market[b, i]
            q[OPT + 3 * n + 1] = cost
            q[OPT + 3 * n + 2] = i
            opt[n] = i
            n += 1
    r = ask(b, x, D_BUY, n, S, C, pol, rk, q)
    if r == 0:
        return False
    sl = opt[r]
    card = S.market[b, sl]
    price = max(TB.costs[sl] - disc, 0)
    S.tokens[b, x] -= price
    S.supply[b] += price
    S.deck[b, x, S.n_deck[b, x]] = card
    S.n_deck[b, x] += 1
    for j in range(sl, M - 1):
        S.market[b, j] = S.market[b, j + 1]
    S.market[b, M - 1] = -1
    S.bought[b, x, TB.row[card]] += 1
    if reactions(b, x, TR_BUY, 0, S, TB, C, pol, rk, X):
        return True
    return end_check(b, S, C)


@fast(inline=True)
def take_turn(b, k, S, TB, C, pol, rk, X):
    """Phase 3 steps 1-5 for the k-th seat of game b's turn order (phases.take_turn)."""
    H = S.above.shape[2]
    x = np.int64(S.order[b, k])
    S.actor[b] = x
    S.discount[b] = 0
    S.reveals[b] = 0
    n = 0                                            # step 1
    for j in range(H):
        if S.above[b, x, j] >= 0:
            n += TB.tokens[S.above[b, x, j]]
    got = min(n, np.int64(S.supply[b]))
    S.tokens[b, x] += got
    S.supply[b] -= got
    S.revealed[b, x] = True                          # step 2
    F = 0
    for j in range(H):
        if S.below[b, x, j] >= 0:
            F += TB.fury[S.below[b, x, j]]
    if F > 0:
        gain_fury(b, x, F, S, TB, C)
        if end_check(b, S, C):
            return
        if reactions(b, x, TR_FURY, F, S, TB, C, pol, rk, X):
            return
    if own_effects(b, x, S, TB, C, pol, rk, X):
        return
    if buy(b, x, S, TB, C, pol, rk, X):              # step 3
        return
    excess = max(np.int64(S.tokens[b, x]) - TB.reserve[S.animal[b, x]], 0)     # step 4
    S.tokens[b, x] -= excess
    S.supply[b] += excess
    NS = S.p_space.shape[1]                          # step 5
    if NS and S.reveals[b] < C[C_PPT]:
        for s in range(NS):
            if S.p_space[b, s] == S.pos[b, x] and S.p_token[b, s] >= 0 and not S.p_revealed[b, s]:
                activate_pressure(np.int64(b), np.int64(x), np.int64(s), S, TB, C, pol, rk, X)
                end_check(b, S, C)
                break
    S.actor[b] = -1
