"""Evolution's batch engine: the rules as numpy functions over a `State` batch.

Every function works on a subset of games given as index arrays (g: game rows, p/c:
seats, s/a/d: species slots), all of one length: feeding is turn by turn and each game is
at its own turn, so a step gathers its games, computes with named masks and scatters
back. Loops run over seats, species slots, trait slots and card slots, never over games.
The reference engine (reference.py) is the oracle these functions must match exactly.

Speed habits (see PERFORMANCE.md): a phase works on `narrow(st, W)`, a view of the state
cut to the W species slots in use; rare branches (attacks, Cooperation, Scavenger,
Intelligence, extinction) run on `flatnonzero` subsets; the feeding loop drops games
whose feeding is over.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from simcore import rng

from . import addresses as A
from .ruleset import Cards, Rules
from .state import BOARD, DECK, DISCARD, FOOD_CARD, NO_FINAL, State, refresh_tmask
from .traits import (AMBUSH, BURROWING, CARNIVORE, CLIMBING, COOPERATION, FAT_TISSUE, FERTILE,
                     FORAGING, HARD_SHELL, HERDING, HORNS, INTELLIGENCE, LONG_NECK, NEGATABLE,
                     PACK_HUNTING, SCAVENGER, SYMBIOSIS, TRAITS, WARNING_CALL)

BIG = 1 << 30
FORGO, VEG, STORE, INTEL, ATTACK = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class Engine:
    """Rules + card attribute arrays, plus what the rules code derives from them once."""

    rules: Rules
    cards: Cards

    @property
    def kind(self) -> np.ndarray:
        return self.cards.kind

    @cached_property
    def kind_bits(self) -> np.ndarray:
        """(N + 1,) int32: the trait bit of each card id; index -1 (empty slot) reads 0."""
        return np.append(np.left_shift(1, self.cards.kind.astype(np.int32)), 0).astype(np.int32)

    @cached_property
    def has_intelligence(self) -> bool:
        return bool((self.cards.kind == INTELLIGENCE).any())


def bit(mask, trait: int) -> np.ndarray:
    return (mask & (1 << trait)) != 0


def any_last(m: np.ndarray) -> np.ndarray:
    """OR over the last axis (unrolled: numpy reduces tiny trailing axes slowly)."""
    K = m.shape[-1]
    if K == 0 or K > 16:
        return m.any(-1)
    out = m[..., 0].copy()
    for k in range(1, K):
        out |= m[..., k]
    return out


def count_last(m: np.ndarray) -> np.ndarray:
    """Number of True values along the last axis (int64; unrolled like `any_last`)."""
    K = m.shape[-1]
    if K == 0 or K > 16:
        return np.count_nonzero(m, axis=-1).astype(np.int64)
    out = m[..., 0].astype(np.int64)
    for k in range(1, K):
        out += m[..., k]
    return out


def max_last(x: np.ndarray) -> np.ndarray:
    """Maximum along the last axis (unrolled like `any_last`)."""
    K = x.shape[-1]
    if K > 16:
        return x.max(-1)
    out = x[..., 0].copy()
    for k in range(1, K):
        np.maximum(out, x[..., k], out=out)
    return out


def has(st: State, g, p, s, trait: int) -> np.ndarray:
    return bit(st.tmask[g, p, s], trait)


# ---------------------------------------------------------------- narrow views

_SLOT_FIELDS = ("food", "body", "pop", "fat", "n_traits", "tmask", "traits")


def narrow(st: State, W: int) -> State:
    """A view of `st` with only species slots 0..W-1 (W >= every game's n_species).

    Writes through the view change `st`; slots >= n_species are empty in both."""
    full = st.full if st.full is not None else st
    W = max(1, min(int(W), full.S))
    if W == st.S:
        return st
    return dataclasses.replace(full, full=full,
                               **{f: getattr(full, f)[:, :, :W] for f in _SLOT_FIELDS})


# Fast gathers and scatters. Indexing a (B, P, S) field with two or three index arrays
# (st.pop[g, c], st.pop[g, c, s] = v) is several times slower than np.take / a flat
# assignment on the whole contiguous array, so the hot paths go through these.

def _whole(st: State, name: str) -> np.ndarray:
    return getattr(st.full if st.full is not None else st, name)


def seat_rows(st: State, name: str, g, p) -> np.ndarray:
    """(n, S) copy of slot field `name` of seats p in games g (S: the view's slots)."""
    a = _whole(st, name)
    P, S = a.shape[1], a.shape[2]
    out = a.reshape((-1, S) + a.shape[3:]).take(g * P + p, axis=0)
    return out if st.S == S else np.ascontiguousarray(out[:, :st.S])   # strided: slow ops


def game_rows(st: State, name: str, g) -> np.ndarray:
    """(n, P, S) copy of slot field `name` (or (n, P) seat field) of games g."""
    a = _whole(st, name)
    out = a.take(g, axis=0)
    return out if a.ndim < 3 or st.S == a.shape[2] else np.ascontiguousarray(out[:, :, :st.S])


def seat_get(st: State, name: str, g, p) -> np.ndarray:
    """Seat field `name` ((B, P), e.g. n_species) of seats p in games g."""
    a = getattr(st, name)
    return a.reshape(-1).take(g * a.shape[1] + p)


def _slot_index(st: State, a: np.ndarray, g, p, s):
    P, S = a.shape[1], a.shape[2]
    return (g * P + p) * S + s


def slot_get(st: State, name: str, g, p, s) -> np.ndarray:
    """Slot field `name` of species (g, p, s), one value per game."""
    a = _whole(st, name)
    return a.reshape(-1).take(_slot_index(st, a, g, p, s))


def slot_set(st: State, name: str, g, p, s, value) -> None:
    """Write slot field `name` of species (g, p, s) (distinct species)."""
    a = _whole(st, name)
    assert a.flags.c_contiguous, name           # else reshape(-1) would write to a copy
    a.reshape(-1)[_slot_index(st, a, g, p, s)] = value


def width(st: State, g) -> int:
    """Species slots in use by the games g (at least 1)."""
    return max(1, int(st.n_species[g].max(initial=0)))


# ---------------------------------------------------------------- species slots

def remove_slot(st: State, g, p, s) -> None:
    """Delete species slot s of seat p (shift the boards to its right one slot left)."""
    n = len(g)
    if n == 0:
        return
    s = np.broadcast_to(np.asarray(s), (n,))
    rows = g * st.P + p
    for name in _SLOT_FIELDS:
        a = _whole(st, name)
        S = a.shape[2]
        a2 = a.reshape((-1, S) + a.shape[3:])
        row = a2.take(rows, axis=0)
        shifted = np.empty_like(row)
        shifted[:, :-1] = row[:, 1:]
        shifted[:, -1] = -1 if name == "traits" else 0
        keep = np.arange(S)[None, :] < s[:, None]                  # (n, S)
        a2[rows] = np.where(keep if row.ndim == 2 else keep[:, :, None], row, shifted)
    st.n_species[g, p] -= 1


def new_species_at(E: Engine, st: State, g, p, left) -> None:
    """Add a new board at the right end, or (where `left`) at the left end."""
    r = E.rules
    n = st.n_species[g, p].astype(np.int64)
    left = np.broadcast_to(np.asarray(left, bool), (len(g),))
    if left.any():
        lg, lp = g[left], p[left]
        for name in _SLOT_FIELDS:
            arr = getattr(st, name)
            arr[lg, lp, 1:] = arr[lg, lp, :-1]
    slot = np.where(left, 0, n)
    for name, value in (("food", 0), ("body", r.new_species_body),
                        ("pop", r.new_species_population), ("fat", 0), ("n_traits", 0),
                        ("tmask", 0)):
        getattr(st, name)[g, p, slot] = value
    st.traits[g, p, slot] = -1
    st.n_species[g, p] += 1


# ---------------------------------------------------------------- taking food

def capacity(E: Engine, st: State, g, p, s, meat) -> np.ndarray:
    r = E.rules
    tm = slot_get(st, "tmask", g, p, s)
    room = slot_get(st, "pop", g, p, s).astype(np.int32) - slot_get(st, "food", g, p, s)
    if r.fat_stores_on_eating:
        room += np.where(bit(tm, FAT_TISSUE), slot_get(st, "body", g, p, s).astype(np.int32)
                         - slot_get(st, "fat", g, p, s), 0)
    if r.carnivores_refuse_plant:
        room = np.where(~meat & bit(tm, CARNIVORE), 0, room)
    return room


def _take(st: State, g, p, s, n, from_wh) -> None:
    food = slot_get(st, "food", g, p, s)
    to_food = np.minimum(n, slot_get(st, "pop", g, p, s).astype(np.int32) - food)
    slot_set(st, "food", g, p, s, food + to_food.astype(np.int8))
    extra = n - to_food
    if extra.any():
        slot_set(st, "fat", g, p, s, slot_get(st, "fat", g, p, s) + extra.astype(np.int8))
    st.wh[g] -= np.where(from_wh, n, 0).astype(np.int32)
    st.bank_out[g] += np.where(from_wh, 0, n).astype(np.int32)


def _take_step(E: Engine, st: State, g, p, s, from_wh, meat, amount):
    """One taking (no cooperation): returns (ate, cooperation shares to pass right)."""
    r = E.rules
    avail = np.where(from_wh, st.wh[g], BIG)
    n = np.maximum(np.minimum(np.minimum(amount, capacity(E, st, g, p, s, meat)), avail), 0)
    ate = n > 0
    _take(st, g, p, s, n, from_wh)
    tm = slot_get(st, "tmask", g, p, s)
    forages = ate & bit(tm, FORAGING) & (r.foraging_any_food | ~meat)
    if forages.any():
        avail = np.where(from_wh, st.wh[g], BIG)
        m = np.where(forages, np.maximum(np.minimum(np.minimum(r.foraging_extra, capacity(
            E, st, g, p, s, meat)), avail), 0), 0)
        _take(st, g, p, s, m, from_wh)
        n = n + m
    shares = n if r.cooperation_per_token else ate.astype(np.int32)
    passes = ate & bit(tm, COOPERATION) & (s + 1 < seat_get(st, "n_species", g, p))
    return ate, np.where(passes, shares, 0)


def feed(E: Engine, st: State, g, p, s, from_wh, meat, amount) -> np.ndarray:
    """Species (g, p, s) takes food; Cooperation chains run depth first, as in the reference
    engine's recursion, on an explicit per-game stack of pending right-neighbour takings."""
    n = len(g)
    from_wh = np.broadcast_to(np.asarray(from_wh, bool), (n,))
    meat = np.broadcast_to(np.asarray(meat, bool), (n,))
    s = np.broadcast_to(np.asarray(s), (n,))
    ate, shares = _take_step(E, st, g, p, s, from_wh, meat, amount)
    i = np.flatnonzero(shares > 0)
    if len(i):
        _cooperate(E, st, g[i], p[i], s[i] + 1, from_wh[i], meat[i], shares[i])
    return ate


def _cooperate(E: Engine, st: State, g, p, first, from_wh, meat, shares) -> None:
    """Pending takings of 1 food by right neighbours, depth first (a stack per game)."""
    n = len(g)
    depth = st.S * (1 + E.rules.foraging_extra) + 2
    stack = np.zeros((n, depth), np.int64)
    top = np.zeros(n, np.int64)
    rows = np.arange(n)

    def push(mask, slot, count):
        for k in range(int(count.max(initial=0))):
            m = mask & (count > k)
            stack[rows[m], top[m]] = slot[m]
            top[m] += 1

    push(shares > 0, first, shares)
    while True:
        i = np.flatnonzero(top > 0)
        if len(i) == 0:
            return
        top[i] -= 1
        k = stack[i, top[i]]
        _, sh = _take_step(E, st, g[i], p[i], k, from_wh[i], meat[i], 1)
        sub = np.zeros(n, np.int64)
        sub[i] = sh
        slot = np.zeros(n, np.int64)
        slot[i] = k + 1
        push(sub > 0, slot, sub)


def store_fat(st: State, g, p, s) -> None:
    n = np.minimum(st.body[g, p, s].astype(np.int32) - st.fat[g, p, s], st.wh[g])
    st.fat[g, p, s] += n.astype(np.int8)
    st.wh[g] -= n


# ---------------------------------------------------------------- cards

def set_final_round(st: State, g, final, reason: int) -> None:
    earlier = final < st.final_round[g]
    gg = g[earlier]
    st.final_round[gg] = np.asarray(final)[earlier] if np.ndim(final) else final
    st.end_reason[gg] = reason


def reshuffle(E: Engine, st: State, g) -> None:
    """Discards become the deck, in the order of their random keys (same as the reference)."""
    if len(g) == 0:
        return
    N = st.loc.shape[1]
    keys = rng.key(st.seed, st.games[g][:, None], rng.CHANCE, A.SHUFFLE,
                   st.shuffles[g][:, None], np.arange(N, dtype=np.uint64)[None, :])
    in_discard = st.loc[g] == DISCARD
    keys = np.where(in_discard, keys, np.uint64(0xFFFFFFFFFFFFFFFF))
    order = np.argsort(keys, axis=1, kind="stable").astype(np.int16)
    st.deck[g] = order
    st.deck_top[g] = 0
    st.deck_len[g] = in_discard.sum(axis=1)
    st.loc[g] = np.where(in_discard, DECK, st.loc[g])
    st.shuffles[g] += 1
    set_final_round(st, g, st.round[g] + 1, A.END_RESHUFFLE)


def hand_width(st: State, g) -> int:
    """Hand slots in use by the games g (at least 1)."""
    return max(1, int(st.hand_n[g].max(initial=0)))


def hand_view(st: State, g, p) -> np.ndarray:
    """(n, W) the hands of seats p in games g (a copy), padded with N (W = slots in use)."""
    N = st.hand.shape[2]
    return np.ascontiguousarray(
        st.hand.reshape(-1, N).take(g * st.P + p, axis=0)[:, :hand_width(st, g)])


def _hand_rows(st: State, g, p, w: int):
    """(flat row numbers, (n, w) copy of the first w hand slots) of seats p in games g."""
    rows = g * st.P + p
    h = st.hand.reshape(-1, st.hand.shape[2]).take(rows, axis=0)[:, :w]
    return rows, np.ascontiguousarray(h)


def _put_hand_rows(st: State, rows, h) -> None:
    N = st.hand.shape[2]
    assert st.hand.flags.c_contiguous
    st.hand.reshape(-1)[(rows * N)[:, None] + np.arange(h.shape[1])[None, :]] = h


def remove_from_hand(st: State, g, p, card) -> None:
    """Take card `card` out of seat p's hand (it must be there); the order of the rest stays."""
    if len(g) == 0:
        return
    rows, h = _hand_rows(st, g, p, hand_width(st, g))
    j = np.argmax(h == np.asarray(card)[:, None], axis=1)
    shifted = np.empty_like(h)
    shifted[:, :-1] = h[:, 1:]
    shifted[:, -1] = st.hand.shape[2]
    _put_hand_rows(st, rows, np.where(np.arange(h.shape[1])[None, :] < j[:, None], h, shifted))
    st.hand_n.reshape(-1)[rows] -= 1


def punch_from_hand(st: State, g, p, card) -> None:
    """Take card `card` out of seat p's hand leaving a hole (padding) in its place and
    `hand_n` unchanged: cheaper than `remove_from_hand`; `sort_hands` then closes the holes
    of sorted hands and recounts them."""
    if len(g) == 0:
        return
    h = hand_view(st, g, p)
    j = np.argmax(h == np.asarray(card)[:, None], axis=1)
    N = st.hand.shape[2]
    assert st.hand.flags.c_contiguous
    st.hand.reshape(-1)[(g * st.P + p) * N + j] = N


def insert_in_hand(st: State, g, p, pos, card) -> None:
    """Put card `card` at position pos of seat p's hand (the cards from pos on move right)."""
    if len(g) == 0:
        return
    rows, h = _hand_rows(st, g, p, min(hand_width(st, g) + 1, st.hand.shape[2]))
    shifted = np.empty_like(h)
    shifted[:, 1:] = h[:, :-1]
    shifted[:, 0] = card
    col = np.arange(h.shape[1])[None, :]
    pos = np.asarray(pos)[:, None]
    _put_hand_rows(st, rows, np.where(col < pos, h, np.where(col == pos, np.asarray(card)[:, None],
                                                             shifted)))
    st.hand_n.reshape(-1)[rows] += 1


def sort_hands(st: State, g, p=None) -> None:
    """Every seat's hand (or seat p's) in increasing card id order, holes left by
    `punch_from_hand` closed and counted out."""
    if len(g) == 0:
        return
    w = hand_width(st, g)
    N = st.hand.shape[2]
    assert st.hand.flags.c_contiguous
    flat = st.hand.reshape(-1)
    if p is None:
        rows = (g[:, None] * st.P + np.arange(st.P)[None, :]).reshape(-1)
    else:
        rows = g * st.P + p
    h = np.sort(st.hand.reshape(-1, N).take(rows, axis=0)[:, :w], axis=-1)
    flat[(rows * N)[:, None] + np.arange(w)[None, :]] = h
    st.hand_n.reshape(-1)[rows] = count_last(h < N)


def draw_to_hand(E: Engine, st: State, g, p, n, front: bool) -> None:
    """Seat p draws n cards (reshuffling an empty deck if the rules say so): in front of the
    hand in draw order (front), else at its end."""
    for k in range(int(np.max(n, initial=0))):
        wants = k < n
        if E.rules.reshuffle_discards:
            empty = np.flatnonzero(wants & (st.deck_top[g] >= st.deck_len[g]))
            if len(empty):
                ge = g[empty]
                reshuffle(E, st, ge[(st.loc[ge] == DISCARD).any(axis=1)])
        gets = wants & (st.deck_top[g] < st.deck_len[g])
        gg, pp = g[gets], p[gets]
        card = st.deck[gg, st.deck_top[gg]]
        st.loc[gg, card.astype(np.int64)] = pp
        pos = np.full(len(gg), k) if front else st.hand_n[gg, pp]
        insert_in_hand(st, gg, pp, pos, card)
        st.hand_unsorted[gg] |= front
        st.deck_top[gg] += 1


def go_extinct(E: Engine, st: State, g, p, s) -> None:
    """Remove extinct species: traits to the discards, food to the bank, owner draws."""
    if len(g) == 0:
        return
    r = E.rules
    s = np.broadcast_to(np.asarray(s), (len(g),))
    traits = _whole(st, "traits")
    cards = traits.reshape(-1, traits.shape[3]).take(_slot_index(st, traits, g, p, s), axis=0)
    row, t = np.nonzero(cards >= 0)
    st.loc[g[row], cards[row, t]] = DISCARD
    st.bank_out[g] -= (slot_get(st, "food", g, p, s).astype(np.int32)
                       + slot_get(st, "fat", g, p, s))
    n_traits = slot_get(st, "n_traits", g, p, s).astype(np.int32)
    n = r.extinction_cards_flat + r.extinction_cards_per_trait * n_traits
    remove_slot(st, g, p, s)
    draw_to_hand(E, st, g, p, n, front=True)


def lose_population(E: Engine, st: State, g, p, s) -> np.ndarray:
    pop = slot_get(st, "pop", g, p, s) - 1
    slot_set(st, "pop", g, p, s, pop)
    food = slot_get(st, "food", g, p, s)
    over = np.maximum(food - pop, 0)
    st.bank_out[g] -= over.astype(np.int32)
    slot_set(st, "food", g, p, s, food - over)
    died = pop <= 0
    if died.any():
        go_extinct(E, st, g[died], p[died], s[died])
    return died


def discard_lowest(st: State, g, p) -> None:
    """Intelligence: discard the lowest card id in hand."""
    card = hand_view(st, g, p).min(axis=1)
    st.loc[g, card.astype(np.int64)] = DISCARD
    remove_from_hand(st, g, p, card)


# ---------------------------------------------------------------- attack legality

def _attack_blocks(E: Engine, st: State, g, c, a_tm, a_body, a_pop):
    """Why attacks by attackers (m, A) (their trait masks, body, population) on every species
    of every seat fail: {negatable trait: (m, A, P, S) bool}, and the size check that is
    left when Hard Shell is negated (False unless the size rule is "always")."""
    r = E.rules
    S = st.S
    a_tm = a_tm[:, :, None, None]
    a_body = a_body.astype(np.int16)[:, :, None, None]
    a_pop = a_pop.astype(np.int16)[:, :, None, None]
    bonus = r.pack_hunting_bonus + (a_pop if r.pack_hunting_adds_population else 0)
    a_size = a_body + np.where(bit(a_tm, PACK_HUNTING), bonus, 0)
    dtm = st.tmask[g][:, None]                                     # (m, 1, P, S)
    body = st.body[g].astype(np.int16)[:, None]
    pop = st.pop[g].astype(np.int16)[:, None]
    food = st.food[g][:, None]
    right_exists = np.arange(1, S + 1) < st.n_species[g][:, None, :, None]

    always = r.size_rule == "always"
    hard = bit(dtm, HARD_SHELL)
    need = body + r.size_margin
    too_small = (hard | always) & (a_size < need + np.where(hard, r.hard_shell_bonus, 0))
    plain = (a_size < need) if always else False
    climbs = bit(dtm, CLIMBING) & ~bit(a_tm, CLIMBING)
    burrowed = bit(dtm, BURROWING) & (food == pop)
    herded = bit(dtm, HERDING) & ((pop >= a_pop) | (r.herding_needs_larger_body & (body >= a_body)))
    wc = bit(dtm, WARNING_CALL)
    near_wc = np.zeros_like(wc)
    near_wc[..., 1:] = wc[..., :-1]
    near_wc[..., :-1] |= wc[..., 1:] & right_exists[..., :-1]
    warned = near_wc & ~bit(a_tm, AMBUSH)
    right_body = np.full_like(body, -1)
    right_body[..., :-1] = body[..., 1:]
    symbiotic = bit(dtm, SYMBIOSIS) & right_exists & (right_body > body)
    terms = {BURROWING: burrowed, CLIMBING: climbs, HARD_SHELL: too_small, HERDING: herded,
             SYMBIOSIS: symbiotic, WARNING_CALL: warned}
    return terms, plain


_NEEDS_CLIMBING, _NEEDS_AMBUSH, _SHELTERED = 1, 2, 4     # bits of a defender's requirements


_DEFENSIVE = (HARD_SHELL, CLIMBING, BURROWING, HERDING, SYMBIOSIS, WARNING_CALL)


def _defence_table(n_traits: int) -> np.ndarray:
    """(2 ** n_traits,) uint8: bit k set when trait mask m has trait _DEFENSIVE[k]."""
    m = np.arange(1 << n_traits, dtype=np.int64)
    out = np.zeros(len(m), np.uint8)
    for k, t in enumerate(_DEFENSIVE):
        out |= (((m >> t) & 1) << k).astype(np.uint8)
    return out


_DEF_TABLE = _defence_table(len(TRAITS))


def _defences(E: Engine, st: State, g):
    """What attacking each species of games g takes, attacker-independent, each (m, P, S)
    int8: the attack size needed (out of reach for an empty slot), the population and body
    size to beat (Defensive Herding; -1 none), and requirement bits (_NEEDS_CLIMBING,
    _NEEDS_AMBUSH for Warning Call, _SHELTERED: Burrowing or Symbiosis, which no attacker
    overcomes). Empty slots hold zeros, so they neither warn nor shelter their neighbours."""
    r = E.rules
    d = _DEF_TABLE.take(game_rows(st, "tmask", g))
    body, pop = game_rows(st, "body", g), game_rows(st, "pop", g)
    hard = (d & 1) != 0
    need = body + np.int8(r.size_margin) + hard.view(np.int8) * np.int8(r.hard_shell_bonus)
    if r.size_rule != "always":
        need = np.where(hard, need, np.int8(-100))
    need = np.where(pop > 0, need, np.int8(127))        # an empty slot: nothing to attack
    herding = (d & 8) != 0
    herd_pop = np.where(herding, pop, np.int8(-1))
    herd_body = np.where(herding, body, np.int8(-1)) if r.herding_needs_larger_body else None
    wc = (d & 32) != 0
    near_wc = np.zeros_like(wc)
    near_wc[..., 1:] = wc[..., :-1]
    near_wc[..., :-1] |= wc[..., 1:]
    right_body = np.zeros_like(body)
    right_body[..., :-1] = body[..., 1:]
    sheltered = ((((d & 4) != 0) & (game_rows(st, "food", g) == pop))
                 | (((d & 16) != 0) & (right_body > body)))
    req = (((d >> 1) & 1).view(np.int8) * np.int8(_NEEDS_CLIMBING)
           + near_wc.view(np.int8) * np.int8(_NEEDS_AMBUSH)
           + sheltered.view(np.int8) * np.int8(_SHELTERED))
    return need, herd_pop, herd_body, req


def _plain_attacks(E: Engine, st: State, g, a_tm, a_body, a_pop) -> np.ndarray:
    """(m, A, P, S): no defence stops attackers (m, A) (trait masks, body, population); the
    same as ~_blocked(_attack_blocks(...)) without the per-trait terms."""
    r = E.rules
    need, herd_pop, herd_body, req = _defences(E, st, g)
    a_body = a_body.astype(np.int8)
    a_pop = a_pop.astype(np.int8)
    bonus = r.pack_hunting_bonus + (a_pop if r.pack_hunting_adds_population else 0)
    a_size = a_body + np.where(bit(a_tm, PACK_HUNTING), bonus, 0).astype(np.int8)
    can = (bit(a_tm, CLIMBING).view(np.int8) * _NEEDS_CLIMBING
           + bit(a_tm, AMBUSH).view(np.int8) * _NEEDS_AMBUSH)
    x = (slice(None), slice(None), None, None)
    legal = (a_size[x] >= need[:, None]) & (a_pop[x] > herd_pop[:, None])
    legal &= (req[:, None] & ~can[x]) == 0
    if herd_body is not None:
        legal &= a_body[x] > herd_body[:, None]
    return legal


def _blocked(terms: dict, plain, negate: int = -1):
    """Some defence stops the attack (with trait `negate` ignored; -1: none)."""
    out = plain if negate == HARD_SHELL else False
    for t, term in terms.items():
        if t != negate:
            out = out | term
    return out


def _attack_targets(E: Engine, st: State, g, c, a) -> np.ndarray:
    """(m, A, P, S): the species exist, are not the attacker and may be its targets by seat."""
    P, S = st.P, st.S
    slots = np.arange(S)
    exists = slots < st.n_species[g][:, None, :, None]
    own = np.arange(P)[None, None, :, None] == c[:, None, None, None]
    is_self = own & (slots == a[:, :, None, None])
    out = exists & ~is_self
    if not E.rules.attack_own_species:
        out &= ~own
    return out


def can_attack_all(E: Engine, st: State, g, c, a, negate: int = -1) -> np.ndarray:
    """(n, P, S): may species a of seat c attack each species of each seat?"""
    a = np.broadcast_to(np.asarray(a), (len(g),))[:, None]
    a_tm = st.tmask[g[:, None], c[:, None], a]
    terms, plain = _attack_blocks(E, st, g, c, a_tm, st.body[g[:, None], c[:, None], a],
                                  st.pop[g[:, None], c[:, None], a])
    legal = (_attack_targets(E, st, g, c, a) & bit(a_tm, CARNIVORE)[:, :, None, None]
             & ~_blocked(terms, plain, negate))
    return legal[:, 0]


def _attack_options(E: Engine, st: State, g, c, hungry, has_card):
    """Attacks of every hungry carnivore (m, S): (legal, needs Intelligence, negated trait),
    each (m, S, P, S). Computed for the A <= S hungry carnivores of each row only."""
    m, S = hungry.shape
    P = st.P
    att = np.zeros((m, S, P, S), bool)
    iatt = np.zeros_like(att)
    neg = np.full(att.shape, -1, np.int8)
    if m == 0:
        return att, iatt, neg
    A = int(count_last(hungry).max())
    a = first_true(hungry, A)                                          # (m, A), -1 padding
    valid = a >= 0
    a = np.maximum(a, 0)
    gg, cc = g[:, None], c[:, None]
    a_tm = slot_get(st, "tmask", gg, cc, a)
    a_body, a_pop = slot_get(st, "body", gg, cc, a), slot_get(st, "pop", gg, cc, a)
    legal = _plain_attacks(E, st, g, a_tm, a_body, a_pop)      # padding rows: ignored below
    ar, aa = np.arange(m)[:, None], np.arange(A)[None, :]
    if E.rules.attack_own_species:
        legal[ar, aa, cc, a] = False                                   # not itself
    else:
        legal[ar, aa, cc] = False                                      # none of its own
    vr, va = np.nonzero(valid)
    av = a[vr, va]
    att[vr, av] = legal[vr, va]
    if E.has_intelligence:
        smart = valid & has_card[:, None] & bit(a_tm, INTELLIGENCE)
        srows = np.flatnonzero(any_last(smart))
        if len(srows):
            terms, plain = _attack_blocks(E, st, g, c, a_tm, a_body, a_pop)
            sub_terms = {t: (x[srows] if np.ndim(x) else x) for t, x in terms.items()}
            sub_plain = plain[srows] if np.ndim(plain) else plain
            base = (_attack_targets(E, st, g[srows], c[srows], a[srows])
                    & valid[srows][:, :, None, None])
            sub_base = base & ~legal[srows]
            sub_neg = np.full(sub_base.shape, -1, np.int8)
            for t in NEGATABLE:
                ok = sub_base & ~_blocked(sub_terms, sub_plain, t) & (sub_neg < 0)
                sub_neg[ok] = t
            usable = (sub_neg >= 0) & smart[srows][:, :, None, None]
            i_s = np.zeros(legal.shape, bool)
            n_s = np.full(legal.shape, -1, np.int8)
            i_s[srows] = usable
            n_s[srows] = np.where(usable, sub_neg, -1)
            iatt[vr, av] = i_s[vr, va]
            neg[vr, av] = n_s[vr, va]
    return att, iatt, neg


# ---------------------------------------------------------------- feeding options

class Options:
    """Legal feeding options of the current seat of each game (n games).

    forgo (n,) bool; veg, store, intel (n, S) bool. Attacks are kept for the rows that
    have a hungry carnivore only: `arows` (m,) row numbers, `att` (m, S, P, S) bool
    [attacker, target seat, target slot], `iatt` the same for attacks that need an
    Intelligence discard, `neg` (m, S, P, S) int8 the trait it negates (-1 none).
    `attack`, `iattack`, `negate` give the same as full (n, S, P, S) arrays.
    """

    def __init__(self, forgo, veg, store, intel, arows, att, iatt, neg, can_ever_eat=None):
        self.forgo, self.veg, self.store, self.intel = forgo, veg, store, intel
        self.arows, self.att, self.iatt, self.neg = arows, att, iatt, neg
        self.can_ever_eat = can_ever_eat     # (n,) bool: the seat has room for food left

    @property
    def n(self) -> int:
        return len(self.forgo)

    def _full(self, part, fill):
        out = np.full((self.n,) + part.shape[1:], fill, part.dtype)
        out[self.arows] = part
        return out

    @property
    def attack(self) -> np.ndarray:
        return self._full(self.att, False)

    @property
    def iattack(self) -> np.ndarray:
        return self._full(self.iatt, False)

    @property
    def negate(self) -> np.ndarray:
        return self._full(self.neg, -1)

    def flat(self) -> np.ndarray:
        """(n, K): the options in the reference engine's canonical order."""
        n = self.n
        return np.concatenate([self.forgo[:, None], self.veg, self.store, self.intel,
                               self.attack.reshape(n, -1), self.iattack.reshape(n, -1)], axis=1)

    def n_attacks(self) -> np.ndarray:
        """(n,) legal attacks (with or without Intelligence) of each row."""
        out = np.zeros(self.n, np.int64)
        m = len(self.arows)
        if m:
            out[self.arows] = (np.count_nonzero(self.att.reshape(m, -1), axis=1)
                               + np.count_nonzero(self.iatt.reshape(m, -1), axis=1))
        return out

    def n_acts(self) -> np.ndarray:
        """(n,) legal options other than forgoing (computed once)."""
        if getattr(self, "_n_acts", None) is None:
            acts = count_last(self.veg)
            for part in (self.store, self.intel):
                if part.any():
                    acts += count_last(part)
            if len(self.arows):
                acts += self.n_attacks()
            self._n_acts = acts
        return self._n_acts

    def subset(self, rows) -> "Options":
        """The options of rows `rows` (increasing row numbers)."""
        pos = np.full(self.n, -1, np.int64)
        pos[self.arows] = np.arange(len(self.arows))
        at = pos[rows]
        keep = at >= 0
        k = at[keep]
        return Options(self.forgo[rows], self.veg[rows], self.store[rows], self.intel[rows],
                       np.flatnonzero(keep), self.att[k], self.iatt[k], self.neg[k],
                       None if self.can_ever_eat is None else self.can_ever_eat[rows])

    def pick(self, k) -> "Choice":
        """The k-th (0-based) legal option of each row, in canonical order."""
        n = self.n
        S = self.veg.shape[1]
        ch = Choice.forgo(n)
        k = np.asarray(k, np.int64) - self.forgo
        for code, mask in ((VEG, self.veg), (STORE, self.store), (INTEL, self.intel)):
            cnt = count_last(mask)
            here = np.flatnonzero((k >= 0) & (k < cnt))
            if len(here):
                ch.kind[here] = code
                ch.s[here] = kth_true(mask[here], k[here])
            k = k - cnt
        m = len(self.arows)
        if m:
            ka = k[self.arows]
            for part, smart in ((self.att, False), (self.iatt, True)):
                flat = part.reshape(m, -1)
                cnt = np.count_nonzero(flat, axis=1)
                here = np.flatnonzero((ka >= 0) & (ka < cnt))
                if len(here):
                    j = kth_true(flat[here], ka[here])
                    rows = self.arows[here]
                    P = part.shape[2]
                    a, q, d = j // (P * S), (j // S) % P, j % S
                    ch.kind[rows], ch.s[rows], ch.q[rows], ch.d[rows] = ATTACK, a, q, d
                    if smart:
                        ch.negate[rows] = self.neg[here, a, q, d]
                ka = ka - cnt
        return ch


@dataclass
class Choice:
    """One feeding choice per game: kind (FORGO..ATTACK), species, target seat/slot, negate."""

    kind: np.ndarray
    s: np.ndarray
    q: np.ndarray
    d: np.ndarray
    negate: np.ndarray

    @staticmethod
    def forgo(n: int) -> "Choice":
        return Choice(kind=np.zeros(n, np.int8), s=np.zeros(n, np.int64),
                      q=np.zeros(n, np.int64), d=np.zeros(n, np.int64),
                      negate=np.full(n, -1, np.int64))

    def subset(self, rows) -> "Choice":
        return Choice(*(getattr(self, f)[rows] for f in _CHOICE_FIELDS))

    def put(self, rows, other: "Choice") -> None:
        for f in _CHOICE_FIELDS:
            getattr(self, f)[rows] = getattr(other, f)


_CHOICE_FIELDS = ("kind", "s", "q", "d", "negate")


def hand_size(st: State, g, p) -> np.ndarray:
    return st.hand_n[g, p]


def feeding_options(E: Engine, st: State, g, c) -> Options:
    r = E.rules
    n, S = len(g), st.S
    tm = seat_rows(st, "tmask", g, c)
    slot_ok = np.arange(S)[None, :] < seat_get(st, "n_species", g, c)[:, None]
    room = seat_rows(st, "pop", g, c) - seat_rows(st, "food", g, c)      # (n, S) int8
    if r.fat_stores_on_eating or r.fat_store_action:
        body, fat = seat_rows(st, "body", g, c), seat_rows(st, "fat", g, c)
    if r.fat_stores_on_eating:
        room = room + np.where(bit(tm, FAT_TISSUE), body - fat, 0)
    can_eat = slot_ok & (room > 0)
    carn = bit(tm, CARNIVORE)
    veg = can_eat & ~carn & (st.wh[g] > 0)[:, None]
    if r.fat_store_action:
        store = slot_ok & bit(tm, FAT_TISSUE) & (body > fat)
    else:
        store = np.zeros((n, S), bool)
    has_card = np.zeros(n, bool)
    intel = np.zeros((n, S), bool)
    if E.has_intelligence:
        smart = slot_ok & bit(tm, INTELLIGENCE)
        irows = np.flatnonzero(any_last(smart))
        if len(irows):
            has_card[irows] = hand_size(st, g[irows], c[irows]) > 0
            intel = smart & can_eat & ~carn & has_card[:, None]
    hungry_carn = can_eat & carn
    arows = np.flatnonzero(any_last(hungry_carn))
    att, iatt, neg = _attack_options(E, st, g[arows], c[arows], hungry_carn[arows],
                                     has_card[arows])
    opts = Options(np.ones(n, bool), veg, store, intel, arows, att, iatt, neg,
                   any_last(can_eat | store))
    forgo_ok = np.ones(n, bool)
    if r.forgo_needs_no_plant_option:
        forgo_ok &= ~any_last(veg)
    if r.carnivore_must_attack and len(arows):
        forgo_ok[arows] &= ~att.reshape(len(arows), -1).any(1)
    opts.forgo = forgo_ok | (opts.n_acts() == 0)
    return opts


def decode(opts: Options, idx: np.ndarray, P: int, S: int) -> Choice:
    """Turn flat option indices (canonical order) into a Choice."""
    n = len(idx)
    kind = np.zeros(n, np.int8)
    s = np.zeros(n, np.int64)
    q = np.zeros(n, np.int64)
    d = np.zeros(n, np.int64)
    neg = np.full(n, -1, np.int64)
    j = idx - 1
    for k, code in enumerate((VEG, STORE, INTEL)):
        m = (j >= k * S) & (j < (k + 1) * S)
        kind[m] = code
        s[m] = j[m] - k * S
    j = idx - 1 - 3 * S
    big = S * P * S
    m = (j >= 0)
    jj = np.where(j >= big, j - big, j)
    kind[m] = ATTACK
    s[m] = jj[m] // (P * S)
    q[m] = (jj[m] // S) % P
    d[m] = jj[m] % S
    mi = j >= big
    rows = np.flatnonzero(mi)
    neg[mi] = opts.negate[rows, s[mi], q[mi], d[mi]]
    return Choice(kind=kind, s=s, q=q, d=d, negate=neg)


def kth_true(mask: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Column of the k-th (0-based) True of each row (0 where the row has no k-th True)."""
    count = count_last(mask)
    cols = np.nonzero(mask)[1]
    if len(cols) == 0:
        return np.zeros(len(mask), np.int64)
    k = np.asarray(k, np.int64)
    pos = np.cumsum(count) - count + k
    ok = (k >= 0) & (k < count)
    return np.where(ok, cols[np.where(ok, pos, 0)], 0)


def first_true(mask: np.ndarray, K: int) -> np.ndarray:
    """(n, K): columns of the first K Trues of each row, -1 where a row has fewer."""
    row, col = np.nonzero(mask)
    out = np.full((len(mask), K), -1, np.int64)
    if len(row) == 0:
        return out
    count = np.bincount(row, minlength=len(mask))
    rank = np.arange(len(row)) - (np.cumsum(count) - count)[row]
    keep = rank < K
    out[row[keep], rank[keep]] = col[keep]
    return out


# ---------------------------------------------------------------- feeding actions

def attack(E: Engine, st: State, g, p, a, q, d) -> None:
    r = E.rules
    meat = (slot_get(st, "body", g, q, d).astype(np.int32) if r.attack_meat == "defender_body"
            else np.ones(len(g), np.int32))
    horns = bit(slot_get(st, "tmask", g, q, d), HORNS)
    died = lose_population(E, st, g, q, d)
    a = np.where(died & (q == p) & (d < a), a - 1, a)
    att_died = np.zeros(len(g), bool)
    h = np.flatnonzero(horns)
    if len(h):
        att_died[h] = lose_population(E, st, g[h], p[h], a[h])
    ate = np.zeros(len(g), bool)
    alive = np.flatnonzero(~att_died)
    from_wh = r.meat_source == "watering_hole"
    ate[alive] = feed(E, st, g[alive], p[alive], a[alive], from_wh, True, meat[alive])
    scavenges = ate | (not r.scavenge_needs_attacker_fed)
    feed_scavengers(E, st, g[scavenges], p[scavenges])


def feed_scavengers(E: Engine, st: State, g, seat) -> None:
    """Every Scavenger, from the attacking player clockwise, left to right, takes 1 meat."""
    if len(g) == 0:
        return
    P, S = st.P, st.S
    scav = bit(st.tmask[g], SCAVENGER)                                # (n, P, S)
    some = np.flatnonzero(scav.reshape(len(g), -1).any(1))
    if len(some) == 0:
        return
    g, seat = g[some], seat[some]
    order = (seat[:, None] + np.arange(P)[None, :]) % P                # (k, P) seats in turn
    in_turn = scav[some[:, None], order]                               # (k, P, S)
    row, k, i = np.nonzero(in_turn)
    count = np.bincount(row, minlength=len(g))
    start = np.cumsum(count) - count
    from_wh = E.rules.meat_source == "watering_hole"
    for j in range(int(count.max())):
        rows = np.flatnonzero(count > j)
        at = start[rows] + j
        feed(E, st, g[rows], order[rows, k[at]], i[at], from_wh, True, 1)


def apply_choice(E: Engine, st: State, g, c, ch: Choice) -> None:
    r = E.rules
    kind = ch.kind
    m = kind == VEG
    if m.all():
        feed(E, st, g, c, ch.s, True, False, 1)
        return
    if m.any():
        feed(E, st, g[m], c[m], ch.s[m], True, False, 1)
    m = kind == STORE
    if m.any():
        store_fat(st, g[m], c[m], ch.s[m])
    m = kind == INTEL
    if m.any():
        discard_lowest(st, g[m], c[m])
        feed(E, st, g[m], c[m], ch.s[m], False, False, r.intelligence_bank_food)
    m = kind == ATTACK
    if m.any():
        smart = m & (ch.negate >= 0)
        if smart.any():
            discard_lowest(st, g[smart], c[smart])
        attack(E, st, g[m], c[m], ch.s[m], ch.q[m], ch.d[m])


def split_by_bot(bots, seats):
    """(bot, positions) for each distinct bot among the seats' bots."""
    if len(seats) == 0:
        return
    owner = [next(k for k, b in enumerate(bots) if b is bots[s]) for s in range(len(bots))]
    if len(set(owner)) == 1:
        yield bots[0], np.arange(len(seats))
        return
    first = np.array(owner)[seats]
    for k in np.unique(first):
        yield bots[k], np.flatnonzero(first == k)


OUT, FED, PASSED = 0, 1, 2      # outcomes of a feeding turn, as in reference.feeding_turn


def feeding_turn(E: Engine, st: State, g, c, bots, turn) -> np.ndarray:
    """One feeding turn of seat c in each game g. Returns each game's outcome (int8): FED,
    PASSED (no option this turn, asked again later) or OUT of this feeding (forgoes, can
    never eat again, or has no option where `no_option_is_out`)."""
    n = len(g)
    opts = feeding_options(E, st, g, c)
    n_acts = opts.n_acts()
    has_act = n_acts > 0
    ch = Choice.forgo(n)
    asks = has_act
    if E.rules.auto_feed_single_option:
        auto = np.flatnonzero(n_acts == 1)
        if len(auto):
            sub = opts.subset(auto)
            ch.put(auto, sub.pick(sub.forgo.astype(np.int64)))
            asks = has_act & (n_acts != 1)
    rows = np.flatnonzero(asks)
    for bot, idx in split_by_bot(bots, c[rows]):
        r2 = rows[idx]
        sub = opts if len(r2) == n else opts.subset(r2)
        ch.put(r2, bot.batch_feed(E, st, g[r2], c[r2], sub, turn[r2]))
    fed = has_act & (ch.kind != FORGO)
    outcome = np.where(fed, FED, OUT).astype(np.int8)
    if not E.rules.no_option_is_out:
        outcome[~has_act & opts.can_ever_eat] = PASSED
    rows = np.flatnonzero(fed)
    if len(rows) == n:
        apply_choice(E, st, g, c, ch)
    elif len(rows):
        apply_choice(E, st, g[rows], c[rows], ch.subset(rows))
    return outcome


def _subset_options(o: Options, rows) -> Options:
    return o.subset(rows)


def _subset_choice(ch: Choice, rows) -> Choice:
    return ch.subset(rows)


def can_ever_eat(E: Engine, st: State, g, p=None) -> np.ndarray:
    """Seat p (or every seat: (n, P)) still has a species with room for food or, where
    storing is its own action, for fat (as reference.can_ever_eat)."""
    r = E.rules
    def get(name):
        return game_rows(st, name, g) if p is None else seat_rows(st, name, g, p)
    n_sp = game_rows(st, "n_species", g) if p is None else seat_get(st, "n_species", g, p)
    here = np.arange(st.S) < n_sp[..., None]
    room = get("pop") > get("food")
    if r.fat_stores_on_eating or r.fat_store_action:
        room |= bit(get("tmask"), FAT_TISSUE) & (get("body") > get("fat"))
    return any_last(here & room)


def next_active(active: np.ndarray, cur: np.ndarray) -> np.ndarray:
    """The next seat clockwise after `cur` that is still active (cur itself if alone)."""
    n, P = active.shape
    nxt = cur.copy()
    found = np.zeros(n, bool)
    rows = np.arange(n)
    for k in range(1, P + 1):
        seat = (cur + k) % P
        hit = ~found & active[rows, seat]
        nxt[hit] = seat[hit]
        found |= hit
    return nxt


def feeding(E: Engine, st: State, g, bots) -> None:
    """Feeding turns from the first player clockwise until nobody can (or will) feed: every
    player is out, or every player still in has passed in a row (as reference.feeding).
    A player with no room for food left is out at once (room only shrinks)."""
    g = np.asarray(g)
    if len(g) == 0:
        return
    st = narrow(st, width(st, g))
    n, P = len(g), st.P
    active = can_ever_eat(E, st, g)
    cur = st.first[g].astype(np.int64)
    turn = np.zeros(n, np.int64)
    passes = np.zeros(n, np.int64)     # turns in a row on which a player still in passed
    some = np.flatnonzero(any_last(active))
    g, active, cur, turn = g[some], active[some], cur[some], turn[some]
    passes = passes[some]
    rows = np.arange(len(g))
    cur = np.where(active[rows, cur], cur, next_active(active, cur))
    stop_empty = E.rules.feeding_stops_when_watering_hole_empty
    while len(g):
        if stop_empty:
            going = np.flatnonzero(st.wh[g] > 0)
            if len(going) < len(g):
                g, active, cur, turn, passes = (g[going], active[going], cur[going],
                                                turn[going], passes[going])
                if len(g) == 0:
                    return
        outcome = feeding_turn(E, st, g, cur, bots, turn)
        passes = np.where(outcome == FED, 0, passes + (outcome == PASSED))
        fed = np.flatnonzero(outcome == FED)
        outcome[fed[~can_ever_eat(E, st, g[fed], cur[fed])]] = OUT      # done: leaves now
        out = np.flatnonzero(outcome == OUT)
        active[out, cur[out]] = False
        n_in = active[:, 0].astype(np.int64)
        for k in range(1, P):
            n_in += active[:, k]
        going = n_in > passes
        if not going.all():
            keep = np.flatnonzero(going)
            g, active, cur, turn, passes = (g[keep], active[keep], cur[keep], turn[keep],
                                            passes[keep])
        cur = next_active(active, cur)
        turn += 1


# ---------------------------------------------------------------- reveal and food cards

_REVEAL_TRAIT = {"fertile": FERTILE, "long-neck": LONG_NECK, "fat-tissue": FAT_TISSUE}


def reveal_effects(E: Engine, st: State, g) -> None:
    r = E.rules
    g = np.asarray(g)
    if len(g) == 0:
        return
    st = narrow(st, width(st, g))
    P, S = st.P, st.S
    for name in r.reveal_order:
        trait = _REVEAL_TRAIT[name]
        some = np.flatnonzero(any_last(bit(game_rows(st, "tmask", g), trait).reshape(len(g), -1)))
        if len(some) == 0:
            continue
        gs = g[some]
        for k in range(P):
            c = (st.first[gs].astype(np.int64) + k) % P
            has_trait = bit(seat_rows(st, "tmask", gs, c), trait)      # empty slots: none
            for i in range(S):
                m = has_trait[:, i]
                if name == "fertile" and r.fertile_needs_plant_food:
                    m = m & (st.wh[gs] > 0)
                if not m.any():
                    continue
                gg, cc = gs[m], c[m]
                ii = np.full(len(gg), i)
                if name == "fertile":
                    pop = slot_get(st, "pop", gg, cc, ii)
                    slot_set(st, "pop", gg, cc, ii, np.minimum(pop + 1, r.max_population))
                elif name == "long-neck":
                    feed(E, st, gg, cc, ii, r.long_neck_source == "watering_hole", False, 1)
                else:
                    fat, food = slot_get(st, "fat", gg, cc, ii), slot_get(st, "food", gg, cc, ii)
                    moved = np.minimum(fat, slot_get(st, "pop", gg, cc, ii) - food)
                    slot_set(st, "fat", gg, cc, ii, fat - moved)
                    slot_set(st, "food", gg, cc, ii, food + moved)


def add_food(E: Engine, st: State, g, foods) -> None:
    """foods: (n, P) food values in seat order from the first player (missing = 0 / skip)."""
    before = st.wh[g].copy()
    wh = st.wh[g].astype(np.int64)
    if E.rules.food_clamp_each_card:
        for k in range(foods.shape[1]):
            wh = np.maximum(0, wh + foods[:, k])
    else:
        wh = np.maximum(0, wh + foods.sum(axis=1))
    st.wh[g] = wh
    st.bank_out[g] += (wh - before).astype(np.int32)


# ---------------------------------------------------------------- card play

NONE, NEW, TRAIT, POP, BODY = 0, 1, 2, 3, 4


def play_action(E: Engine, st: State, g, p, kind, card, s, slot, holes=False) -> np.ndarray:
    """Apply one card action per game (kind NONE skips); illegal actions are skipped.
    holes: a played card leaves a hole in the (sorted) hand (`punch_from_hand`); call
    `sort_hands` before the hand is read again.

    NEW: slot 0 = right end, 1 = left end. TRAIT: slot -1 adds, else replaces that trait.
    """
    r = E.rules
    S, T = st.S, st.traits.shape[3]
    card = np.asarray(card, np.int64)
    kind = np.asarray(kind)
    s = np.asarray(s, np.int64)
    slot = np.asarray(slot, np.int64)
    N = st.loc.shape[1]
    in_hand = (kind != NONE) & (card >= 0) & (card < N)
    in_hand &= st.loc[g, np.clip(card, 0, N - 1)] == p
    n_sp = seat_get(st, "n_species", g, p).astype(np.int64)
    s_ok = (s >= 0) & (s < n_sp)
    sc = np.clip(s, 0, S - 1)
    done = np.zeros(len(g), bool)

    new = in_hand & (kind == NEW) & (n_sp < r.species_slots) & (n_sp < S)
    if r.new_species_sides != "both":
        new &= slot == 0
    if new.any():
        new_species_at(E, st, g[new], p[new], slot[new] == 1)
    done |= new

    is_trait = in_hand & (kind == TRAIT) & s_ok
    placed = is_trait
    if is_trait.any():
        placed = _place_traits(E, st, g, p, card, sc, slot, is_trait)

    grow_pop = in_hand & (kind == POP) & s_ok
    gg, pp, ss = g[grow_pop], p[grow_pop], sc[grow_pop]
    slot_set(st, "pop", gg, pp, ss,
             np.minimum(slot_get(st, "pop", gg, pp, ss) + 1, r.max_population))
    grow_body = in_hand & (kind == BODY) & s_ok
    gg, pp, ss = g[grow_body], p[grow_body], sc[grow_body]
    slot_set(st, "body", gg, pp, ss, np.minimum(slot_get(st, "body", gg, pp, ss) + 1, r.max_body))
    spent = new | grow_pop | grow_body
    st.loc[g[spent], card[spent]] = DISCARD
    used = spent | placed
    if used.any():
        take = punch_from_hand if holes else remove_from_hand
        take(st, g[used], p[used], card[used])
    return used


def _place_traits(E: Engine, st: State, g, p, card, sc, slot, is_trait) -> np.ndarray:
    """Trait cards onto species (add or replace); a duplicate trait is illegal."""
    r = E.rules
    T = st.traits.shape[3]
    rows = np.flatnonzero(is_trait)
    g, p, card, sc, slot = g[rows], p[rows], card[rows], sc[rows], slot[rows]
    ck = E.kind[card]
    n_tr = st.n_traits[g, p, sc].astype(np.int64)
    dup = np.zeros(len(g), bool)
    for t in range(T):
        other = st.traits[g, p, sc, t].astype(np.int64)
        dup |= (t != slot) & (other >= 0) & (E.kind[np.maximum(other, 0)] == ck)
    adds = ~dup & (slot < 0) & (n_tr < r.max_traits)
    replaces = ~dup & (slot >= 0) & (slot < n_tr)
    gg, pp, ss = g[adds], p[adds], sc[adds]
    st.traits[gg, pp, ss, n_tr[adds]] = card[adds]
    st.n_traits[gg, pp, ss] += 1
    gg, pp, ss, tt = g[replaces], p[replaces], sc[replaces], slot[replaces]
    old = st.traits[gg, pp, ss, tt].astype(np.int64)
    st.loc[gg, old] = DISCARD
    loses_fat = (E.kind[old] == FAT_TISSUE) & (E.kind[card[replaces]] != FAT_TISSUE)
    st.bank_out[gg] -= np.where(loses_fat, st.fat[gg, pp, ss], 0).astype(np.int32)
    st.fat[gg, pp, ss] = np.where(loses_fat, 0, st.fat[gg, pp, ss])
    st.traits[gg, pp, ss, tt] = card[replaces]
    placed = adds | replaces
    st.loc[g[placed], card[placed]] = BOARD
    # one action per game, so (g, p) rows are distinct: a plain scatter-add is exact
    tp = _whole(st, "traits_played")
    K = tp.shape[2]
    tp.reshape(-1)[(g[placed] * tp.shape[1] + p[placed]) * K + ck[placed]] += 1
    if placed.any():
        _refresh_rows(E, st, g[placed], p[placed], sc[placed])
    out = np.zeros(len(is_trait), bool)
    out[rows] = placed
    return out


def _refresh_rows(E: Engine, st: State, g, p, s) -> None:
    bits = E.kind_bits
    tr = st.traits[g, p, s]                      # (n, T), -1 empty reads the pad bit 0
    m = bits[tr[:, 0]]
    for t in range(1, tr.shape[1]):
        m = m | bits[tr[:, t]]
    st.tmask[g, p, s] = m


# ---------------------------------------------------------------- end of feeding

def end_feeding(E: Engine, st: State, g) -> None:
    """Population drops to the food eaten, food goes to the bags (every seat at once);
    then extinct species leave, seat by seat from the first player (card draws)."""
    g = np.asarray(g)
    if len(g) == 0:
        return
    st = narrow(st, width(st, g))
    P, S = st.P, st.S
    here = np.arange(S) < st.n_species[g][:, :, None]                 # (n, P, S)
    food = np.where(here, st.food[g], 0).astype(np.int8)
    st.pop[g] = np.where(here, food, st.pop[g])
    eaten = food[..., 0].astype(np.int32)
    for i in range(1, S):
        eaten += food[..., i]
    st.bag[g] += eaten
    st.food[g] = 0
    dead = here & (food == 0)
    some = np.flatnonzero(any_last(dead.reshape(len(g), -1)))
    if len(some) == 0:
        return
    g, dead = g[some], dead[some]
    rows = np.arange(len(g))
    for k in range(P):
        c = (st.first[g].astype(np.int64) + k) % P
        dead_c = dead[rows, c]                                          # (m, S)
        has = np.flatnonzero(any_last(dead_c))
        if len(has) == 0:
            continue
        gs, cs, dead_c = g[has], c[has], dead_c[has]
        at_once = _extinctions_at_once(E, st, gs, cs, dead_c)
        gs, cs, dead_c = gs[~at_once], cs[~at_once], dead_c[~at_once]
        removed = np.zeros(len(gs), np.int64)     # boards already gone left of slot i
        for i in range(S):
            r = np.flatnonzero(dead_c[:, i])
            if len(r):
                go_extinct(E, st, gs[r], cs[r], i - removed[r])
                removed[r] += 1


def _extinctions_at_once(E: Engine, st: State, g, c, dead) -> np.ndarray:
    """Every extinct species (m, S) of seat c at once, where the deck holds all the cards
    drawn (no reshuffle): the same as one `go_extinct` per species from the left, whose
    draws each go in front of the hand (so the last species' cards come first). Returns
    which rows it handled."""
    r = E.rules
    P, S = st.P, st.S
    slots = np.arange(S)
    n_tr = seat_rows(st, "n_traits", g, c).astype(np.int64)
    per = np.where(dead, r.extinction_cards_flat + r.extinction_cards_per_trait * n_tr, 0)
    n_draw = per.sum(1)
    ok = (st.deck_len[g] - st.deck_top[g]) >= n_draw
    rows = np.flatnonzero(ok)
    if len(rows) == 0:
        return ok
    g, c, dead, per, n_draw = g[rows], c[rows], dead[rows], per[rows], n_draw[rows]
    srow = g * P + c
    # traits to the discards, stored food back to the bank
    traits = _whole(st, "traits")
    T = traits.shape[3]
    cards = traits.reshape(-1, traits.shape[2], T).take(srow, axis=0)[:, :S]   # (m, S, T)
    rr, ss, tt = np.nonzero(dead[:, :, None] & (cards >= 0))
    st.loc[g[rr], cards[rr, ss, tt]] = DISCARD
    st.bank_out[g] -= np.where(dead, seat_rows(st, "food", g, c).astype(np.int32)
                               + seat_rows(st, "fat", g, c), 0).sum(1).astype(np.int32)
    # the surviving boards keep their order, the freed slots at the end are emptied
    order = np.argsort(dead, axis=1, kind="stable")                    # alive first
    n_dead = dead.sum(1)
    freed = slots[None, :] >= (S - n_dead)[:, None]
    for name in _SLOT_FIELDS:
        a = _whole(st, name)
        a2 = a.reshape((-1, a.shape[2]) + a.shape[3:])
        row = a2.take(srow, axis=0)
        head = row[:, :S]
        idx = order if head.ndim == 2 else order[:, :, None]
        head = np.take_along_axis(head, np.broadcast_to(idx, head.shape), axis=1)
        empty = -1 if name == "traits" else 0
        head = np.where(freed if head.ndim == 2 else freed[:, :, None], empty, head)
        row[:, :S] = head
        a2[srow] = row
    st.n_species.reshape(-1)[srow] -= n_dead.astype(st.n_species.dtype)
    # draws: block b (the b-th extinct species from the left) is drawn b-th and lands in
    # front of the blocks drawn before it
    D = int(n_draw.max(initial=0))
    if D:
        start = np.cumsum(per, axis=1) - per                           # draw index of block
        after = n_draw[:, None] - start - per                          # cards drawn after it
        k = np.arange(D)[None, :]
        drawn = k < n_draw[:, None]                                    # (m, D)
        top = st.deck_top[g].astype(np.int64)
        card = st.deck[g[:, None], np.minimum(top[:, None] + k, st.deck.shape[1] - 1)]
        kk = k[:, :, None]
        in_block = (kk >= start[:, None, :]) & (kk < (start + per)[:, None, :])
        blk = np.argmax(in_block, axis=2)                              # (m, D)
        pos = (np.take_along_axis(after, blk, axis=1) + k
               - np.take_along_axis(start, blk, axis=1))
        w = hand_width(st, g)
        N = st.hand.shape[2]
        _, old = _hand_rows(st, g, c, w)
        width_new = min(w + D, N)
        col = np.arange(width_new)[None, :]
        shifted = np.take_along_axis(old, np.clip(col - n_draw[:, None], 0, w - 1), axis=1)
        new = np.where(col >= n_draw[:, None], shifted, N).astype(st.hand.dtype)
        new = np.where(col < w + n_draw[:, None], new, N).astype(st.hand.dtype)
        dr, dk = np.nonzero(drawn)
        new[dr, pos[dr, dk]] = card[dr, dk]
        _put_hand_rows(st, srow, new)
        st.loc[g[dr], card[dr, dk].astype(np.int64)] = c[dr]
        st.hand_n.reshape(-1)[srow] += n_draw.astype(st.hand_n.dtype)
        st.deck_top[g] += n_draw.astype(st.deck_top.dtype)
        st.hand_unsorted[g[n_draw > 0]] = True
    return ok
