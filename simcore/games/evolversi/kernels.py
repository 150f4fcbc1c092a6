"""The batch engine's compiled kernels: the decision-free steps that loop per game.

numpy spends most of these steps on per-call overhead and temporaries (each game has a
different deck length, and only some reshuffle), so they are one loop over the games
each, compiled with numba (jit.py). They do exactly what the numpy code did: the same
cards in the same places, the same shuffle keys
(simcore/rng_jit.py).

Piles are stacks: the top (next drawn) is the last filled entry. A shuffle orders the
pile's cards by key(seed, game, CHANCE, kind, *address, ident[uid]) ascending, the first
the top (contract section 2), so the stack holds them by key descending.
"""
from __future__ import annotations

import numpy as np

from ...rng import CHANCE
from ...rng_jit import add, key3
from .jit import kernel


@kernel
def shuffle_into(pile, n, stack, prefix, ident, keys):
    """The first n uids of `pile` (1-D) shuffled onto `stack` (1-D, top last) by the keys
    add(prefix, ident[uid]); ties keep pile order among the ~keys, as the stable argsort
    of the numpy engine's shuffle. `keys`: uint64 scratch of at least n entries. The pile is emptied."""
    for j in range(n):
        keys[j] = ~add(prefix, ident[pile[j]])
    # each card's place is its rank: the smaller ~keys, and the equal ones before it in the
    # pile (stable). n*n comparisons without branches, which LLVM vectorises: faster than
    # an insertion sort's mispredicted branches for these piles (10-50 cards)
    for j in range(n):
        k = keys[j]
        r = 0
        for i in range(n):
            r += (keys[i] < k) | ((keys[i] == k) & (i < j))
        stack[r] = pile[j]
    for j in range(n):
        pile[j] = -1


@kernel
def draw_hands(g, s, rnd, hand_size, hand_size_fourth, fourth, fourth_round, games, seed, kind,
               ident, deck, n_deck, shuffles, discard, n_discard, hand, n_hand, fires):
    """Phase 1's draw of seat s in each game of g (draw_seats). fires[i]: game g[i]
    reshuffled, so its Power fires (the caller's business)."""
    keys = np.empty(deck.shape[2] + discard.shape[2], np.uint64)
    for i in range(len(g)):
        fires[i] = draw_seats(g[i], s, s + 1, rnd, hand_size, hand_size_fourth, fourth, fourth_round, games,
                              seed, kind, ident, deck, n_deck, shuffles, discard, n_discard, hand, n_hand,
                              keys) == s


@kernel
def draw_seats(b, s0, s_end, rnd, hand_size, hand_size_fourth, fourth, fourth_round, games, seed, kind,
               ident, deck, n_deck, shuffles, discard, n_discard, hand, n_hand, keys):
    """Seats s0, s0 + 1, ... < s_end of game b draw in seat order (contract section 4): h
    cards off the deck; if it runs out, the rest of the deck, then (if the discard pile is
    not empty) the discards shuffled into a new deck (own-deck shuffle n + 1) and the
    missing cards from it. Stops after the first seat that reshuffled (its Power fires
    before the next seat draws: the caller's business) and returns it, else s_end. One
    body for the numpy path (a seat at a time) and rounds.draw (every seat of a round)."""
    for s in range(s0, s_end):
        h = hand_size_fourth if fourth[b] and fourth_round[b] < rnd else hand_size
        n = np.int64(n_deck[b, s])
        take = min(h, n)
        for j in range(take):
            hand[b, s, j] = deck[b, s, n - 1 - j]
            deck[b, s, n - 1 - j] = -1
        n_deck[b, s] = n - take
        n_hand[b, s] = take
        nd = np.int64(n_discard[b, s])
        if n >= h or nd == 0:
            continue
        no = np.int64(shuffles[b, s]) + 1
        prefix = add(add(add(key3(seed, games[b], CHANCE), kind), s), no)
        shuffle_into(discard[b, s], nd, deck[b, s], prefix, ident, keys)
        shuffles[b, s] = no
        n_discard[b, s] = 0
        more = min(h - n, nd)
        for j in range(more):
            hand[b, s, n + j] = deck[b, s, nd - 1 - j]
            deck[b, s, nd - 1 - j] = -1
        n_deck[b, s] = nd - more
        n_hand[b, s] = n + more
        return s
    return s_end


