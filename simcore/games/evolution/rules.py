"""Evolution's batch engine: the rules as numpy functions over a `State` batch.

Every function works on a subset of games given as index arrays (g: game rows, p/c:
seats, s/a/d: species slots), all of one length: feeding is turn by turn and each game is
at its own turn, so a step gathers its games, computes with named masks and scatters
back. Loops run over seats, species slots, trait slots and card slots, never over games.
The reference engine (reference.py) is the oracle these functions must match exactly.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore import rng

from . import addresses as A
from .ruleset import Cards, Rules
from .state import BOARD, DECK, DISCARD, FOOD_CARD, NO_FINAL, State, refresh_tmask
from .traits import (AMBUSH, BURROWING, CARNIVORE, CLIMBING, COOPERATION, FAT_TISSUE, FERTILE,
                     FORAGING, HARD_SHELL, HERDING, HORNS, INTELLIGENCE, LONG_NECK, NEGATABLE,
                     PACK_HUNTING, SCAVENGER, SYMBIOSIS, WARNING_CALL)

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

    @property
    def has_intelligence(self) -> bool:
        return bool((self.cards.kind == INTELLIGENCE).any())


def bit(mask, trait: int) -> np.ndarray:
    return ((mask >> trait) & 1).astype(bool)


def has(st: State, g, p, s, trait: int) -> np.ndarray:
    return bit(st.tmask[g, p, s], trait)


# ---------------------------------------------------------------- species slots

_SLOT_FIELDS = ("food", "body", "pop", "fat", "n_traits", "tmask", "traits")


def remove_slot(st: State, g, p, s) -> None:
    """Delete species slot s of seat p (shift the boards to its right one slot left)."""
    S = st.S
    for name in _SLOT_FIELDS:
        arr = getattr(st, name)
        for j in range(S - 1):
            shift = j >= s
            if arr.ndim == 4:
                shift = shift[:, None]
            arr[g, p, j] = np.where(shift, arr[g, p, j + 1], arr[g, p, j])
        arr[g, p, S - 1] = -1 if name == "traits" else 0
    st.n_species[g, p] -= 1


def new_species_at(E: Engine, st: State, g, p, left) -> None:
    """Add a new board at the right end, or (where `left`) at the left end."""
    r = E.rules
    S = st.S
    n = st.n_species[g, p].astype(np.int64)
    for name in _SLOT_FIELDS:
        arr = getattr(st, name)
        for j in range(S - 1, 0, -1):
            shift = left
            if arr.ndim == 4:
                shift = shift[:, None]
            arr[g, p, j] = np.where(shift, arr[g, p, j - 1], arr[g, p, j])
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
    tm = st.tmask[g, p, s]
    room = st.pop[g, p, s].astype(np.int32) - st.food[g, p, s]
    if r.fat_stores_on_eating:
        room += np.where(bit(tm, FAT_TISSUE), st.body[g, p, s].astype(np.int32) - st.fat[g, p, s], 0)
    if r.carnivores_refuse_plant:
        room = np.where(~meat & bit(tm, CARNIVORE), 0, room)
    return room


def _take(st: State, g, p, s, n, from_wh) -> None:
    to_food = np.minimum(n, st.pop[g, p, s].astype(np.int32) - st.food[g, p, s])
    st.food[g, p, s] += to_food.astype(np.int8)
    st.fat[g, p, s] += (n - to_food).astype(np.int8)
    st.wh[g] -= np.where(from_wh, n, 0).astype(np.int32)
    st.bank_out[g] += np.where(from_wh, 0, n).astype(np.int32)


def _take_step(E: Engine, st: State, g, p, s, from_wh, meat, amount):
    """One taking (no cooperation): returns (ate, cooperation shares to pass right)."""
    r = E.rules
    avail = np.where(from_wh, st.wh[g], BIG)
    n = np.maximum(np.minimum(np.minimum(amount, capacity(E, st, g, p, s, meat)), avail), 0)
    ate = n > 0
    _take(st, g, p, s, n, from_wh)
    forages = ate & has(st, g, p, s, FORAGING) & (r.foraging_any_food | ~meat)
    avail = np.where(from_wh, st.wh[g], BIG)
    m = np.where(forages, np.maximum(np.minimum(np.minimum(r.foraging_extra, capacity(
        E, st, g, p, s, meat)), avail), 0), 0)
    _take(st, g, p, s, m, from_wh)
    shares = (n + m) if r.cooperation_per_token else ate.astype(np.int32)
    passes = ate & has(st, g, p, s, COOPERATION) & (s + 1 < st.n_species[g, p])
    return ate, np.where(passes, shares, 0)


def feed(E: Engine, st: State, g, p, s, from_wh, meat, amount) -> np.ndarray:
    """Species (g, p, s) takes food; Cooperation chains run depth first, as in the reference
    engine's recursion, on an explicit per-game stack of pending right-neighbour takings."""
    n = len(g)
    from_wh = np.broadcast_to(np.asarray(from_wh, bool), (n,))
    meat = np.broadcast_to(np.asarray(meat, bool), (n,))
    ate, shares = _take_step(E, st, g, p, s, from_wh, meat, amount)
    depth = st.S * (1 + E.rules.foraging_extra) + 2
    stack = np.zeros((n, depth), np.int64)
    top = np.zeros(n, np.int64)
    rows = np.arange(n)

    def push(mask, slot, count):
        for k in range(int(count.max(initial=0))):
            m = mask & (count > k)
            stack[rows[m], top[m]] = slot[m]
            top[m] += 1

    push(shares > 0, s + 1, shares)
    while (top > 0).any():
        i = np.flatnonzero(top > 0)
        top[i] -= 1
        k = stack[i, top[i]]
        _, sh = _take_step(E, st, g[i], p[i], k, from_wh[i], meat[i], 1)
        sub = np.zeros(n, np.int64)
        sub[i] = sh
        slot = np.zeros(n, np.int64)
        slot[i] = k + 1
        push(sub > 0, slot, sub)
    return ate


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


