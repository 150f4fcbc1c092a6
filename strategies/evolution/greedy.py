"""The `greedy` Evolution bot: a sensible, deterministic player (no random draws).

Context (for seat c): `carn_out` - another player has a carnivore; `prey` - species of the
other players that are not carnivores; `want_carn` - prey >= number of players and c has
no carnivore yet ("becomes a carnivore when prey is plentiful").

Card value: a score per trait that depends on the context (`SCORES`): defensive traits
are worth most when carnivores are out, Carnivore only when c wants to become one.

Food card: the least valuable card (lowest score, then highest food value, then lowest
id), so the cards that help it stay in hand.

Card play, from the hand without the food card:
1. Becoming a carnivore (want_carn, a Carnivore card, room for a species, 2+ cards): a new
   species at the right end paid with the cheapest card (lowest score, food, id), the
   lowest-id Carnivore card on it, and the next cheapest card grows its body.
2. Otherwise: a new species (right end) with the cheapest card if it has at most one
   species and 3+ cards; then the best-scoring card (score > 0, not a trait the species
   already has, not Carnivore) onto the leftmost non-carnivore species with a free trait
   slot (or onto the new species); then, keeping at least one card in hand, the cheapest
   card grows the body of the smallest non-carnivore species if carnivores are out, else
   the population of the least populous one (ties: leftmost).
Feeding: the hungriest species (population - food, ties leftmost) among those that can
eat plant food and the carnivores that can attack another player (plant food on ties);
a carnivore attacks the target without Horns first, then the largest body, then in turn
order after its own seat, leftmost. Then Fat Tissue storing (most room), then
Intelligence (hungriest), else forgo (or the first legal option when forgoing is illegal).
Never attacks its own species; never spends a card on an Intelligence attack.
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution.traits import (AMBUSH, BURROWING, CARNIVORE, CLIMBING, COOPERATION,
                                            FAT_TISSUE, FERTILE, FORAGING, HARD_SHELL, HERDING,
                                            HORNS, INTELLIGENCE, LONG_NECK, PACK_HUNTING,
                                            SCAVENGER, SYMBIOSIS, TRAITS, WARNING_CALL)

DEFENSIVE = (BURROWING, CLIMBING, HARD_SHELL, HERDING, HORNS, SYMBIOSIS, WARNING_CALL)
FEEDING = (COOPERATION, FAT_TISSUE, FERTILE, FORAGING, LONG_NECK)


def _score_table() -> np.ndarray:
    """(2 carn_out, 2 want_carn, 17 traits) int: how much the bot wants to keep/play a trait."""
    t = np.zeros((2, 2, len(TRAITS)), np.int64)
    for out in (0, 1):
        for want in (0, 1):
            row = t[out, want]
            row[list(DEFENSIVE)] = 7 if out else 1
            row[list(FEEDING)] = 5
            row[[COOPERATION, FAT_TISSUE]] = 4
            row[SCAVENGER] = 3 if out else 1
            row[INTELLIGENCE] = 2
            row[CARNIVORE] = 9 if want else 0
            row[[AMBUSH, PACK_HUNTING]] = 0
    return t


SCORES = _score_table()


def _keep_key(score, food, card):
    """Smaller = given away first as the food card: low score, high food, low id."""
    return (int(score) << 20) + ((32 - int(food)) << 10) + int(card)


def _pay_key(score, food, card):
    """Smaller = spent first to pay for growth: low score, low food, low id."""
    return (int(score) << 20) + ((32 + int(food)) << 10) + int(card)


# ---------------------------------------------------------------- reference form

def _context(g, seat):
    carn_out, prey = False, 0
    for q, p in enumerate(g.players):
        if q == seat:
            continue
        for sp in p.species:
            if g.has(sp, CARNIVORE):
                carn_out = True
            else:
                prey += 1
    has_carn = any(g.has(sp, CARNIVORE) for sp in g.players[seat].species)
    want = prey >= len(g.players) and not has_carn
    return int(carn_out), int(want)


def _scores(g, seat):
    out, want = _context(g, seat)
    return SCORES[out, want], bool(out), bool(want)


def plan(g, seat) -> list:
    """The greedy card actions of `seat` (reference form)."""
    r = g.rules
    p = g.players[seat]
    score, carn_out, want = _scores(g, seat)
    food = g.cards.food
    hand = sorted(p.hand)
    n_sp = len(p.species)
    room = n_sp < r.species_slots

    def cheapest(used):
        left = [c for c in hand if c not in used]
        if not left:
            return None
        return min(left, key=lambda c: _pay_key(score[g.kind(c)], food[c], c))

    carn_cards = [c for c in hand if g.kind(c) == CARNIVORE]
    if want and carn_cards and room and len(hand) >= 2:
        cc = carn_cards[0]
        pay = cheapest({cc})
        acts = [("new", pay, 0), ("trait", cc, n_sp, -1)]
        grow = cheapest({cc, pay})
        if grow is not None:
            acts.append(("body", grow, n_sp))
        return acts
    acts, used = [], set()
    new = n_sp <= 1 and len(hand) >= 3 and room
    if new:
        pay = cheapest(used)
        acts.append(("new", pay, 0))
        used.add(pay)
    target = next((i for i, sp in enumerate(p.species)
                   if not g.has(sp, CARNIVORE) and len(sp.traits) < r.max_traits), None)
    if target is None and new:
        target = n_sp
    if target is not None:
        kinds = {g.kind(c) for c in p.species[target].traits} if target < n_sp else set()
        best, best_score = None, 0
        for c in hand:
            k = g.kind(c)
            if c in used or k in kinds or k == CARNIVORE or score[k] <= best_score:
                continue
            best, best_score = c, score[k]
        if best is not None:
            acts.append(("trait", best, target, -1))
            used.add(best)
    if len(hand) - len(used) >= 2:
        grow = cheapest(used)
        herb = [i for i, sp in enumerate(p.species) if not g.has(sp, CARNIVORE)]
        if carn_out:
            herb = [i for i in herb if p.species[i].body < r.max_body]
            if herb:
                acts.append(("body", grow, min(herb, key=lambda i: (p.species[i].body, i))))
        else:
            herb = [i for i in herb if p.species[i].pop < r.max_population]
            if herb:
                acts.append(("pop", grow, min(herb, key=lambda i: (p.species[i].pop, i))))
    return acts


def food_card(g, seat):
    score, _, _ = _scores(g, seat)
    hand = g.players[seat].hand
    return min(hand, key=lambda c: _keep_key(score[g.kind(c)], g.cards.food[c], c))


def feeding_choice(g, seat, opts) -> tuple:
    """The greedy choice among the legal feeding options `opts` (reference form)."""
    n = len(g.players)
    species = g.players[seat].species

    def hunger(i):
        return species[i].pop - species[i].food

    vegs = [o[1] for o in opts if o[0] == "veg"]
    attacks = [o for o in opts if o[0] == "attack" and o[4] < 0 and o[2] != seat]
    veg = min(vegs, key=lambda i: (-hunger(i), i)) if vegs else None
    att = min({o[1] for o in attacks}, key=lambda i: (-hunger(i), i)) if attacks else None
    if veg is not None and (att is None or hunger(veg) >= hunger(att)):
        return ("veg", veg)
    if att is not None:
        def target_key(o):
            sp = g.players[o[2]].species[o[3]]
            return (g.has(sp, HORNS), -sp.body, (o[2] - seat - 1) % n, o[3])
        return min((o for o in attacks if o[1] == att), key=target_key)
    stores = [o[1] for o in opts if o[0] == "store"]
    if stores:
        return ("store", min(stores, key=lambda i: (-(species[i].body - species[i].fat), i)))
    intel = [o[1] for o in opts if o[0] == "intel"]
    if intel:
        return ("intel", min(intel, key=lambda i: (-hunger(i), i)))
    return opts[0]


class Greedy:
    """Both forms: the reference methods and the batch methods make the same choices."""

    name = "greedy"

    def choose_food_card(self, g, seat):
        return food_card(g, seat)

    def play_cards(self, g, seat):
        return plan(g, seat)

    def choose_feeding(self, g, seat, opts, turn):
        return feeding_choice(g, seat, opts)

    def batch_food_card(self, E, st, g, c):
        return batch_food_card(E, st, g, c)

    def batch_play(self, E, st, g, c):
        return batch_plan(E, st, g, c)

    def batch_feed(self, E, st, g, c, opts, turn):
        return batch_feed(E, st, g, c, opts)


# ---------------------------------------------------------------- batch form

_BIG = np.int64(1) << 40


def _batch_context(st, g, c):
    """(carn_out, want_carn, has_carn) bool arrays for seats c of games g."""
    from simcore.games.evolution import rules as R
    P = st.P
    rows = np.arange(len(g))
    n_sp = R.game_rows(st, "n_species", g).astype(np.int64)            # (n, P)
    carn = R.bit(R.game_rows(st, "tmask", g), CARNIVORE)                # (n, P, S); empty: 0
    carn_seat = R.any_last(carn)                                        # (n, P)
    herb = n_sp - R.count_last(carn)                                    # (n, P)
    has_carn = carn_seat[rows, c]
    carn_out = R.count_last(carn_seat) > has_carn
    prey = -herb[rows, c]                                               # the others' prey
    for q in range(P):
        prey = prey + herb[:, q]
    return carn_out, (prey >= P) & ~has_carn, has_carn


def _hand(E, st, g, c):
    """The seats' hands as (n, H) card ids in increasing order (-1 padding), their
    scores in the current context, and the context flags."""
    from simcore.games.evolution.rules import hand_view
    hand = hand_view(st, g, c).astype(np.int64)                        # sorted, padded with N
    valid = hand < E.cards.n
    hand = np.where(valid, hand, -1)
    kind = np.where(valid, E.cards.kind.astype(np.int64)[hand], -1)
    food = E.cards.food.astype(np.int64)[hand]
    carn_out, want, _ = _batch_context(st, g, c)
    score = np.where(valid, SCORES[carn_out.astype(np.int64)[:, None],
                                   want.astype(np.int64)[:, None], np.maximum(kind, 0)], 0)
    return hand, valid, kind, food, score, carn_out, want


def _keep_keys(E) -> np.ndarray:
    """(4, N + 1) int64: `_keep_key` of every card id in each context (2 * carn_out + want);
    column N (the hand padding) is _BIG."""
    N = E.cards.n
    kind = E.cards.kind.astype(np.int64)
    food = E.cards.food.astype(np.int64)
    score = SCORES[:, :, kind].reshape(4, N)
    keys = np.full((4, N + 1), _BIG, np.int64)
    keys[:, :N] = (score << 20) + ((32 - food) << 10) + np.arange(N)
    return keys


def batch_food_card(E, st, g, c):
    from simcore.games.evolution.rules import hand_view
    hand = hand_view(st, g, c).astype(np.int64)                        # padded with N
    carn_out, want, _ = _batch_context(st, g, c)
    ctx = carn_out.astype(np.int64) * 2 + want
    key = _keep_keys(E)[ctx[:, None], hand]
    j = np.argmin(key, axis=1)
    return np.where(st.hand_n[g, c] > 0, hand[np.arange(len(g)), j], -1)


def batch_plan(E, st, g, c):
    """Card actions as (kind, card, species, slot) arrays (batch form of `plan`)."""
    from simcore.games.evolution import rules as R
    r = E.rules
    n, S = len(g), st.S
    rows = np.arange(n)
    hand, valid, kind, food, score, carn_out, want = _hand(E, st, g, c)
    H = hand.shape[1]
    count = np.count_nonzero(valid, axis=1)
    pay_key = (score << 20) + ((32 + food) << 10) + hand
    n_sp = R.seat_get(st, "n_species", g, c).astype(np.int64)
    room = n_sp < r.species_slots
    zero = np.zeros(n, np.int64)
    used = np.zeros((n, H), bool)

    def cheapest():
        left = valid & ~used
        j = np.argmin(np.where(left, pay_key, _BIG), axis=1)
        return j, np.where(left.any(1), hand[rows, j], -1)

    def use(mask, j):
        used[rows[mask], j[mask]] = True

    # 1. becoming a carnivore
    carn_cards = valid & (kind == CARNIVORE)
    j_cc = np.argmax(carn_cards, axis=1)
    cc = hand[rows, j_cc]
    do_carn = want & carn_cards.any(1) & room & (count >= 2)
    use(do_carn, j_cc)
    # 2. otherwise a new species for a small player
    do_new = ~do_carn & (n_sp <= 1) & (count >= 3) & room
    j_pay, pay = cheapest()
    new_kind = np.where(do_carn | do_new, R.NEW, R.NONE)
    use(do_carn | do_new, j_pay)
    # the trait
    sp_slots = np.arange(S)[None, :]
    tm = R.seat_rows(st, "tmask", g, c)
    herb = (sp_slots < n_sp[:, None]) & ~R.bit(tm, CARNIVORE)
    free = herb & (R.seat_rows(st, "n_traits", g, c) < r.max_traits)
    has_target = free.any(1)
    target = np.where(has_target, np.argmax(free, axis=1), n_sp)
    has_target |= do_new
    on_board = np.where(target < n_sp, tm[rows, np.minimum(target, S - 1)], 0)
    kind_on = ((on_board[:, None] >> np.maximum(kind, 0)) & 1).astype(bool)     # (n, H)
    ok = valid & ~used & ~kind_on & (kind != CARNIVORE) & (score > 0)
    j_best = np.argmax(np.where(ok, score * (H + 1) + (H - np.arange(H)), -1), axis=1)
    do_trait = ~do_carn & has_target & ok.any(1)
    use(do_trait, j_best)
    trait_card = np.where(do_carn, cc, hand[rows, j_best])
    trait_slot = np.where(do_carn, n_sp, target)
    trait_kind = np.where(do_carn | do_trait, R.TRAIT, R.NONE)
    # growth, keeping a card in hand
    n_used = np.count_nonzero(used, axis=1)
    _, grow = cheapest()
    body = R.seat_rows(st, "body", g, c).astype(np.int64)
    pop = R.seat_rows(st, "pop", g, c).astype(np.int64)
    by_body = herb & (body < r.max_body)
    by_pop = herb & (pop < r.max_population)
    idx = S - 1 - sp_slots
    s_body = np.argmax(np.where(by_body, (64 - body) * S + idx, -1), axis=1)
    s_pop = np.argmax(np.where(by_pop, (64 - pop) * S + idx, -1), axis=1)
    can_grow = ~do_carn & (count - n_used >= 2) & np.where(carn_out, by_body.any(1), by_pop.any(1))
    grow_kind = np.where(do_carn & (grow >= 0), R.BODY,
                         np.where(can_grow, np.where(carn_out, R.BODY, R.POP), R.NONE))
    grow_s = np.where(do_carn, n_sp, np.where(carn_out, s_body, s_pop))
    return [(new_kind, pay, zero, zero),
            (trait_kind, trait_card, trait_slot, zero - 1),
            (grow_kind, grow, grow_s, zero)]


def batch_feed(E, st, g, c, opts):
    """The greedy choice for each game (batch form of `feeding_choice`)."""
    from simcore.games.evolution import rules as R
    n, P, S = len(g), st.P, st.S
    ch = R.Choice.forgo(n)
    idx = (S - 1 - np.arange(S))[None, :]
    hunger = R.seat_rows(st, "pop", g, c).astype(np.int64) - R.seat_rows(st, "food", g, c)
    hkey = hunger * S + idx                                             # larger: hungrier, left
    veg_key = np.where(opts.veg, hkey, -_BIG)
    best_veg = R.max_last(veg_key)
    ch.s[:] = np.argmax(veg_key, axis=1)
    has_veg = R.any_last(opts.veg)
    ch.kind[has_veg] = R.VEG
    decided = has_veg.copy()

    m = len(opts.arows)
    if m:
        ar = opts.arows
        others = np.arange(P)[None, :] != c[ar][:, None]
        att = opts.att & others[:, None, :, None]
        attackers = R.any_last(att.reshape(att.shape[:2] + (-1,)))     # (m, S)
        a_key = np.where(attackers, hkey[ar], -_BIG)
        a = np.argmax(a_key, axis=1)
        # plant food wins ties of hunger: compare hunger only (key minus the index part)
        veg_h = np.where(has_veg[ar], best_veg[ar] // S, -_BIG)
        go = np.flatnonzero(R.any_last(attackers) & (R.max_last(a_key) // S > veg_h))
        if len(go):
            rows = ar[go]
            gg, cc = g[rows], c[rows]
            targets = att[go, a[go]]                                    # (k, P, S)
            no_horns = ~R.bit(st.tmask[gg], HORNS)
            rel = (np.arange(P)[None, :] - cc[:, None] - 1) % P
            order = rel[:, :, None] * S + np.arange(S)[None, None, :]
            key = ((no_horns.astype(np.int64) * 64 + st.body[gg]) * (P * S)
                   + (P * S - 1 - order))
            t = np.argmax(np.where(targets, key, -1).reshape(len(go), -1), axis=1)
            ch.kind[rows], ch.s[rows] = R.ATTACK, a[go]
            ch.q[rows], ch.d[rows] = t // S, t % S
            decided[rows] = True
    rest = np.flatnonzero(~decided)
    if len(rest):
        gr, cr = g[rest], c[rest]
        store = opts.store[rest]
        room = R.seat_rows(st, "body", gr, cr).astype(np.int64) - R.seat_rows(st, "fat", gr, cr)
        s_store = np.argmax(np.where(store, room * S + idx, -_BIG), axis=1)
        intel = opts.intel[rest]
        s_intel = np.argmax(np.where(intel, hkey[rest], -_BIG), axis=1)
        has_store, has_intel = R.any_last(store), R.any_last(intel)
        ch.kind[rest] = np.where(has_store, R.STORE, np.where(has_intel, R.INTEL, R.FORGO))
        ch.s[rest] = np.where(has_store, s_store, s_intel)
        left = rest[~has_store & ~has_intel & ~opts.forgo[rest]]
        if len(left):
            ch.put(left, opts.subset(left).pick(np.zeros(len(left), np.int64)))
    return ch