@kernel
def new_market(g, m, games, seed, kind, ident, above, below, revealed, discard, n_discard,
               market, common, n_common, evo_deck, n_evo, evo_shuffles):
    """Phase 4 for the games g (market_one)."""
    keys = np.empty(common.shape[1], np.uint64)
    for i in range(len(g)):
        market_one(g[i], m, games, seed, kind, ident, above, below, revealed, discard, n_discard,
                   market, common, n_common, evo_deck, n_evo, evo_shuffles, keys)


@kernel
def market_one(b, m, games, seed, kind, ident, above, below, revealed, discard, n_discard,
               market, common, n_common, evo_deck, n_evo, evo_shuffles, keys):
    """Phase 4 for game b (contract section 4): each seat's cards above, then below
    (placement order) onto its discard pile; the market's cards onto the common discards;
    slots 0..m-1 refilled from the Evolution deck, reshuffling the common discards into it
    (Evolution shuffle n + 1) when it is empty. One body for the numpy path and rounds.play."""
    P, H, M = above.shape[1], above.shape[2], market.shape[1]
    for s in range(P):
        k = np.int64(n_discard[b, s])
        for j in range(H):
            if above[b, s, j] >= 0:
                discard[b, s, k] = above[b, s, j]
                k += 1
            above[b, s, j] = -1
        for j in range(H):
            if below[b, s, j] >= 0:
                discard[b, s, k] = below[b, s, j]
                k += 1
            below[b, s, j] = -1
        n_discard[b, s] = k
        revealed[b, s] = False
    k = np.int64(n_common[b])
    for j in range(M):
        if market[b, j] >= 0:
            common[b, k] = market[b, j]
            k += 1
        market[b, j] = -1
    n_common[b] = k
    refill(b, m, games, seed, kind, ident, market, common, n_common, evo_deck, n_evo, evo_shuffles, keys)


@kernel
def refill_market(g, m, games, seed, kind, ident, market, common, n_common, evo_deck, n_evo, evo_shuffles):
    """Slots 0..m-1 of each game of g from the Evolution deck (setup's fill, phase 4's refill)."""
    keys = np.empty(common.shape[1], np.uint64)
    for i in range(len(g)):
        refill(g[i], m, games, seed, kind, ident, market, common, n_common, evo_deck, n_evo, evo_shuffles, keys)


@kernel
def refill(b, m, games, seed, kind, ident, market, common, n_common, evo_deck, n_evo, evo_shuffles, keys):
    """Slots 0..m-1 of game b in order from the top of the Evolution deck; when it is empty,
    the common discards shuffled into a new deck first; both empty: the slot stays empty."""
    for i in range(m):
        if n_evo[b] == 0 and n_common[b] > 0:
            no = np.int64(evo_shuffles[b]) + 1
            nc = np.int64(n_common[b])
            prefix = add(add(key3(seed, games[b], CHANCE), kind), no)
            shuffle_into(common[b], nc, evo_deck[b], prefix, ident, keys)
            n_evo[b] = nc
            n_common[b] = 0
            evo_shuffles[b] = no
        n = n_evo[b]
        if n > 0:
            market[b, i] = evo_deck[b, n - 1]
            evo_deck[b, n - 1] = -1
            n_evo[b] = n - 1


# what apply_verbs does per verb: effects.VERB_FAMILY maps each VERB code to one of these
NOT_PER_TARGET, GAIN_POINTS, LOSE_POINTS, GAIN_TOKENS, LOSE_TOKENS, STEAL, GAIN_FURY, COPY_FURY, LOSE_FURY = range(9)


