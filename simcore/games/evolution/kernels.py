"""Evolution's batch engine, compiled: the rules as numba functions over the batch arrays.

The state is the batch `State` (state.py), packed as an `Arr` of its arrays; game `b` of
the batch is played by plain loops over its seats, species and cards, compiled by numba,
and the whole batch by a loop over `b`. Each function follows the function of the same
name in the reference engine (the oracle: reference.py and its reference_*.py modules)
step for step, so both engines make the same random
draws (addresses.py) and ask the bots the same questions in the same order; the only
differences are the data structures (a species list is slots 0..n_species-1, a Python list
is an array and its length, the discard pile is `loc == DISCARD`).

Why compiled and not numpy-vectorised: feeding is turn by turn with a different branch in
each game at each turn; the vectorised engine measured 12.7x the reference engine, this
one is measured by `balancelab bench evolution` (see the README).

The rules are split as the reference engine's: kernels_board.py (hands, species slots),
kernels_food.py, kernels_cards.py (the deck, extinction, card plays), kernels_attacks.py,
kernels_feeding.py (the feeding options); this module holds a round's phases (the deal,
the reveal-time traits, the food cards, the end of feeding), the game's setup and copy, and
`tool`, one rules operation at a time for tests and the conformance harness. No bot: the
parts of a round that ask the bots (card plays, feeding turns, whole rounds and games) are
in engine.py, which jit.engine_for compiles once per set of bots, with their compiled
functions (decisions.Policy).

Every function here is compiled without reference counting and allocates nothing
(jit.py says why); scratch space comes packed with the state (packed.Arr: pend,
order, keys, uids) or from the caller (opts, acts, foods).
"""
from __future__ import annotations

import numpy as np

from simcore.rng import CHANCE

from . import addresses as A
from .jit import kernel
from .kernels_attacks import can_attack
from .kernels_board import NO, YES, hand_append, hand_remove, hand_sort, new_species
from .kernels_cards import go_extinct, play_action, set_final_round, shuffle_into_deck
from .kernels_feeding import feeding_options
from .kernels_food import feed
from .packed import below, key_add, key_start, works
from .traits import FERTILE, LONG_NECK

MAX_ACTS = 8       # rows of `acts`, where a bot's plan writes its card actions (ASK_PLAN)


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


@kernel
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


@kernel
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


@kernel
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


@kernel
def deal_need(a, rk, b, p):
    n = np.int64(a.n_species[b, p])
    if rk.free_species_when_none and n < 1:
        n = 1
    return rk.hand_deal_base + rk.hand_deal_per_species * n


@kernel
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
