"""Evolution's batch engine, compiled: the rules as numba functions over the batch arrays.

The state is the batch `State` (state.py), packed as an `Arr` of its arrays; game `b` of
the batch is played by plain loops over its seats, species and cards, compiled by numba,
and the whole batch by a loop over `b`. Each function follows the function of the same
name in reference.py (the oracle) step for step, so both engines make the same random
draws (addresses.py) and ask the bots the same questions in the same order; the only
differences are the data structures (a species list is slots 0..n_species-1, a Python list
is an array and its length, the discard pile is `loc == DISCARD`).

Why compiled and not numpy-vectorised: feeding is turn by turn with a different branch in
each game at each turn; the vectorised engine measured 12.7x the reference engine, this
one is measured by `balancelab bench evolution` (see the README).

This module holds the rules only: no bot. The parts of a round that ask the bots (card
plays, feeding turns, whole rounds and games) are in engine.py, which jit.engine_for compiles
once per set of bots, with their compiled functions (decisions.Policy).

Every function here is compiled without reference counting and allocates nothing
(jit.py says why); scratch space comes packed with the state (packed.Arr: pend,
order, keys, uids) or from the caller (opts, acts, foods).
"""
from __future__ import annotations

import numpy as np

from simcore.rng import CHANCE

from . import addresses as A
from .jit import inline, kernel
from .packed import (ATTACK, BODY, FORGO, INTEL, NEW, POP, STORE, TRAIT, VEG, below, key_add,
                     key_start, works)
from .state import BOARD, DECK, DISCARD, FOOD_CARD
from .traits import (AMBUSH, BURROWING, CARNIVORE, CLIMBING, COOPERATION, FAT_TISSUE, FERTILE,
                     FORAGING, HARD_SHELL, HERDING, HORNS, INTELLIGENCE, LONG_NECK, NEGATABLE,
                     PACK_HUNTING, SCAVENGER, SYMBIOSIS, WARNING_CALL)

# feeding turn outcomes, as reference_feeding.feeding_turn
OUT, FED, PASSED = 0, 1, 2

MAX_ACTS = 8
NEGATABLE_T = NEGATABLE
inline_kernel = kernel
# Flags passed as plain int64: a literal True/False argument makes numba compile a
# specialisation of the callee per literal, which multiplies the compile time.
YES, NO = np.int64(1), np.int64(0)


@kernel
def max_options(P, S):
    """Rows an options array needs: forgo, veg/store/intel per species, two attack kinds."""
    return 1 + 3 * S + 2 * S * P * S


# ---------------------------------------------------------------- small helpers

@inline_kernel
def refresh_slot(a, rk, b, p, s):
    m = 0
    for k in range(a.n_traits[b, p, s]):
        m |= 1 << rk.kind[a.traits[b, p, s, k]]
    a.tmask[b, p, s] = m


@inline_kernel
def set_final_round(a, b, final, reason):
    if final < a.final_round[b]:
        a.final_round[b] = final
        a.end_reason[b] = reason


# ---------------------------------------------------------------- hands

@inline_kernel
def hand_remove(a, b, p, card):
    """Take `card` out of seat p's hand (the rest keep their order). False if absent."""
    n = a.hand_n[b, p]
    j = -1
    for k in range(n):
        if a.hand[b, p, k] == card:
            j = k
            break
    if j < 0:
        return False
    for k in range(j, n - 1):
        a.hand[b, p, k] = a.hand[b, p, k + 1]
    a.hand[b, p, n - 1] = a.loc.shape[1]
    a.hand_n[b, p] = n - 1
    return True


@inline_kernel
def hand_append(a, b, p, card):
    a.hand[b, p, a.hand_n[b, p]] = card
    a.hand_n[b, p] += 1
    a.loc[b, card] = p


@inline_kernel
def hand_sort(a, b, p):
    """Insertion sort (hands are short and nearly sorted)."""
    n = a.hand_n[b, p]
    for i in range(1, n):
        x = a.hand[b, p, i]
        j = i - 1
        while j >= 0 and a.hand[b, p, j] > x:
            a.hand[b, p, j + 1] = a.hand[b, p, j]
            j -= 1
        a.hand[b, p, j + 1] = x


@inline_kernel
def hand_min(a, b, p):
    m = a.loc.shape[1]
    for k in range(a.hand_n[b, p]):
        if a.hand[b, p, k] < m:
            m = a.hand[b, p, k]
    return m


