"""Compiled (numba) forms of the Evolution bots greedy, silly and random.

Each bot's batch face is a `Policy` (simcore/games/evolution/decisions.py) of three compiled
functions the engine calls for game `b` of a packed batch (`a`: packed.Arr, `rk`:
packed.RK, see simcore/games/evolution/packed.py); `mem` is the seat's memory row (greedy's
[mode, trait, weights...], see below; unused by the others):

- `food_card(a, rk, b, seat, mem)`: the card id given as food card (-1: empty hand);
- `plan_cards(a, rk, b, seat, acts, mem)`: the round's card actions, written as rows
  [kind, card, species, slot] of `acts` (int64 (8, 4)); returns the number of rows;
- `feed_choice(a, rk, b, seat, opts, n_opts, turn, mem)`: the index of the chosen row of
  `opts` (int64 (K, 5) rows [kind, s, q, d, negate], the reference's canonical order).

GREEDY, SILLY and RANDOM are those policies (registered.py hands them to the engine).

Each bot makes exactly the decisions of its reference form (greedy.py `food_card`, `plan`,
`feeding_choice`; silly.py `Silly`; random_bot.py `RandomBot`), which stay the truth:
tests/evolution/test_compiled_bots.py compares them decision by decision.

Hands are read as the engine keeps them: a.hand[b, seat, :a.hand_n[b, seat]], sorted by
card id (= silly order) whenever a bot is asked for cards. Everything is scalar loops over
the state arrays: nothing is allocated.
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution.decisions import Policy
from simcore.games.evolution.jit import inline, kernel
from simcore.games.evolution.addresses import BOT_FEED, BOT_FOOD_CARD, BOT_PLAY
from simcore.games.evolution.packed import (ATTACK, BODY, INTEL, NEW, POP, STORE, TRAIT, VEG,
                                            below, has, key_add, key_start)
from simcore.games.evolution.traits import CARNIVORE, FAT_TISSUE, HORNS, INTELLIGENCE, TRAITS
from simcore.rng import BOT as BOT_STREAM

# ---------------------------------------------------------------- greedy's memory row
# A greedy seat's memory row (decisions.Policy.memory, read at run time: neither a restriction
# nor a weights file compiles anything): [mode, trait] for restricted play (
# PLAIN, -1 unrestricted), then the weights of weights/default.toml (or `greedy:weights=FILE`)
# in that file's order: a score pair per trait, then the plan's thresholds.
PLAIN, FAVOR, AVOID = 0, 1, 2
FAVOR_SCORE = 100      # favor puts the trait's worth above every other card; avoid below (-1)
M_MODE, M_TRAIT, W0 = 0, 1, 2
N_TRAITS = len(TRAITS)
W_PREY, W_NEW_MAX, W_NEW_HAND, W_GROW_KEEP = range(W0 + 2 * N_TRAITS, W0 + 2 * N_TRAITS + 4)
# Arguments passed as int64 variables, never literals: numba compiles a callee once per
# literal value (and once more for int32 loop indices), each a copy of its whole code.
NO_CARD = np.int64(-1)


@kernel
def greedy_score(mem, k, carn_out, want):
    """How much greedy wants to keep / play trait k: weight 2k + carn_out (Carnivore:
    2k + want), as default.toml pairs them (greedy.py's docstring)."""
    if k == CARNIVORE:
        return mem[W0 + 2 * k + want]
    return mem[W0 + 2 * k + carn_out]


@kernel
def restricted_score(mem, k, carn_out, want):
    """greedy_score, with the restricted trait's worth moved (mode PLAIN: unchanged)."""
    mode = mem[M_MODE]
    if mode != PLAIN and k == mem[M_TRAIT]:
        return FAVOR_SCORE if mode == FAVOR else -1
    return greedy_score(mem, k, carn_out, want)


@inline
def _put(acts, k, kind, card, s, slot):
    acts[k, 0] = kind
    acts[k, 1] = card
    acts[k, 2] = s
    acts[k, 3] = slot
    return k + 1


@kernel
def greedy_context(a, b, seat, mem):
    """(carn_out, want_carn) of greedy._context: another seat has a carnivore; the other
    seats' non-carnivore species number at least the players (+ prey_margin) and `seat` has
    no carnivore."""
    P = a.n_species.shape[1]
    carn_out = 0
    has_carn = 0
    prey = 0
    for q in range(P):
        for s in range(a.n_species[b, q]):
            carn = has(a, b, q, s, CARNIVORE)
            if q == seat:
                if carn:
                    has_carn = 1
            elif carn:
                carn_out = 1
            else:
                prey += 1
    want = 1 if prey >= P + mem[W_PREY] and has_carn == 0 else 0
    return carn_out, want


@kernel
def _greedy_cheapest(a, rk, b, seat, carn_out, want, u0, u1, mem):
    """The hand card not in {u0, u1} with the smallest greedy._pay_key (-1: none)."""
    best = -1
    best_key = np.int64(0)
    for j in range(a.hand_n[b, seat]):
        c = np.int64(a.hand[b, seat, j])
        if c == u0 or c == u1:
            continue
        key = ((np.int64(restricted_score(mem, rk.kind[c], carn_out, want)) << 20)
               + ((32 + rk.cardfood[c]) << 10) + c)
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best


@kernel
def greedy_food_card(a, rk, b, seat, mem):
    """greedy.food_card: the card with the smallest _keep_key (-1: empty hand)."""
    carn_out, want = greedy_context(a, b, seat, mem)
    best = -1
    best_key = np.int64(0)
    for j in range(a.hand_n[b, seat]):
        c = np.int64(a.hand[b, seat, j])
        key = ((np.int64(restricted_score(mem, rk.kind[c], carn_out, want)) << 20)
               + ((32 - rk.cardfood[c]) << 10) + c)
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best


@kernel
def greedy_plan(a, rk, b, seat, acts, mem):
    """greedy.plan, as rows of `acts`; returns the number of rows."""
    mode, e = mem[M_MODE], mem[M_TRAIT]
    carn_out, want = greedy_context(a, b, seat, mem)
    n = np.int64(a.hand_n[b, seat])
    n_sp = np.int64(a.n_species[b, seat])
    room = n_sp < rk.species_slots
    k = 0
    # 1. becoming a carnivore: the lowest-id Carnivore card
    cc = -1
    for j in range(n):
        c = np.int64(a.hand[b, seat, j])
        if rk.kind[c] == CARNIVORE and (cc < 0 or c < cc):
            cc = c
    if e == CARNIVORE and mode != PLAIN:
        want = 1 if mode == FAVOR else 0      # becoming a carnivore: favor whenever it can, avoid never
    if want and cc >= 0 and room and n >= 2:
        pay = _greedy_cheapest(a, rk, b, seat, carn_out, want, np.int64(cc), NO_CARD, mem)
        k = _put(acts, k, NEW, pay, 0, 0)
        k = _put(acts, k, TRAIT, cc, n_sp, -1)
        grow = _greedy_cheapest(a, rk, b, seat, carn_out, want, np.int64(cc), np.int64(pay), mem)
        if grow >= 0:
            k = _put(acts, k, BODY, grow, n_sp, 0)
        return k
    # 2. a new species for a small player
    u0 = -1            # the card paying for the new species
    u1 = -1            # the trait card
    n_used = 0
    new = n_sp <= mem[W_NEW_MAX] and n >= mem[W_NEW_HAND] and room
    if new:
        u0 = _greedy_cheapest(a, rk, b, seat, carn_out, want, NO_CARD, NO_CARD, mem)
        k = _put(acts, k, NEW, u0, 0, 0)
        n_used += 1
    # the trait: leftmost non-carnivore with a free trait slot, else the new species
    target = -1
    for i in range(n_sp):
        if not has(a, b, seat, i, CARNIVORE) and a.n_traits[b, seat, i] < rk.max_traits:
            target = i
            break
    if target < 0 and new:
        target = n_sp
    if target >= 0:
        on_board = np.int64(a.tmask[b, seat, target]) if target < n_sp else np.int64(0)
        best = -1
        best_score = 0
        for j in range(n):
            c = np.int64(a.hand[b, seat, j])
            kd = rk.kind[c]
            if c == u0 or (on_board >> kd) & 1 or kd == CARNIVORE:
                continue
            sc = restricted_score(mem, kd, carn_out, want)
            # the first card of the sorted hand with the highest score > 0
            if sc > best_score or (sc == best_score and best >= 0 and c < best):
                best, best_score = c, sc
        if best >= 0:
            k = _put(acts, k, TRAIT, best, target, -1)
            u1 = best
            n_used += 1
    # growth, keeping at least grow_keep - 1 cards in hand
    if n - n_used >= mem[W_GROW_KEEP]:
        grow = _greedy_cheapest(a, rk, b, seat, carn_out, want, np.int64(u0), np.int64(u1), mem)
        s_best = -1
        v_best = 0
        for i in range(n_sp):
            if has(a, b, seat, i, CARNIVORE):
                continue
            if carn_out:
                v = np.int64(a.body[b, seat, i])
                if v >= rk.max_body:
                    continue
            else:
                v = np.int64(a.pop[b, seat, i])
                if v >= rk.max_population:
                    continue
            if s_best < 0 or v < v_best:
                s_best, v_best = i, v
        if s_best >= 0:
            k = _put(acts, k, BODY if carn_out else POP, grow, s_best, 0)
    return k


@kernel
def feed_uses(opts, r, seat, e):
    """Whether feeding option row r uses trait e: an attack on another player (Carnivore),
    storing (Fat Tissue), Intelligence's plant food (Intelligence); no other trait is a choice."""
    kind = opts[r, 0]
    if e == CARNIVORE:
        return kind == ATTACK and opts[r, 4] < 0 and opts[r, 2] != seat
    if e == FAT_TISSUE:
        return kind == STORE
    if e == INTELLIGENCE:
        return kind == INTEL
    return False


@kernel
def feed_hits(opts, n_opts, seat, mode, e):
    """How many rows use trait e (0 for a plain bot)."""
    hits = 0
    if mode != PLAIN:
        for r in range(n_opts):
            if feed_uses(opts, r, seat, e):
                hits += 1
    return hits


@kernel
def feed_ok(opts, r, seat, mode, e, hits, n_opts):
    """Whether row r may be chosen: favor keeps the rows using e when there are any, avoid
    drops them unless every row uses e."""
    if mode == PLAIN or hits == 0 or (mode == AVOID and hits == n_opts):
        return True
    return feed_uses(opts, r, seat, e) == (mode == FAVOR)


@kernel
def greedy_feed(a, rk, b, seat, opts, n_opts, mem):
    """greedy.feeding_choice (among the rows feed_ok allows): the index of the chosen row."""
    mode, e = mem[M_MODE], mem[M_TRAIT]
    P = a.n_species.shape[1]
    hits = feed_hits(opts, n_opts, seat, mode, e)
    # the hungriest species that can eat plant food (ties: leftmost)
    veg_row = -1
    veg_h = np.int64(0)
    for r in range(n_opts):
        if opts[r, 0] == VEG and feed_ok(opts, r, seat, mode, e, hits, n_opts):
            i = opts[r, 1]
            h = np.int64(a.pop[b, seat, i]) - np.int64(a.food[b, seat, i])
            if veg_row < 0 or (-h, i) < (-veg_h, opts[veg_row, 1]):
                veg_row, veg_h = r, h
    # the hungriest carnivore that can attack another player's species (no Intelligence)
    att = -1
    att_h = np.int64(0)
    for r in range(n_opts):
        if (opts[r, 0] == ATTACK and opts[r, 4] < 0 and opts[r, 2] != seat
                and feed_ok(opts, r, seat, mode, e, hits, n_opts)):
            i = opts[r, 1]
            h = np.int64(a.pop[b, seat, i]) - np.int64(a.food[b, seat, i])
            if att < 0 or (-h, i) < (-att_h, att):
                att, att_h = i, h
    if veg_row >= 0 and (att < 0 or veg_h >= att_h):
        return veg_row
    if att >= 0:
        # target: no Horns first, then the largest body, then turn order after `seat`, leftmost
        best = -1
        best_key = (np.int64(0), np.int64(0), np.int64(0), np.int64(0))
        for r in range(n_opts):
            if not (opts[r, 0] == ATTACK and opts[r, 4] < 0 and opts[r, 2] != seat
                    and opts[r, 1] == att and feed_ok(opts, r, seat, mode, e, hits, n_opts)):
                continue
            q, d = opts[r, 2], opts[r, 3]
            key = (np.int64(has(a, b, q, d, HORNS)), -np.int64(a.body[b, q, d]),
                   (q - seat - 1) % P, d)
            if best < 0 or key < best_key:
                best, best_key = r, key
        return best
    # Fat Tissue storing: the most room (ties: leftmost)
    best = -1
    best_v = np.int64(0)
    for r in range(n_opts):
        if opts[r, 0] == STORE and feed_ok(opts, r, seat, mode, e, hits, n_opts):
            i = opts[r, 1]
            v = np.int64(a.body[b, seat, i]) - np.int64(a.fat[b, seat, i])
            if best < 0 or (-v, i) < (-best_v, opts[best, 1]):
                best, best_v = r, v
    if best >= 0:
        return best
    # Intelligence: the hungriest (ties: leftmost)
    for r in range(n_opts):
        if opts[r, 0] == INTEL and feed_ok(opts, r, seat, mode, e, hits, n_opts):
            i = opts[r, 1]
            v = np.int64(a.pop[b, seat, i]) - np.int64(a.food[b, seat, i])
            if best < 0 or (-v, i) < (-best_v, opts[best, 1]):
                best, best_v = r, v
    if best >= 0:
        return best
    for r in range(n_opts):          # forgo, or the first legal (allowed) row
        if feed_ok(opts, r, seat, mode, e, hits, n_opts):
            return r
    return 0


# ---------------------------------------------------------------- silly

@kernel
def silly_food_card(a, rk, b, seat):
    """Silly.choose_food_card: the first card in silly order = the lowest id of the sorted hand."""
    if a.hand_n[b, seat] <= 0:
        return -1
    return np.int64(a.hand[b, seat, 0])


@kernel
def silly_plan(a, rk, b, seat, acts):
    """Silly.play_cards (silly.card_actions) from the sorted hand without its food card."""
    n = np.int64(a.hand_n[b, seat])
    ns = np.int64(a.n_species[b, seat])
    k = 0
    if n >= 2:
        k = _put(acts, k, NEW, a.hand[b, seat, 0], 0, 0)
        k = _put(acts, k, TRAIT, a.hand[b, seat, 1], ns, -1)
    if n >= 3:
        k = _put(acts, k, POP, a.hand[b, seat, 2], ns, 0)
    if n >= 4:
        k = _put(acts, k, BODY, a.hand[b, seat, 3], ns, 0)
    if n >= 5:
        k = _put(acts, k, TRAIT, a.hand[b, seat, 4], ns, 0)
    return k


@kernel
def _silly_size(a, b, p, i):
    """silly._largest_key of species i of seat p (smaller = larger species)."""
    return (-np.int64(a.pop[b, p, i]), -np.int64(a.food[b, p, i]), -np.int64(a.body[b, p, i]),
            np.int64(i))


@kernel
def silly_feed(a, rk, b, seat, opts, n_opts):
    """silly.feeding_choice: the index of the chosen row of `opts`."""
    P = a.n_species.shape[1]
    # Fat Tissue storing: the largest need, then the largest species
    best = -1
    best_need = np.int64(0)
    best_size = (np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    for r in range(n_opts):
        if opts[r, 0] == STORE:
            i = opts[r, 1]
            need = np.int64(a.body[b, seat, i]) - np.int64(a.fat[b, seat, i])
            size = _silly_size(a, b, seat, i)
            if best < 0 or -need < -best_need or (need == best_need and size < best_size):
                best, best_need, best_size = r, need, size
    if best >= 0:
        return best
    # plant food: the largest species
    for r in range(n_opts):
        if opts[r, 0] == VEG:
            size = _silly_size(a, b, seat, opts[r, 1])
            if best < 0 or size < best_size:
                best, best_size = r, size
    if best >= 0:
        return best
    # the largest carnivore able to attack another player, on the largest target
    att = -1
    for r in range(n_opts):
        if opts[r, 0] == ATTACK and opts[r, 4] < 0 and opts[r, 2] != seat:
            size = _silly_size(a, b, seat, opts[r, 1])
            if att < 0 or size < best_size:
                att, best_size = opts[r, 1], size
    if att >= 0:
        best_key = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
        for r in range(n_opts):
            if not (opts[r, 0] == ATTACK and opts[r, 4] < 0 and opts[r, 2] != seat
                    and opts[r, 1] == att):
                continue
            q, d = opts[r, 2], opts[r, 3]
            key = (-np.int64(a.pop[b, q, d]), -np.int64(a.food[b, q, d]),
                   -np.int64(a.body[b, q, d]), (q - seat - 1) % P, d)
            if best < 0 or key < best_key:
                best, best_key = r, key
        return best
    return 0


# ---------------------------------------------------------------- random

@kernel
def _bot_key(a, b, kind, seat):
    """rng.key(seed, game, BOT, kind, round, seat): extend with key_add for the counter."""
    h = key_start(a.seed, a.games[b], BOT_STREAM)
    h = key_add(h, kind)
    h = key_add(h, a.round[b])
    return key_add(h, seat)


@kernel
def random_food_card(a, rk, b, seat):
    """RandomBot.choose_food_card: a uniform card of the sorted hand (-1: empty hand)."""
    n = np.int64(a.hand_n[b, seat])
    if n <= 0:
        return -1
    j = below(_bot_key(a, b, BOT_FOOD_CARD, seat), n)
    return np.int64(a.hand[b, seat, j])


@kernel
def random_plan(a, rk, b, seat, acts):
    """RandomBot.play_cards: one uniform action (an illegal one is skipped by the engine)."""
    n = np.int64(a.hand_n[b, seat])
    if n <= 0:
        return 0
    h = _bot_key(a, b, BOT_PLAY, seat)
    kind = below(key_add(h, 0), 4)
    card = np.int64(a.hand[b, seat, below(key_add(h, 1), n)])
    n_sp = np.int64(a.n_species[b, seat])
    s = below(key_add(h, 2), max(n_sp, 1))
    if kind == 0:
        return _put(acts, 0, NEW, card, 0, 0)
    if kind == 1:
        n_tr = np.int64(a.n_traits[b, seat, s]) if s < n_sp else np.int64(0)
        slot = np.int64(-1)
        if n_tr >= rk.max_traits:
            slot = below(key_add(h, 3), max(n_tr, 1))
        return _put(acts, 0, TRAIT, card, s, slot)
    return _put(acts, 0, POP if kind == 2 else BODY, card, s, 0)


@kernel
def random_feed(a, rk, b, seat, opts, n_opts, turn):
    """RandomBot.choose_feeding: a uniform row of the legal options."""
    h = key_add(_bot_key(a, b, BOT_FEED, seat), turn)
    return below(h, max(np.int64(n_opts), 1))


# ---------------------------------------------------------------- the policies
# The policies' faces: one-line adapters to the engine's signatures, inlined by numba (a
# separately compiled adapter would be one more library holding a whole copy of the bot).

@inline
def _greedy_food(a, rk, b, seat, mem):
    return np.int64(greedy_food_card(a, rk, b, seat, mem))


@inline
def _greedy_plan(a, rk, b, seat, acts, mem):
    return np.int64(greedy_plan(a, rk, b, seat, acts, mem))


@inline
def _greedy_feed(a, rk, b, seat, opts, n_opts, turn, mem):
    return np.int64(greedy_feed(a, rk, b, seat, opts, n_opts, mem))


@inline
def _silly_food(a, rk, b, seat, mem):
    return np.int64(silly_food_card(a, rk, b, seat))


@inline
def _silly_plan(a, rk, b, seat, acts, mem):
    return np.int64(silly_plan(a, rk, b, seat, acts))


@inline
def _silly_feed(a, rk, b, seat, opts, n_opts, turn, mem):
    return np.int64(silly_feed(a, rk, b, seat, opts, n_opts))


@inline
def _random_food(a, rk, b, seat, mem):
    return np.int64(random_food_card(a, rk, b, seat))


@inline
def _random_plan(a, rk, b, seat, acts, mem):
    return np.int64(random_plan(a, rk, b, seat, acts))


@inline
def _random_feed(a, rk, b, seat, opts, n_opts, turn, mem):
    return np.int64(random_feed(a, rk, b, seat, opts, n_opts, turn))


def greedy_memory(weights, mode: int = PLAIN, trait: int = -1) -> np.ndarray:
    """A greedy seat's memory row: [mode, trait, weights...] (int64)."""
    return np.concatenate([np.array([mode, trait], np.int64), weights.ints()])


def greedy_policy(weights, mode: int = PLAIN, trait: int = -1) -> Policy:
    """Greedy's batch face with these weights (and restriction): the same compiled functions
    for every weights file and restriction, so one engine build serves them all."""
    return Policy("greedy", _greedy_food, _greedy_plan, _greedy_feed, greedy_memory(weights, mode, trait))


def _default_weights():
    from ..weights import default
    return default("evolution")


GREEDY = greedy_policy(_default_weights())
SILLY = Policy("silly", _silly_food, _silly_plan, _silly_feed)
RANDOM = Policy("random", _random_food, _random_plan, _random_feed)