def draw_to_hand(E: Engine, st: State, g, p, n, front: bool) -> None:
    """Seat p draws n cards (reshuffling an empty deck if the rules say so)."""
    if front:
        st.draw_events[g] += 1
    for k in range(int(np.max(n, initial=0))):
        wants = k < n
        if E.rules.reshuffle_discards:
            empty = wants & (st.deck_top[g] >= st.deck_len[g])
            has_discards = (st.loc[g] == DISCARD).any(axis=1)
            reshuffle(E, st, g[empty & has_discards])
        gets = wants & (st.deck_top[g] < st.deck_len[g])
        gg, pp = g[gets], p[gets]
        card = st.deck[gg, st.deck_top[gg]].astype(np.int64)
        st.loc[gg, card] = pp
        st.hand_rank[gg, card] = (-(st.draw_events[gg] << 10) + k) if front else 0
        st.deck_top[gg] += 1


def go_extinct(E: Engine, st: State, g, p, s) -> None:
    """Remove extinct species: traits to the discards, food to the bank, owner draws."""
    if len(g) == 0:
        return
    r = E.rules
    for t in range(st.traits.shape[3]):
        c = st.traits[g, p, s, t].astype(np.int64)
        on = c >= 0
        st.loc[g[on], c[on]] = DISCARD
    st.bank_out[g] -= st.food[g, p, s].astype(np.int32) + st.fat[g, p, s]
    n = r.extinction_cards_flat + r.extinction_cards_per_trait * st.n_traits[g, p, s].astype(np.int32)
    remove_slot(st, g, p, s)
    draw_to_hand(E, st, g, p, n, front=True)


def lose_population(E: Engine, st: State, g, p, s) -> np.ndarray:
    st.pop[g, p, s] -= 1
    over = np.maximum(st.food[g, p, s] - st.pop[g, p, s], 0)
    st.bank_out[g] -= over.astype(np.int32)
    st.food[g, p, s] -= over.astype(np.int8)
    died = st.pop[g, p, s] <= 0
    go_extinct(E, st, g[died], p[died], s[died])
    return died


def discard_lowest(st: State, g, p) -> None:
    """Intelligence: discard the lowest card id in hand."""
    in_hand = st.loc[g] == p[:, None]
    card = np.argmax(in_hand, axis=1)
    st.loc[g, card] = DISCARD


# ---------------------------------------------------------------- attack legality