# ---------------------------------------------------------------- species slots

@inline_kernel
def remove_species(a, b, p, i):
    """Delete species i of seat p: the boards to its right move one slot left."""
    n = a.n_species[b, p]
    for s in range(i, n - 1):
        a.food[b, p, s] = a.food[b, p, s + 1]
        a.body[b, p, s] = a.body[b, p, s + 1]
        a.pop[b, p, s] = a.pop[b, p, s + 1]
        a.fat[b, p, s] = a.fat[b, p, s + 1]
        a.n_traits[b, p, s] = a.n_traits[b, p, s + 1]
        a.tmask[b, p, s] = a.tmask[b, p, s + 1]
        for t in range(a.traits.shape[3]):
            a.traits[b, p, s, t] = a.traits[b, p, s + 1, t]
    last = n - 1
    a.food[b, p, last] = 0
    a.body[b, p, last] = 0
    a.pop[b, p, last] = 0
    a.fat[b, p, last] = 0
    a.n_traits[b, p, last] = 0
    a.tmask[b, p, last] = 0
    for t in range(a.traits.shape[3]):
        a.traits[b, p, last, t] = -1
    a.n_species[b, p] = n - 1


@inline_kernel
def new_species(a, rk, b, p, left):
    """A new board at the right end, or (left) at the left end (the others move right)."""
    n = a.n_species[b, p]
    at = n
    if left:
        for s in range(n, 0, -1):
            a.food[b, p, s] = a.food[b, p, s - 1]
            a.body[b, p, s] = a.body[b, p, s - 1]
            a.pop[b, p, s] = a.pop[b, p, s - 1]
            a.fat[b, p, s] = a.fat[b, p, s - 1]
            a.n_traits[b, p, s] = a.n_traits[b, p, s - 1]
            a.tmask[b, p, s] = a.tmask[b, p, s - 1]
            for t in range(a.traits.shape[3]):
                a.traits[b, p, s, t] = a.traits[b, p, s - 1, t]
        at = 0
    a.food[b, p, at] = 0
    a.body[b, p, at] = rk.new_species_body
    a.pop[b, p, at] = rk.new_species_population
    a.fat[b, p, at] = 0
    a.n_traits[b, p, at] = 0
    a.tmask[b, p, at] = 0
    for t in range(a.traits.shape[3]):
        a.traits[b, p, at, t] = -1
    a.n_species[b, p] = n + 1


# ---------------------------------------------------------------- taking food

@inline_kernel
def capacity(a, rk, b, p, i, meat):
    """Tokens species i can take now (hunger, plus fat room if it stores on eating)."""
    if not meat and rk.carnivores_refuse_plant and works(a, rk, b, p, i, CARNIVORE):
        return 0
    room = np.int64(a.pop[b, p, i]) - a.food[b, p, i]
    if rk.fat_stores_on_eating and works(a, rk, b, p, i, FAT_TISSUE):
        room += np.int64(a.body[b, p, i]) - a.fat[b, p, i]
    return room


@inline_kernel
def available(a, b, from_wh):
    return np.int64(a.wh[b]) if from_wh else np.int64(1 << 30)


@inline_kernel
def take(a, b, p, i, n, from_wh):
    to_food = min(n, np.int64(a.pop[b, p, i]) - a.food[b, p, i])
    a.food[b, p, i] += to_food
    a.fat[b, p, i] += n - to_food
    if from_wh:
        a.wh[b] -= n
    else:
        a.bank_out[b] += n


@inline_kernel
def take_once(a, rk, b, p, i, from_wh, meat, amount):
    """Species i takes up to `amount`, then Foraging's extra; returns the tokens taken."""
    n = min(amount, capacity(a, rk, b, p, i, meat), available(a, b, from_wh))
    if n <= 0:
        return 0
    take(a, b, p, i, n, from_wh)
    if works(a, rk, b, p, i, FORAGING) and (rk.foraging_any_food or not meat):
        m = min(rk.foraging_extra, capacity(a, rk, b, p, i, meat), available(a, b, from_wh))
        if m > 0:
            take(a, b, p, i, m, from_wh)
            n += m
    return n