@kernel
def apply_verbs(g, a, verb, n, F, T, family, L, fury_mod, overflow, fourth_space, rnd,
                tokens, supply, fury, pos, at_end, fourth, fourth_round):
    """The point, token and Fury verbs (contract 5.1) of game g[i], actor a[i], on its
    targets T[i, :] in order (-1: none), as effects.apply did: tokens come from and go to
    the supply and the actor's reserve one target after another; Fury wraps past fury_max
    into points; a pawn stays inside 0..L, flags the end check on L and flips the 4th Card."""
    P = pos.shape[1]
    for i in range(len(g)):
        b, x, f, amt = g[i], a[i], family[verb[i]], np.int64(n[i])
        for j in range(T.shape[1]):
            t = T[i, j]
            if t < 0 or f == NOT_PER_TARGET:
                continue
            points = 0
            if f == GAIN_POINTS:
                points = amt
            elif f == LOSE_POINTS:
                points = -amt
            elif f == GAIN_TOKENS:
                got = min(amt, np.int64(supply[b]))
                tokens[b, t] += got
                supply[b] -= got
            elif f == LOSE_TOKENS or f == STEAL:
                lost = min(amt, np.int64(tokens[b, t]))
                tokens[b, t] -= lost
                if f == STEAL:
                    tokens[b, x] += lost
                else:
                    supply[b] += lost
            elif f == LOSE_FURY:
                fury[b, t] = max(np.int64(fury[b, t]) - amt, 0)
            else:                                    # GAIN_FURY, COPY_FURY
                total = np.int64(fury[b, t]) + (np.int64(F[i]) if f == COPY_FURY else amt)
                fury[b, t] = total % fury_mod
                points = (total // fury_mod) * overflow
            if points == 0:
                continue
            old = np.int64(pos[b, t])
            new = min(max(old + points, 0), L)
            pos[b, t] = new
            if new >= L:
                at_end[b] = True
            if new != old and not fourth[b]:
                for p in range(P):
                    if pos[b, p] >= fourth_space:
                        fourth[b] = True
                        fourth_round[b] = rnd
                        break


@kernel
def turn_order(g, strength, totem, above, order, order_pos):
    """Phase 2 for the games g (turn_order_one)."""
    key = np.empty(above.shape[1], np.int64)
    for i in range(len(g)):
        turn_order_one(g[i], strength, totem, above, order, order_pos, key)


@kernel
def turn_order_one(b, strength, totem, above, order, order_pos, key):
    """Phase 2 for game b: seats by Strength (the cards above) descending, ties from the
    Totem holder clockwise; order[b, k] the k-th seat, order_pos[b, seat] its place. `key`:
    P int64 of scratch. One body for the numpy path and rounds.play."""
    P, H = above.shape[1], above.shape[2]
    for p in range(P):
        s = 0
        for j in range(H):
            if above[b, p, j] >= 0:
                s += strength[above[b, p, j]]
        # one distinct key per seat: (seat - totem) mod P breaks the Strength ties
        key[p] = -s * P + (p - np.int64(totem[b])) % P
    for k in range(P):
        best = 0
        for p in range(1, P):
            if key[p] < key[best]:
                best = p
        order[b, k] = best
        order_pos[b, best] = k
        key[best] = np.iinfo(np.int64).max


@kernel
def take_tokens(g, a, token_table, above, tokens, supply):
    """Phase 3 step 1: the tokens shown on the actor's cards above, as far as the supply goes."""
    H = above.shape[2]
    for i in range(len(g)):
        b, x = g[i], a[i]
        n = 0
        for j in range(H):
            if above[b, x, j] >= 0:
                n += token_table[above[b, x, j]]
        got = min(n, np.int64(supply[b]))
        tokens[b, x] += got
        supply[b] -= got


@kernel
def reserve(g, a, limit, animal, tokens, supply):
    """Phase 3 step 4: the actor's tokens above its animal's reserve go back to the supply."""
    for i in range(len(g)):
        b, x = g[i], a[i]
        excess = max(np.int64(tokens[b, x]) - limit[animal[b, x]], 0)
        tokens[b, x] -= excess
        supply[b] += excess


@kernel
def pay_and_take(g, a, slot, costs, discount, row, market, tokens, supply, deck, n_deck, bought):
    """Phase 3 step 3 after BUY: pay slot[i]'s cost after the discount into the supply, the
    card on top of the deck, the market slides right (slot j >= the bought one takes slot
    j + 1's card, the last is empty), the purchase tallied by card design row."""
    M = market.shape[1]
    for i in range(len(g)):
        b, x, sl = g[i], a[i], slot[i]
        card = market[b, sl]
        price = max(np.int64(costs[sl]) - discount[b], 0)
        tokens[b, x] -= price
        supply[b] += price
        deck[b, x, n_deck[b, x]] = card
        n_deck[b, x] += 1
        for j in range(sl, M - 1):
            market[b, j] = market[b, j + 1]
        market[b, M - 1] = -1
        bought[b, x, row[card]] += 1


@kernel
def fill_targets(g, a, target, other, codes, order, order_pos, T):
    """Section 5.1's targets of each game's effect, in order, into T (G, K), -1 padded:
    `codes` the TARGET codes (self, other, all, all_others, before, after, self_and_other),
    `other` the seat a TARGET decision chose (for other and self_and_other)."""
    P = order.shape[1]
    SELF, OTHER, ALL, ALL_OTHERS, BEFORE, AFTER, PAIR = codes[0], codes[1], codes[2], codes[3], codes[4], codes[5], codes[6]
    for i in range(len(g)):
        b, x, t = g[i], a[i], target[i]
        for j in range(T.shape[1]):
            T[i, j] = -1
        if t == SELF:
            T[i, 0] = x
        elif t == OTHER:
            T[i, 0] = other[i]
        elif t == PAIR:
            T[i, 0] = x
            T[i, 1] = other[i]
        elif t == ALL:
            for j in range(P):
                T[i, j] = (x + j) % P
        elif t == ALL_OTHERS:
            for j in range(P - 1):
                T[i, j] = (x + 1 + j) % P
        elif t == BEFORE:                     # this round's turn order
            for j in range(order_pos[b, x]):
                T[i, j] = order[b, j]
        elif t == AFTER:
            w = np.int64(order_pos[b, x])
            for j in range(P - 1 - w):
                T[i, j] = order[b, w + 1 + j]


@kernel
def reveal_below(g, a, fury_table, below, revealed, F):
    """Phase 3 step 2: the actor's cards below are revealed; F[i] their Fury symbols."""
    H = below.shape[2]
    for i in range(len(g)):
        b, x = g[i], a[i]
        revealed[b, x] = True
        f = 0
        for j in range(H):
            if below[b, x, j] >= 0:
                f += fury_table[below[b, x, j]]
        F[i] = f


@kernel
def effect_cards(g, a, own_fx, below, E, n_fx):
    """Step 2b's cards: the actor's cards below with an own-turn effect, in placement
    order, into E (G, H), -1 padded; n_fx[i] how many."""
    H = below.shape[2]
    for i in range(len(g)):
        b, x = g[i], a[i]
        k = 0
        for j in range(H):
            c = below[b, x, j]
            if c >= 0 and own_fx[c]:
                E[i, k] = c
                k += 1
        n_fx[i] = k
        for j in range(k, H):
            E[i, j] = -1


@kernel
def pressure_here(g, a, pos, p_space, p_token, p_revealed, slot):
    """Step 5: slot[i] the face-down token on the space of the actor's pawn (the first such
    slot), -1 if none."""
    S = p_space.shape[1]
    for i in range(len(g)):
        b, x = g[i], a[i]
        slot[i] = -1
        for k in range(S):
            if p_space[b, k] == pos[b, x] and p_token[b, k] >= 0 and not p_revealed[b, k]:
                slot[i] = k
                break


@kernel
def place_hand(g, s, pick, options, hand, n_hand, above, below):
    """Phase 1 after PLACE (place_seats): option pick[i] of `options` (n_opt, h) bool:
    position above?"""
    h = options.shape[1]
    masks = np.zeros(hand.shape[1], np.int64)
    for i in range(len(g)):
        x = np.int64(s[i])
        m = 0
        for j in range(h):
            if options[pick[i], j]:
                m |= 1 << j
        masks[x] = m
        place_seats(g[i], x, x + 1, masks, hand, n_hand, above, below)


@kernel
def place_seats(b, x0, x_end, masks, hand, n_hand, above, below):
    """Seats x0 .. x_end - 1 of game b place their hands: the positions of bit mask
    masks[x] above, the others below, each in hand order; the hands empty. One body for
    the numpy path (a seat at a time) and rounds.place (every seat)."""
    H = hand.shape[2]
    for x in range(x0, x_end):
        m = masks[x]
        ka = kb = 0
        for j in range(n_hand[b, x]):
            if (m >> j) & 1:
                above[b, x, ka] = hand[b, x, j]
                ka += 1
            else:
                below[b, x, kb] = hand[b, x, j]
                kb += 1
        for j in range(ka, H):
            above[b, x, j] = -1
        for j in range(kb, H):
            below[b, x, j] = -1
        for j in range(H):
            hand[b, x, j] = -1
        n_hand[b, x] = 0


@kernel
def conditions(g, a, cond, codes, order_known, totem, order, holds):
    """Section 5.1's conditions: holds[i] for game g[i], actor a[i], condition cond[i];
    `codes` the COND codes (always, has_totem, no_totem, first, last); first / last need
    this round's turn order (order_known)."""
    P = order.shape[1]
    ALWAYS, HAS_TOTEM, NO_TOTEM, FIRST, LAST = codes[0], codes[1], codes[2], codes[3], codes[4]
    for i in range(len(g)):
        b, x, c = g[i], a[i], cond[i]
        if c == ALWAYS:
            holds[i] = True
        elif c == HAS_TOTEM:
            holds[i] = totem[b] == x
        elif c == NO_TOTEM:
            holds[i] = totem[b] != x
        elif c == FIRST:
            holds[i] = order_known != 0 and order[b, 0] == x
        elif c == LAST:
            holds[i] = order_known != 0 and order[b, P - 1] == x
        else:
            holds[i] = True


@kernel
def discard_symbol(g, a, card, discard_sym, to_common, below, common, n_common, discard, n_discard):
    """Section 5.2: an activated card with the discard symbol leaves the actor's board at
    once, to the common discards (to_common) or to the actor's own discard pile."""
    H = below.shape[2]
    for i in range(len(g)):
        c = card[i]
        if not discard_sym[c]:
            continue
        b, x = g[i], a[i]
        slot = 0                                   # its place below (the first with it)
        for j in range(H):
            if below[b, x, j] == c:
                slot = j
                break
        below[b, x, slot] = -1
        if to_common:
            common[b, n_common[b]] = c
            n_common[b] += 1
        else:
            discard[b, x, n_discard[b, x]] = c
            n_discard[b, x] += 1


@kernel
def swap_above_options(g, a, above, own, theirs, valid):
    """SWAP_ABOVE's options (contract section 6) of each game: column (q * (P - 1) + k) * H
    + r is own card above q with the k-th other seat's (clockwise from a + 1) card above r;
    own / theirs (G, K) the two uids, valid (G, K) both there."""
    P, H = above.shape[1], above.shape[2]
    for i in range(len(g)):
        b, x = g[i], a[i]
        col = 0
        for q in range(H):
            for k in range(P - 1):
                o = (x + 1 + k) % P
                for r in range(H):
                    own[i, col] = above[b, x, q]
                    theirs[i, col] = above[b, o, r]
                    valid[i, col] = above[b, x, q] >= 0 and above[b, o, r] >= 0
                    col += 1


@kernel
def swap_above(g, a, col, above):
    """The two cards of SWAP_ABOVE's column col[i] change boards."""
    P, H = above.shape[1], above.shape[2]
    for i in range(len(g)):
        b, x = g[i], a[i]
        q, k, r = col[i] // ((P - 1) * H), (col[i] // H) % (P - 1), col[i] % H
        o = (x + 1 + k) % P
        mine = above[b, x, q]
        above[b, x, q] = above[b, o, r]
        above[b, o, r] = mine


@kernel
def draw_event(g, games, seed, kind, ident, event_deck, n_event, event_discard, n_event_discard,
               event_shuffles, ev):
    """ev[i] the top Event of game g[i], off its deck (-1: none); an empty deck is first
    the Event discards shuffled (Event shuffle n + 1), if there are any."""
    keys = np.empty(event_deck.shape[1], np.uint64)
    for i in range(len(g)):
        b = g[i]
        if n_event[b] == 0 and n_event_discard[b] > 0:
            no = np.int64(event_shuffles[b]) + 1
            nd = np.int64(n_event_discard[b])
            prefix = add(add(key3(seed, games[b], CHANCE), kind), no)
            shuffle_into(event_discard[b], nd, event_deck[b], prefix, ident, keys)
            n_event[b] = nd
            n_event_discard[b] = 0
            event_shuffles[b] = no
        n = n_event[b]
        ev[i] = -1
        if n > 0:
            ev[i] = event_deck[b, n - 1]
            event_deck[b, n - 1] = -1
            n_event[b] = n - 1