def can_attack_all(E: Engine, st: State, g, c, a, negate: int = -1) -> np.ndarray:
    """(n, P, S): may species a of seat c attack each species of each seat?"""
    r = E.rules
    n, P, S = len(g), st.P, st.S
    att_tm = st.tmask[g, c, a][:, None, None]
    att_body = st.body[g, c, a].astype(np.int32)[:, None, None]
    att_pop = st.pop[g, c, a].astype(np.int32)[:, None, None]
    pack = bit(att_tm, PACK_HUNTING)
    att_size = att_body + np.where(pack, r.pack_hunting_bonus
                                   + (att_pop if r.pack_hunting_adds_population else 0), 0)
    dtm_raw = st.tmask[g]
    dtm = dtm_raw & ~(1 << negate) if negate >= 0 else dtm_raw
    body = st.body[g].astype(np.int32)
    slots = np.arange(S)[None, None, :]
    n_sp = st.n_species[g][:, :, None]
    exists = slots < n_sp
    seat = np.arange(P)[None, :, None]
    is_self = (seat == c[:, None, None]) & (slots == a[:, None, None])
    own = seat == c[:, None, None]

    hard = bit(dtm, HARD_SHELL)
    size_applies = hard | (r.size_rule == "always")
    too_small = size_applies & (att_size < body + np.where(hard, r.hard_shell_bonus, 0) + r.size_margin)
    climbs = bit(dtm, CLIMBING) & ~bit(att_tm, CLIMBING)
    burrowed = bit(dtm, BURROWING) & (st.food[g] == st.pop[g])
    pop = st.pop[g].astype(np.int32)
    herded = bit(dtm, HERDING) & ((pop >= att_pop)
                                  | (r.herding_needs_larger_body & (body >= att_body)))
    wc = bit(dtm_raw, WARNING_CALL)
    left_wc = np.zeros_like(wc)
    left_wc[:, :, 1:] = wc[:, :, :-1]
    right_exists = slots + 1 < n_sp
    right_wc = np.zeros_like(wc)
    right_wc[:, :, :-1] = wc[:, :, 1:]
    right_wc &= right_exists
    warned = (left_wc | right_wc) & (negate != WARNING_CALL) & ~bit(att_tm, AMBUSH)
    right_body = np.full_like(body, -1)
    right_body[:, :, :-1] = body[:, :, 1:]
    symbiotic = bit(dtm, SYMBIOSIS) & right_exists & (right_body > body)

    blocked = too_small | climbs | burrowed | herded | warned | symbiotic
    legal = exists & bit(att_tm, CARNIVORE) & ~is_self & ~blocked
    if not r.attack_own_species:
        legal &= ~own
    return legal


# ---------------------------------------------------------------- feeding options

@dataclass
class Options:
    """Legal feeding options of the current seat of each game (n games)."""

    forgo: np.ndarray    # (n,) bool
    veg: np.ndarray      # (n, S) bool
    store: np.ndarray    # (n, S) bool
    intel: np.ndarray    # (n, S) bool
    attack: np.ndarray   # (n, S, P, S) bool  [attacker, target seat, target slot]
    iattack: np.ndarray  # (n, S, P, S) bool  attack only with Intelligence
    negate: np.ndarray   # (n, S, P, S) int8  trait Intelligence negates (-1 none)

    def flat(self) -> np.ndarray:
        """(n, K): the options in the reference engine's canonical order."""
        n = len(self.forgo)
        return np.concatenate([self.forgo[:, None], self.veg, self.store, self.intel,
                               self.attack.reshape(n, -1), self.iattack.reshape(n, -1)], axis=1)

    def n_acts(self) -> np.ndarray:
        return (self.veg.sum(1) + self.store.sum(1) + self.intel.sum(1)
                + self.attack.reshape(len(self.forgo), -1).sum(1)
                + self.iattack.reshape(len(self.forgo), -1).sum(1))


@dataclass
class Choice:
    """One feeding choice per game: kind (FORGO..ATTACK), species, target seat/slot, negate."""

    kind: np.ndarray
    s: np.ndarray
    q: np.ndarray
    d: np.ndarray
    negate: np.ndarray


def hand_size(st: State, g, p) -> np.ndarray:
    return (st.loc[g] == p[:, None]).sum(axis=1)