@inline_kernel
def feed(a, rk, b, p, i, from_wh, meat, amount):
    """Species i of seat p takes food, then Cooperation passes 1 food per share to its right
    neighbour, depth first as reference_food.feed's recursion. True if species i ate.

    The recursion's pending calls always sit on consecutive slots with the deepest on top,
    so a count per slot and the deepest slot with a count replay it exactly."""
    n = take_once(a, rk, b, p, i, from_wh, meat, amount)
    if n <= 0:
        return False
    n_sp = a.n_species[b, p]
    if works(a, rk, b, p, i, COOPERATION) and i + 1 < n_sp:
        pend = a.pend
        for j in range(n_sp + 1):
            pend[j] = 0
        pend[i + 1] = n if rk.cooperation_per_token else 1
        top = i + 1
        while top > i:
            if pend[top] == 0:
                top -= 1
                continue
            pend[top] -= 1
            j = top
            m = take_once(a, rk, b, p, j, from_wh, meat, np.int64(1))
            if m > 0 and works(a, rk, b, p, j, COOPERATION) and j + 1 < n_sp:
                pend[j + 1] += m if rk.cooperation_per_token else 1
                top = j + 1
    return True


@inline_kernel
def store_fat(a, b, p, i):
    """cs4500's fat-tissue choice: as much as fits, from the Watering Hole."""
    n = min(np.int64(a.body[b, p, i]) - a.fat[b, p, i], np.int64(a.wh[b]))
    a.fat[b, p, i] += n
    a.wh[b] -= n


# ---------------------------------------------------------------- deck, extinction

@inline_kernel
def _radix_pass(keys, uids, to_keys, to_uids, count, m, shift):
    """One stable counting-sort pass of (key, uid) pairs on key bits shift..shift+7."""
    for d in range(256):
        count[d] = 0
    for k in range(m):
        count[np.int64((keys[k] >> np.uint64(shift)) & np.uint64(255))] += 1
    total = 0
    for d in range(256):
        c = count[d]
        count[d] = total
        total += c
    for k in range(m):
        d = np.int64((keys[k] >> np.uint64(shift)) & np.uint64(255))
        at = count[d]
        count[d] = at + 1
        to_keys[at] = keys[k]
        to_uids[at] = uids[k]


@kernel
def shuffle_into_deck(a, rk, b, m):
    """deck = the m cards a.uids[:m] (card ids, increasing) ordered by the keys of their
    stable uids at (SHUFFLE, shuffles, rk.carduid[card]), ties by card id: rng.shuffle_order's
    stable argsort of keys over increasing card ids (reference_state.Game.shuffle). Two stable
    radix passes order the pairs by the keys' top 16 bits; an insertion sort then orders
    the (rare) runs that share them."""
    keys, uids = a.keys, a.uids
    h0 = key_add(key_add(key_start(a.seed, a.games[b], CHANCE), A.SHUFFLE), a.shuffles[b])
    for k in range(m):
        keys[k] = key_add(h0, rk.carduid[uids[k]])
    _radix_pass(keys, uids, a.keys2, a.uids2, a.count, m, np.int64(48))
    _radix_pass(a.keys2, a.uids2, keys, uids, a.count, m, np.int64(56))
    for i in range(1, m):
        x, u = keys[i], uids[i]
        j = i - 1
        while j >= 0 and (keys[j] > x or (keys[j] == x and uids[j] > u)):
            keys[j + 1] = keys[j]
            uids[j + 1] = uids[j]
            j -= 1
        keys[j + 1] = x
        uids[j + 1] = u
    for k in range(m):
        c = uids[k]
        a.deck[b, k] = c
        a.loc[b, c] = DECK
    a.deck_top[b] = 0
    a.deck_len[b] = m
    a.shuffles[b] += 1


@kernel
def setup(a, rk, b, players):
    """The shuffled deck and the first player (reference.new_game)."""
    N = a.loc.shape[1]
    for c in range(N):
        a.uids[c] = c
    a.shuffles[b] = 0
    shuffle_into_deck(a, rk, b, np.int64(N))
    if rk.first_player_random:
        h = key_add(key_start(a.seed, a.games[b], CHANCE), A.FIRST_PLAYER)
        a.first[b] = below(h, players)


@inline_kernel
def reshuffle(a, rk, b):
    N = a.loc.shape[1]
    m = 0
    for c in range(N):
        if a.loc[b, c] == DISCARD:
            a.uids[m] = c
            m += 1
    shuffle_into_deck(a, rk, b, np.int64(m))
    set_final_round(a, b, np.int64(a.round[b] + 1), np.int64(A.END_RESHUFFLE))


@inline_kernel
def draw_front(a, rk, b, p, n):
    """Seat p draws n cards (reshuffling an empty deck where the rules say so); they go in
    front of its hand in draw order, as `player.hand[:0] = drawn`."""
    drawn = 0
    for _ in range(n):
        if a.deck_top[b] >= a.deck_len[b] and rk.reshuffle_discards:
            any_discard = False
            for c in range(a.loc.shape[1]):
                if a.loc[b, c] == DISCARD:
                    any_discard = True
                    break
            if any_discard:
                reshuffle(a, rk, b)
        if a.deck_top[b] >= a.deck_len[b]:
            break
        card = a.deck[b, a.deck_top[b]]
        a.deck_top[b] += 1
        # insert at position `drawn` (after the cards drawn before it)
        hn = a.hand_n[b, p]
        for k in range(hn, drawn, -1):
            a.hand[b, p, k] = a.hand[b, p, k - 1]
        a.hand[b, p, drawn] = card
        a.hand_n[b, p] = hn + 1
        a.loc[b, card] = p
        drawn += 1


@inline_kernel
def go_extinct(a, rk, b, p, i):
    """Species i leaves: traits to the discards, food back to the bank, the owner draws."""
    nt = a.n_traits[b, p, i]
    for t in range(nt):
        a.loc[b, a.traits[b, p, i, t]] = DISCARD
    a.bank_out[b] -= np.int64(a.food[b, p, i]) + a.fat[b, p, i]
    n = rk.extinction_cards_flat + rk.extinction_cards_per_trait * nt
    remove_species(a, b, p, i)
    draw_front(a, rk, b, p, n)


@inline_kernel
def lose_population(a, rk, b, p, i):
    """One population lost; True if the species went extinct."""
    a.pop[b, p, i] -= 1
    if a.food[b, p, i] > a.pop[b, p, i]:
        a.bank_out[b] -= np.int64(a.food[b, p, i]) - a.pop[b, p, i]
        a.food[b, p, i] = a.pop[b, p, i]
    if a.pop[b, p, i] <= 0:
        go_extinct(a, rk, b, p, i)
        return True
    return False


# ---------------------------------------------------------------- attack legality

@inline_kernel
def attack_size(a, rk, b, p, i):
    size = np.int64(a.body[b, p, i])
    if works(a, rk, b, p, i, PACK_HUNTING):
        size += rk.pack_hunting_bonus + (a.pop[b, p, i] if rk.pack_hunting_adds_population else 0)
    return size


@inline_kernel
def can_attack(a, rk, b, p, i, q, d, negate):
    """May species i of seat p attack species d of seat q (`negate`: a defensive trait an
    Intelligence carnivore ignores, -1 none)? As reference_attacks.can_attack."""
    if (p == q and i == d) or not works(a, rk, b, p, i, CARNIVORE):
        return False
    hard = negate != HARD_SHELL and works(a, rk, b, q, d, HARD_SHELL)
    size = np.int64(a.body[b, q, d]) + (rk.hard_shell_bonus if hard else 0)
    if (rk.size_always or hard) and attack_size(a, rk, b, p, i) < size + rk.size_margin:
        return False
    if negate != CLIMBING and works(a, rk, b, q, d, CLIMBING) and not works(a, rk, b, p, i, CLIMBING):
        return False
    if negate != BURROWING and works(a, rk, b, q, d, BURROWING) and a.food[b, q, d] == a.pop[b, q, d]:
        return False
    if negate != HERDING and works(a, rk, b, q, d, HERDING) and (
            a.pop[b, q, d] >= a.pop[b, p, i]
            or (rk.herding_needs_larger_body and a.body[b, q, d] >= a.body[b, p, i])):
        return False
    n_sp = a.n_species[b, q]
    warned = (d > 0 and works(a, rk, b, q, d - 1, WARNING_CALL)) or (
        d + 1 < n_sp and works(a, rk, b, q, d + 1, WARNING_CALL))
    if warned and negate != WARNING_CALL and not works(a, rk, b, p, i, AMBUSH):
        return False
    if negate != SYMBIOSIS and works(a, rk, b, q, d, SYMBIOSIS) and d + 1 < n_sp and \
            a.body[b, q, d + 1] > a.body[b, q, d]:
        return False
    return True


@inline_kernel
def intel_negation(a, rk, b, p, i, q, d):
    """The first negatable trait whose negation makes an illegal attack legal (-1 none)."""
    for t in NEGATABLE_T:
        if can_attack(a, rk, b, p, i, q, d, np.int64(t)):
            return t
    return -1