def feeding_options(E: Engine, st: State, g, c) -> Options:
    r = E.rules
    n, P, S = len(g), st.P, st.S
    slot_ok = np.arange(S)[None, :] < st.n_species[g, c][:, None]
    tm = st.tmask[g, c]
    gg = np.repeat(g, S)
    cc = np.repeat(c, S)
    ss = np.tile(np.arange(S), n)
    cap_plant = capacity(E, st, gg, cc, ss, np.zeros(n * S, bool)).reshape(n, S)
    cap_meat = capacity(E, st, gg, cc, ss, np.ones(n * S, bool)).reshape(n, S)
    carn = bit(tm, CARNIVORE)
    veg = slot_ok & (st.wh[g] > 0)[:, None] & ~carn & (cap_plant > 0)
    store = slot_ok & r.fat_store_action & bit(tm, FAT_TISSUE) & (st.body[g, c] > st.fat[g, c])
    has_card = (hand_size(st, g, c) > 0)[:, None]
    intel = slot_ok & has_card & bit(tm, INTELLIGENCE) & ~carn & (cap_plant > 0)
    hungry_carn = slot_ok & carn & (cap_meat > 0)
    attack = np.zeros((n, S, P, S), bool)
    iattack = np.zeros((n, S, P, S), bool)
    negate = np.full((n, S, P, S), -1, np.int8)
    for a in range(S):
        if not hungry_carn[:, a].any():
            continue
        aa = np.full(n, a)
        legal = can_attack_all(E, st, g, c, aa) & hungry_carn[:, a, None, None]
        attack[:, a] = legal
        smart = hungry_carn[:, a] & has_card[:, 0] & bit(tm[:, a], INTELLIGENCE)
        if E.has_intelligence and smart.any():
            neg = np.full((n, P, S), -1, np.int8)
            for t in NEGATABLE:
                ok = can_attack_all(E, st, g, c, aa, negate=t) & ~legal & (neg < 0)
                neg = np.where(ok, t, neg).astype(np.int8)
            usable = (neg >= 0) & smart[:, None, None]
            iattack[:, a] = usable
            negate[:, a] = np.where(usable, neg, -1)
    any_veg = veg.any(1)
    any_attack = attack.reshape(n, -1).any(1)
    forgo_ok = ~(r.forgo_needs_no_plant_option & any_veg) & ~(r.carnivore_must_attack & any_attack)
    opts = Options(forgo=forgo_ok, veg=veg, store=store, intel=intel, attack=attack,
                   iattack=iattack, negate=negate)
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
    """Column of the k-th (0-based) True of each row."""
    cs = np.cumsum(mask, axis=1)
    return np.argmax(cs > k[:, None], axis=1)


# ---------------------------------------------------------------- feeding actions

def attack(E: Engine, st: State, g, p, a, q, d) -> None:
    r = E.rules
    meat = (st.body[g, q, d].astype(np.int32) if r.attack_meat == "defender_body"
            else np.ones(len(g), np.int32))
    horns = has(st, g, q, d, HORNS)
    died = lose_population(E, st, g, q, d)
    a = np.where(died & (q == p) & (d < a), a - 1, a)
    att_died = np.zeros(len(g), bool)
    h = np.flatnonzero(horns)
    att_died[h] = lose_population(E, st, g[h], p[h], a[h])
    ate = np.zeros(len(g), bool)
    alive = np.flatnonzero(~att_died)
    from_wh = r.meat_source == "watering_hole"
    ate[alive] = feed(E, st, g[alive], p[alive], a[alive], from_wh, True, meat[alive])
    scavenges = ate | (not r.scavenge_needs_attacker_fed)
    feed_scavengers(E, st, g[scavenges], p[scavenges])


def feed_scavengers(E: Engine, st: State, g, seat) -> None:
    from_wh = E.rules.meat_source == "watering_hole"
    for k in range(st.P):
        q = (seat + k) % st.P
        for i in range(st.S):
            m = (i < st.n_species[g, q]) & bit(st.tmask[g, q, np.minimum(i, st.S - 1)], SCAVENGER)
            if m.any():
                feed(E, st, g[m], q[m], np.full(m.sum(), i), from_wh, True, 1)


def apply_choice(E: Engine, st: State, g, c, ch: Choice) -> None:
    r = E.rules
    m = ch.kind == VEG
    if m.any():
        feed(E, st, g[m], c[m], ch.s[m], True, False, 1)
    m = ch.kind == STORE
    if m.any():
        store_fat(st, g[m], c[m], ch.s[m])
    m = ch.kind == INTEL
    if m.any():
        discard_lowest(st, g[m], c[m])
        feed(E, st, g[m], c[m], ch.s[m], False, False, r.intelligence_bank_food)
    m = ch.kind == ATTACK
    if m.any():
        smart = m & (ch.negate >= 0)
        discard_lowest(st, g[smart], c[smart])
        attack(E, st, g[m], c[m], ch.s[m], ch.q[m], ch.d[m])


def split_by_bot(bots, seats):
    """(bot, positions) for each distinct bot among the seats' bots."""
    owner = np.array([next(k for k, b in enumerate(bots) if b is bots[s]) for s in range(len(bots))])
    first = owner[seats]
    for k in np.unique(first):
        yield bots[k], np.flatnonzero(first == k)


def feeding_turn(E: Engine, st: State, g, c, bots, turn) -> np.ndarray:
    """One feeding turn of seat c in each game g. Returns: the seat stays in the feeding."""
    opts = feeding_options(E, st, g, c)
    n_acts = opts.n_acts()
    stays = n_acts > 0
    flat = opts.flat()
    idx = np.argmax(flat, axis=1)
    auto = E.rules.auto_feed_single_option & (n_acts == 1)
    auto_idx = np.argmax(flat[:, 1:], axis=1) + 1
    asks = stays & ~auto
    ch = decode(opts, np.where(auto, auto_idx, idx), st.P, st.S)
    rows = np.flatnonzero(asks)
    for bot, idx in split_by_bot(bots, c[rows]):
        r2 = rows[idx]
        picked = bot.batch_feed(E, st, g[r2], c[r2], _subset_options(opts, r2), turn[r2])
        for f in ("kind", "s", "q", "d", "negate"):
            getattr(ch, f)[r2] = getattr(picked, f)
    stays &= ch.kind != FORGO
    apply_choice(E, st, g[stays], c[stays], _subset_choice(ch, np.flatnonzero(stays)))
    return stays


def _subset_options(o: Options, rows) -> Options:
    return Options(*(getattr(o, f)[rows] for f in ("forgo", "veg", "store", "intel", "attack",
                                                     "iattack", "negate")))


def _subset_choice(ch: Choice, rows) -> Choice:
    return Choice(*(getattr(ch, f)[rows] for f in ("kind", "s", "q", "d", "negate")))


def next_active(active: np.ndarray, cur: np.ndarray) -> np.ndarray:
    """The next seat clockwise after `cur` that is still active (cur itself if alone)."""
    n, P = active.shape
    nxt = cur.copy()
    found = np.zeros(n, bool)
    for k in range(1, P + 1):
        seat = (cur + k) % P
        hit = ~found & active[np.arange(n), seat]
        nxt[hit] = seat[hit]
        found |= hit
    return nxt


def feeding(E: Engine, st: State, g, bots) -> None:
    """Feeding turns from the first player clockwise until nobody can (or will) feed."""
    n, P = len(g), st.P
    active = np.ones((n, P), bool)
    cur = st.first[g].astype(np.int64)
    turn = np.zeros(n, np.int64)
    stop_empty = E.rules.feeding_stops_when_watering_hole_empty
    while True:
        going = active.any(1) & ((st.wh[g] > 0) | (not stop_empty))
        rows = np.flatnonzero(going)
        if len(rows) == 0:
            return
        stays = feeding_turn(E, st, g[rows], cur[rows], bots, turn[rows])
        active[rows[~stays], cur[rows[~stays]]] = False
        cur[rows] = next_active(active[rows], cur[rows])
        turn[rows] += 1


# ---------------------------------------------------------------- reveal and food cards