# ---------------------------------------------------------------- feeding options

@inline
def _row(opts, k, kind, s, q, d, neg):
    opts[k, 0] = kind
    opts[k, 1] = s
    opts[k, 2] = q
    opts[k, 3] = d
    opts[k, 4] = neg


@inline_kernel
def feeding_options(a, rk, b, seat, opts):
    """Write the legal feeding options of `seat` into rows of `opts` in the canonical order
    (reference_feeding.feeding_options); returns (rows, rows other than forgoing)."""
    P = a.n_species.shape[1]
    S = np.int64(a.n_species[b, seat])      # int64 indices: one compiled capacity (range(int8) counts in int32)
    k = 1                                    # row 0 is kept for forgoing
    any_veg = False
    for s in range(S):
        if a.wh[b] > 0 and not works(a, rk, b, seat, s, CARNIVORE) and \
                capacity(a, rk, b, seat, s, NO) > 0:
            _row(opts, k, VEG, s, 0, 0, -1)
            k += 1
            any_veg = True
    if rk.fat_store_action:
        for s in range(S):
            if works(a, rk, b, seat, s, FAT_TISSUE) and a.body[b, seat, s] > a.fat[b, seat, s]:
                _row(opts, k, STORE, s, 0, 0, -1)
                k += 1
    has_card = a.hand_n[b, seat] > 0
    if has_card:
        for s in range(S):
            if works(a, rk, b, seat, s, INTELLIGENCE) and not works(a, rk, b, seat, s, CARNIVORE) and \
                    capacity(a, rk, b, seat, s, NO) > 0:
                _row(opts, k, INTEL, s, 0, 0, -1)
                k += 1
    plain = 0
    for s in range(S):
        if works(a, rk, b, seat, s, CARNIVORE) and capacity(a, rk, b, seat, s, YES) > 0:
            for q in range(P):
                if q == seat and not rk.attack_own_species:
                    continue
                for d in range(a.n_species[b, q]):
                    if can_attack(a, rk, b, seat, s, q, d, np.int64(-1)):
                        _row(opts, k, ATTACK, s, q, d, -1)
                        k += 1
                        plain += 1
    for s in range(S):                       # attacks that need an Intelligence discard
        if has_card and works(a, rk, b, seat, s, INTELLIGENCE) and works(a, rk, b, seat, s, CARNIVORE) \
                and capacity(a, rk, b, seat, s, YES) > 0:
            for q in range(P):
                if q == seat and not rk.attack_own_species:
                    continue
                for d in range(a.n_species[b, q]):
                    if can_attack(a, rk, b, seat, s, q, d, np.int64(-1)):
                        continue
                    t = intel_negation(a, rk, b, seat, s, q, d)
                    if t >= 0:
                        _row(opts, k, ATTACK, s, q, d, t)
                        k += 1
    acts = k - 1
    forgo_ok = not (rk.forgo_needs_no_plant_option and any_veg) and \
        not (rk.carnivore_must_attack and plain > 0)
    if forgo_ok or acts == 0:
        _row(opts, 0, FORGO, 0, 0, 0, -1)
        return k, acts
    for r in range(acts):                    # no forgo row: shift the options up
        for f in range(5):
            opts[r, f] = opts[r + 1, f]
    return acts, acts


@inline_kernel
def can_ever_eat(a, rk, b, p):
    """Some species of p still has room for food (or, where storing is its own action, for
    fat): room only shrinks during feeding, so without it p is done for this feeding."""
    for i in range(np.int64(a.n_species[b, p])):
        if capacity(a, rk, b, p, i, YES) > 0:
            return True
        if rk.fat_store_action and works(a, rk, b, p, i, FAT_TISSUE) and a.body[b, p, i] > a.fat[b, p, i]:
            return True
    return False


# ---------------------------------------------------------------- feeding actions

@inline_kernel
def feed_scavengers(a, rk, b, seat):
    """Every Scavenger, from the attacking player clockwise, left to right, takes 1 meat."""
    P = a.n_species.shape[1]
    for k in range(P):
        p = (seat + k) % P
        i = 0
        while i < a.n_species[b, p]:
            if works(a, rk, b, p, i, SCAVENGER):
                feed(a, rk, b, p, np.int64(i), np.int64(rk.meat_from_wh), YES, np.int64(1))
            i += 1