def reveal_effects(E: Engine, st: State, g) -> None:
    r = E.rules
    P, S = st.P, st.S
    for name in r.reveal_order:
        for k in range(P):
            c = (st.first[g].astype(np.int64) + k) % P
            for i in range(S):
                here = i < st.n_species[g, c]
                ii = np.full(len(g), i)
                if name == "fertile":
                    m = here & has(st, g, c, np.minimum(ii, S - 1), FERTILE)
                    if r.fertile_needs_plant_food:
                        m &= st.wh[g] > 0
                    gg, cc = g[m], c[m]
                    st.pop[gg, cc, i] = np.minimum(st.pop[gg, cc, i] + 1, r.max_population)
                elif name == "long-neck":
                    m = here & has(st, g, c, np.minimum(ii, S - 1), LONG_NECK)
                    if m.any():
                        feed(E, st, g[m], c[m], ii[m], r.long_neck_source == "watering_hole",
                             False, 1)
                else:
                    m = here & has(st, g, c, np.minimum(ii, S - 1), FAT_TISSUE)
                    gg, cc = g[m], c[m]
                    moved = np.minimum(st.fat[gg, cc, i], st.pop[gg, cc, i] - st.food[gg, cc, i])
                    st.fat[gg, cc, i] -= moved
                    st.food[gg, cc, i] += moved


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


def play_action(E: Engine, st: State, g, p, kind, card, s, slot) -> np.ndarray:
    """Apply one card action per game (kind NONE skips); illegal actions are skipped.

    NEW: slot 0 = right end, 1 = left end. TRAIT: slot -1 adds, else replaces that trait.
    """
    r = E.rules
    S, T = st.S, st.traits.shape[3]
    card = np.asarray(card, np.int64)
    in_hand = (kind != NONE) & (st.loc[g, np.maximum(card, 0)] == p) & (card >= 0)
    n_sp = st.n_species[g, p].astype(np.int64)
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
    ck = E.kind[np.maximum(card, 0)]
    n_tr = st.n_traits[g, p, sc].astype(np.int64)
    dup = np.zeros(len(g), bool)
    for t in range(T):
        other = st.traits[g, p, sc, t].astype(np.int64)
        dup |= (t != slot) & (other >= 0) & (E.kind[np.maximum(other, 0)] == ck)
    adds = is_trait & ~dup & (slot < 0) & (n_tr < r.max_traits)
    replaces = is_trait & ~dup & (slot >= 0) & (slot < n_tr)
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
    if placed.any():
        _refresh_rows(E, st, g[placed], p[placed], sc[placed])

    grow_pop = in_hand & (kind == POP) & s_ok
    gg, pp, ss = g[grow_pop], p[grow_pop], sc[grow_pop]
    st.pop[gg, pp, ss] = np.minimum(st.pop[gg, pp, ss] + 1, r.max_population)
    grow_body = in_hand & (kind == BODY) & s_ok
    gg, pp, ss = g[grow_body], p[grow_body], sc[grow_body]
    st.body[gg, pp, ss] = np.minimum(st.body[gg, pp, ss] + 1, r.max_body)
    spent = new | grow_pop | grow_body
    st.loc[g[spent], card[spent]] = DISCARD
    return spent | placed


def _refresh_rows(E: Engine, st: State, g, p, s) -> None:
    m = np.zeros(len(g), np.int32)
    for t in range(st.traits.shape[3]):
        c = st.traits[g, p, s, t].astype(np.int64)
        m |= np.where(c >= 0, np.left_shift(1, E.kind[np.maximum(c, 0)].astype(np.int32)), 0)
    st.tmask[g, p, s] = m


# ---------------------------------------------------------------- end of feeding

def end_feeding(E: Engine, st: State, g) -> None:
    P, S = st.P, st.S
    for k in range(P):
        c = (st.first[g].astype(np.int64) + k) % P
        here = np.arange(S)[None, :] < st.n_species[g, c][:, None]
        food = np.where(here, st.food[g, c], 0)
        st.pop[g, c] = np.where(here, food, st.pop[g, c])
        st.bag[g, c] += food.sum(axis=1).astype(np.int32)
        st.food[g, c] = 0
        removed = np.zeros(len(g), np.int64)     # boards already gone left of slot i
        for i in range(S):
            dead = here[:, i] & (food[:, i] == 0)
            if dead.any():
                rows = np.flatnonzero(dead)
                go_extinct(E, st, g[rows], c[rows], i - removed[rows])
                removed[rows] += 1