@inline
def attack(a, rk, b, seat, i, q, d):
    """Species i of `seat` attacks species d of seat q (legality checked before)."""
    meat = np.int64(a.body[b, q, d]) if rk.meat_is_body else np.int64(1)
    horns = works(a, rk, b, q, d, HORNS)
    died = lose_population(a, rk, b, q, d)
    if died and q == seat and d < i:
        i -= 1                               # the attacker's board moved one slot left
    attacker_died = horns and lose_population(a, rk, b, seat, i)
    ate = False
    if not attacker_died:
        ate = feed(a, rk, b, seat, i, np.int64(rk.meat_from_wh), YES, np.int64(meat))
    if ate or not rk.scavenge_needs_attacker_fed:
        feed_scavengers(a, rk, b, seat)


@inline_kernel
def discard_for_intelligence(a, b, p):
    card = hand_min(a, b, p)                 # the rules discard the lowest card id
    hand_remove(a, b, p, card)
    a.loc[b, card] = DISCARD


@inline
def apply_option(a, rk, b, seat, kind, s, q, d, negate):
    if kind == VEG:
        feed(a, rk, b, seat, s, YES, NO, np.int64(1))
    elif kind == STORE:
        store_fat(a, b, seat, s)
    elif kind == INTEL:
        discard_for_intelligence(a, b, seat)
        feed(a, rk, b, seat, s, NO, NO, np.int64(rk.intelligence_bank_food))
    elif kind == ATTACK:
        if negate >= 0:
            discard_for_intelligence(a, b, seat)
        attack(a, rk, b, seat, s, q, d)


# ---------------------------------------------------------------- reveal and food cards

@inline_kernel
def reveal_effects(a, rk, b, pre_food):
    """Reveal-time traits, each for every player from the first, in `reveal_order`: those
    that happen before the food cards are added (pre_food = 1) or the others (pre_food = 0)."""
    P = a.n_species.shape[1]
    for ridx in range(len(rk.reveal_order)):
        if rk.reveal_before[ridx] != pre_food:
            continue
        t = rk.reveal_order[ridx]
        for k in range(P):
            p = (a.first[b] + k) % P
            for i in range(np.int64(a.n_species[b, p])):
                if not works(a, rk, b, p, i, t):
                    continue
                if t == FERTILE:
                    if not rk.fertile_needs_plant_food or a.wh[b] > 0:
                        a.pop[b, p, i] = min(np.int64(a.pop[b, p, i]) + 1, rk.max_population)
                elif t == LONG_NECK:
                    feed(a, rk, b, p, i, np.int64(rk.long_neck_from_wh), NO, np.int64(1))
                else:
                    moved = min(np.int64(a.fat[b, p, i]),
                                np.int64(a.pop[b, p, i]) - a.food[b, p, i])
                    a.fat[b, p, i] -= moved
                    a.food[b, p, i] += moved


@inline_kernel
def add_food_cards(a, rk, b, foods, n):
    """The first n food values onto the Watering Hole (one by one or summed, never < 0)."""
    before = np.int64(a.wh[b])
    wh = before
    if rk.food_clamp_each_card:
        for k in range(n):
            wh = max(0, wh + foods[k])
    else:
        total = 0
        for k in range(n):
            total += foods[k]
        wh = max(0, wh + total)
    a.wh[b] = wh
    a.bank_out[b] += wh - before


# ---------------------------------------------------------------- card play

@inline_kernel
def play_action(a, rk, b, p, kind, card, s, slot):
    """Apply one card action; an illegal one is skipped (the card stays in hand). True if
    applied. NEW: slot 0 right end, 1 left end. TRAIT: slot -1 adds, else replaces."""
    N = a.loc.shape[1]
    if card < 0 or card >= N or a.loc[b, card] != p:
        return False
    n_sp = a.n_species[b, p]
    if kind == NEW:
        if n_sp >= rk.species_slots or n_sp >= a.food.shape[2] or (
                slot == 1 and not rk.new_left_allowed):
            return False
        new_species(a, rk, b, p, np.int64(slot == 1))
    elif kind == TRAIT:
        if s < 0 or s >= n_sp:
            return False
        nt = a.n_traits[b, p, s]
        ck = rk.kind[card]
        for k in range(nt):
            if k != slot and rk.kind[a.traits[b, p, s, k]] == ck:
                return False
        if slot < 0:
            if nt >= rk.max_traits:
                return False
            a.traits[b, p, s, nt] = card
            a.n_traits[b, p, s] = nt + 1
        else:
            if slot >= nt:
                return False
            old = a.traits[b, p, s, slot]
            a.traits[b, p, s, slot] = card
            a.loc[b, old] = DISCARD
            if rk.kind[old] == FAT_TISSUE and ck != FAT_TISSUE:
                a.bank_out[b] -= a.fat[b, p, s]
                a.fat[b, p, s] = 0
        refresh_slot(a, rk, b, p, s)
        a.traits_played[b, p, ck] += 1
        hand_remove(a, b, p, card)
        a.loc[b, card] = BOARD
        return True
    elif kind == POP or kind == BODY:
        if s < 0 or s >= n_sp:
            return False
        at_cap = a.pop[b, p, s] >= rk.max_population if kind == POP else a.body[b, p, s] >= rk.max_body
        if at_cap:                  # "A species cannot go beyond Size 7 or Population 7": not a play
            return False
        if kind == POP:
            a.pop[b, p, s] += 1
        else:
            a.body[b, p, s] += 1
    else:
        return False
    hand_remove(a, b, p, card)
    a.loc[b, card] = DISCARD
    return True


# ---------------------------------------------------------------- end of feeding

@inline_kernel
def end_feeding(a, rk, b):
    """Per player from the first: population drops to the food eaten, food to the bag;
    then that player's extinct species leave, left to right (each draws its cards)."""
    P = a.n_species.shape[1]
    for k in range(P):
        p = (a.first[b] + k) % P
        dead = 0                                 # bit i: species i died out
        for i in range(a.n_species[b, p]):
            a.pop[b, p, i] = a.food[b, p, i]
            a.bag[b, p] += a.food[b, p, i]
            a.food[b, p, i] = 0
            if a.pop[b, p, i] == 0:
                dead |= 1 << i
        removed = 0
        i = 0
        while dead >> i:
            if (dead >> i) & 1:
                go_extinct(a, rk, b, p, i - removed)
                removed += 1
            i += 1


# ---------------------------------------------------------------- rounds

@inline_kernel
def deal_need(a, rk, b, p):
    n = np.int64(a.n_species[b, p])
    if rk.free_species_when_none and n < 1:
        n = 1
    return rk.hand_deal_base + rk.hand_deal_per_species * n


@inline_kernel
def deal(a, rk, b):
    """Free species + deal. False if the game ends before this round (cs4500 rule)."""
    P = a.n_species.shape[1]
    if rk.deal_stops_short:
        need = 0
        for p in range(P):
            need += deal_need(a, rk, b, p)
        if a.deck_len[b] - a.deck_top[b] <= need:
            a.end_reason[b] = A.END_DECK_SHORT
            return False
    for k in range(P):
        p = (a.first[b] + k) % P
        if a.n_species[b, p] == 0 and rk.free_species_when_none:
            new_species(a, rk, b, p, NO)
        need = deal_need(a, rk, b, p)
        for _ in range(need):
            if a.deck_top[b] >= a.deck_len[b]:
                break
            hand_append(a, b, p, a.deck[b, a.deck_top[b]])
            a.deck_top[b] += 1
    if a.deck_top[b] >= a.deck_len[b]:
        set_final_round(a, b, np.int64(a.round[b]), np.int64(A.END_DECK_EMPTY))
    for p in range(P):
        hand_sort(a, b, p)
    return True


# The phases of a round, as bits (engine.py: `round_start` runs DEAL and CARDS,
# `round_end` the rest).
DEAL = 1           # free species + deal
CARDS = 2          # food cards, card plays, the reveal-time traits that happen before the
                   # food cards (reveal_before_food), food cards onto the Watering Hole
REVEAL = 4         # the other reveal-time traits
FEEDING = 8        # the whole feeding (or one turn, see engine.round_end)
END_FEEDING = 16   # populations drop, food to bags, extinctions
NEXT = 32          # hands sorted, first player passes, the round is counted
WHOLE_ROUND = DEAL | CARDS | REVEAL | FEEDING | END_FEEDING | NEXT


# q, the feeding's saved place (int64 (4,): packed.Arr.fq; engine.feeding), for the
# searches' decision points (scenario.py until="feed"): [queue length n (-1: a fresh
# feeding, its queue built from the first player), passes, turn, STOP or 0]; a saved
# queue is a.order[:n], the seat to play first.
Q_N, Q_PASSES, Q_TURN, Q_STOP = 0, 1, 2, 3
STOP, STOPPED = 1, 2


@kernel
def copy_game(a, src, dst):
    """Game dst of the batch becomes a copy of game src (a search's continuation starts from
    a loaded decision point: branch.py)."""
    for p in range(a.n_species.shape[1]):
        a.n_species[dst, p] = a.n_species[src, p]
        a.bag[dst, p] = a.bag[src, p]
        a.hand_n[dst, p] = a.hand_n[src, p]
        for s in range(a.food.shape[2]):
            a.food[dst, p, s] = a.food[src, p, s]
            a.body[dst, p, s] = a.body[src, p, s]
            a.pop[dst, p, s] = a.pop[src, p, s]
            a.fat[dst, p, s] = a.fat[src, p, s]
            a.n_traits[dst, p, s] = a.n_traits[src, p, s]
            a.tmask[dst, p, s] = a.tmask[src, p, s]
            for t in range(a.traits.shape[3]):
                a.traits[dst, p, s, t] = a.traits[src, p, s, t]
        for c in range(a.hand.shape[2]):
            a.hand[dst, p, c] = a.hand[src, p, c]
        for k in range(a.traits_played.shape[2]):
            a.traits_played[dst, p, k] = a.traits_played[src, p, k]
    for c in range(a.loc.shape[1]):
        a.loc[dst, c] = a.loc[src, c]
        a.deck[dst, c] = a.deck[src, c]
    a.deck_top[dst] = a.deck_top[src]
    a.deck_len[dst] = a.deck_len[src]
    a.wh[dst] = a.wh[src]
    a.bank_out[dst] = a.bank_out[src]
    a.first[dst] = a.first[src]
    a.round[dst] = a.round[src]
    a.final_round[dst] = a.final_round[src]
    a.end_reason[dst] = a.end_reason[src]
    a.shuffles[dst] = a.shuffles[src]
    a.games[dst] = a.games[src]


# What engine.ask asks seat x[0]'s bot (tests, the conformance harness).
ASK_FOOD_CARD = 1     # returns its food card
ASK_PLAN = 2          # writes its card actions into acts; returns how many
ASK_FEED = 3          # x[1] = number of options in opts; returns its row


# What `tool` does (mode) and what it reads from its argument array x (tests, harness).
OPTIONS = 1        # legal feeding options into opts: x = [seat]; returns their number
CAN_ATTACK = 2     # x = [seat, species, target seat, target species, negated trait]
PLAY_ACTION = 3    # x = [seat, kind, card, species, slot]; returns 1 if applied
ADD_FOOD = 4       # the first x[0] values of foods onto the Watering Hole
REMOVE_CARD = 5    # x = [seat, card]: the card leaves the hand
SORT_HANDS = 6
DEAL_ROUND = 7     # free species + deal; returns 1 if dealt (cs4500: 0 ends the game)
DO_REVEAL = 8      # reveal-time traits after the food cards
DO_REVEAL_BEFORE_FOOD = 10  # reveal-time traits before the food cards (reveal_before_food)
DO_END_FEEDING = 9  # populations drop, food to bags, extinctions


@kernel
def tool(a, rk, b, mode, x, opts, acts, foods):
    """One rules operation on game b that asks no bot (tests, the conformance harness)."""
    if mode == OPTIONS:
        return feeding_options(a, rk, b, x[0], opts)[0]
    if mode == CAN_ATTACK:
        return np.int64(can_attack(a, rk, b, x[0], x[1], x[2], x[3], x[4]))
    if mode == PLAY_ACTION:
        return np.int64(play_action(a, rk, b, x[0], x[1], x[2], x[3], x[4]))
    if mode == ADD_FOOD:
        add_food_cards(a, rk, b, foods, x[0])
    elif mode == REMOVE_CARD:
        return np.int64(hand_remove(a, b, x[0], x[1]))
    elif mode == SORT_HANDS:
        for p in range(a.n_species.shape[1]):
            hand_sort(a, b, p)
    elif mode == DEAL_ROUND:
        return np.int64(deal(a, rk, b))
    elif mode == DO_REVEAL:
        reveal_effects(a, rk, b, NO)
    elif mode == DO_REVEAL_BEFORE_FOOD:
        reveal_effects(a, rk, b, YES)
    elif mode == DO_END_FEEDING:
        end_feeding(a, rk, b)
    return np.int64(0)


@kernel
def tools(a, rk, g, mode, x, opts, acts, foods, out):
    for k in range(len(g)):
        out[k] = tool(a, rk, g[k], mode, x, opts, acts, foods[k])
