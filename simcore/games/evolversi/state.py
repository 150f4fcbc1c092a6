"""Evolversi Male batch state: a batch of B games as numpy arrays, batch axis first.

Every field carries its shape and encoding in a trailing comment. Piles that are drawn from
(decks) are stacks: the top (next card drawn) is the *last* filled entry, `pile[n - 1]`,
so a draw or a purchase is O(1). Discard piles keep the most recently added card last.
Card ids are uids (components.py); -1 marks an empty entry everywhere.

`Tables` holds the per-uid card facts, built once per (ruleset, players) from the data
tables (`tables_for`). Bot values are the bots' business (strategies/evolversi/).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, fields

import numpy as np

from ...ruleset import Ruleset
from .components import Components, components, ident_array
from .schema import CONDITIONS, EFFECTS, PRESSURE_KINDS, TARGETS, TRIGGERS

VERB = {name: i for i, name in enumerate(EFFECTS)}
TARGET = {name: i for i, name in enumerate(TARGETS)}
COND = {name: i for i, name in enumerate(CONDITIONS)}
TRIGGER = {name: i for i, name in enumerate(TRIGGERS)}
PKIND = {name: i for i, name in enumerate(PRESSURE_KINDS)}
NO_TRIGGER = len(TRIGGERS)        # trigger code of the empty card (uid -1)
PHASES = ("play", "order", "actions", "market")
END_REASONS = ("track", "stalled")  # outcome end_reason codes, in this order
END_TRACK, END_STALLED = 0, 1


@dataclass
class State:
    """B games of Evolversi Male, all at the same point of the round structure."""

    games: np.ndarray          # (B,) int64 game index (the random stream's address)
    out: np.ndarray            # (B,) int64 row of this game in the outcome arrays
    alive: np.ndarray          # (B,) bool, False once the game has ended
    at_end: np.ndarray         # (B,) bool a pawn reached the last space since the last end check
    end_reason: np.ndarray     # (B,) int8 -1 running, 0 track, 1 stalled
    rounds: np.ndarray         # (B,) int16 round in which the game ended (0 = running)
    winner: np.ndarray         # (B, P) bool pawn on the last space when the game ended
    animal: np.ndarray         # (B, P) int8 row in animals.csv
    pos: np.ndarray            # (B, P) int16 pawn space on the Evolution track
    fury: np.ndarray           # (B, P) int8 Fury track space, 0..fury_max
    tokens: np.ndarray         # (B, P) int16 Evolution tokens in the reserve
    supply: np.ndarray         # (B,) int16 tokens in the common supply
    totem: np.ndarray          # (B,) int8 seat holding the Totem
    fourth: np.ndarray         # (B,) bool 4th Card token flipped
    fourth_round: np.ndarray   # (B,) int16 round it flipped, 0 = never
    deck: np.ndarray           # (B, P, N) int16 own deck uids, stack: top = deck[n_deck - 1]
    n_deck: np.ndarray         # (B, P) int16 cards in the own deck
    deck_shuffles: np.ndarray  # (B, P) int16 last own-deck shuffle number (0 = setup)
    discard: np.ndarray        # (B, P, N + H) int16 own discard pile, newest = discard[n_discard - 1]
                               #   (H spare columns: phase 4 writes whole packed rows of H cards)
    n_discard: np.ndarray      # (B, P) int16 cards in the own discard pile
    hand: np.ndarray           # (B, P, H) int16 hand in draw order, -1 empty
    n_hand: np.ndarray         # (B, P) int8 cards in hand
    above: np.ndarray          # (B, P, H) int16 cards above the board, placement order, -1 empty
    below: np.ndarray          # (B, P, H) int16 cards below, placement order, -1 empty/gone
    revealed: np.ndarray       # (B, P) bool own turn revealed the cards below this round
    market: np.ndarray         # (B, M) int16 slot 0 = rightmost/cheapest, -1 empty or closed
    evo_deck: np.ndarray       # (B, C) int16 Evolution deck, stack: top = evo_deck[n_evo - 1]
    n_evo: np.ndarray          # (B,) int16 cards in the Evolution deck
    evo_shuffles: np.ndarray   # (B,) int16 last Evolution shuffle number
    common: np.ndarray         # (B, C) int16 common discards, newest last
    n_common: np.ndarray       # (B,) int16 cards in the common discards
    event_deck: np.ndarray     # (B, V) int16 Event uids, stack: top = event_deck[n_event - 1]
    n_event: np.ndarray        # (B,) int16 cards in the Event deck
    event_shuffles: np.ndarray  # (B,) int16 last Event shuffle number
    event_discard: np.ndarray  # (B, V) int16 Event discards, newest last
    n_event_discard: np.ndarray  # (B,) int16
    p_space: np.ndarray        # (B, S) int16 track space of each Pressure token
    p_token: np.ndarray        # (B, S) int16 Pressure token uid on it
    p_revealed: np.ndarray     # (B, S) bool token face up
    order: np.ndarray          # (B, P) int8 this round's turn order (seats)
    order_pos: np.ndarray      # (B, P) int8 index of each seat in `order`
    counter: np.ndarray        # (B, P) int16 decisions taken by each seat this round
    discount: np.ndarray       # (B,) int16 this turn's purchase discount
    reveals: np.ndarray        # (B,) int8 Pressure tokens revealed this turn
    actor: np.ndarray          # (B,) int8 seat whose turn it is (phase 3), -1 otherwise
    bought: np.ndarray         # (B, P, R) uint16 purchases by card design row

    @property
    def size(self) -> int:
        return len(self.games)

    def take(self, idx: np.ndarray) -> "State":
        """The games `idx` only (compaction: drop finished games)."""
        return State(**{f.name: getattr(self, f.name).take(idx, axis=0) for f in fields(self)})


@dataclass(frozen=True)
class Tables:
    """Card, Event, animal and Pressure facts as arrays.

    Per-uid arrays have one extra entry at the end for uid -1 (an empty card: no
    strength, no tokens, no effect, no trigger), so `TABLE[uid_array]` needs no mask.
    """

    comps: Components
    players: int
    n_rows: int                # rows in cards.csv
    n_cards: int               # card uids
    strength: np.ndarray       # (n_cards+1,) int16
    tokens: np.ndarray         # (n_cards+1,) int16
    fury: np.ndarray           # (n_cards+1,) int16 Fury symbols
    verb: np.ndarray           # (n_cards+1,) int8 VERB code
    amount: np.ndarray         # (n_cards+1,) int16
    more: np.ndarray           # (n_cards+1,) int16 optional extra amount (MORE decision), 0 = none
    target: np.ndarray         # (n_cards+1,) int8 TARGET code
    cond: np.ndarray           # (n_cards+1,) int8 COND code
    optional: np.ndarray       # (n_cards+1,) bool
    discard_sym: np.ndarray    # (n_cards+1,) bool
    trigger: np.ndarray        # (n_cards+1,) int8 TRIGGER code, NO_TRIGGER for uid -1
    own_fx: np.ndarray         # (n_cards+1,) bool own_turn trigger and an effect
    row: np.ndarray            # (n_cards+1,) int16 design row, 0 for uid -1
    ident: np.ndarray          # (n_cards+1,) uint64 identity (shuffle address), 0 for uid -1
    active: np.ndarray         # (n_cards+1,) bool the card's effect works (knockouts), True for uid -1
    ev_verb: np.ndarray        # (n_events,) int8
    ev_amount: np.ndarray      # (n_events,) int16
    ev_target: np.ndarray      # (n_events,) int8
    ev_cond: np.ndarray        # (n_events,) int8
    ev_active: np.ndarray      # (n_events,) bool the Event's effect works
    reserve: np.ndarray        # (n_animals,) int16
    power_verb: np.ndarray     # (n_animals,) int8
    power_amount: np.ndarray   # (n_animals,) int16
    power_target: np.ndarray   # (n_animals,) int8
    power_active: np.ndarray   # (n_animals,) bool the animal's Power works
    pressure_kind: np.ndarray  # (n_pressure,) int8 PKIND code
    pressure_fury: np.ndarray  # (n_pressure,) int16 Fury a totem_or_fury token gives
    pressure_active: np.ndarray  # (n_pressure,) bool the token's effect works
    knockouts: bool            # some entity has active = 0 (else the engine skips the checks)
    ev_ident: np.ndarray       # (n_events+1,) uint64 identity of each Event uid, 0 for uid -1
    pressure_ident: np.ndarray  # (n_pressure,) uint64 identity of each Pressure token
    animal_ident: np.ndarray   # (n_animals,) uint64 identity of each animal
    has_reactions: bool        # any in-play card with a reaction trigger
    place_options: tuple       # hand size h -> (n_opt, h) bool: position above?
    perms: tuple               # k -> (k!, k) int8 itertools.permutations(range(k))


def _card_arrays(rs: Ruleset, comps: Components):
    rows = rs.tables["cards"]
    uid_rows = np.array(list(comps.card_row) + [-1], dtype=np.int64)

    def per_uid(column, dtype, empty=0, fn=lambda v: v):
        table = np.array([fn(r[column]) for r in rows] + [empty], dtype=dtype)
        return table[uid_rows]

    return dict(
        strength=per_uid("strength", np.int16), tokens=per_uid("tokens", np.int16),
        fury=per_uid("fury", np.int16),
        verb=per_uid("effect", np.int8, VERB["none"], VERB.__getitem__),
        amount=per_uid("amount", np.int16), more=per_uid("more", np.int16),
        target=per_uid("target", np.int8, TARGET["self"], TARGET.__getitem__),
        cond=per_uid("condition", np.int8, COND["always"], COND.__getitem__),
        optional=per_uid("optional", bool, False), discard_sym=per_uid("discard", bool, False),
        trigger=per_uid("trigger", np.int8, NO_TRIGGER, TRIGGER.__getitem__),
        row=np.where(uid_rows >= 0, uid_rows, 0).astype(np.int16),
        ident=ident_array(comps.card_ident, empty=True),
        active=per_uid("active", bool, True),
    )


def _place_options(rs: Ruleset, h_max: int) -> tuple:
    """PLACE options per hand size h (contract section 6), as (n_opt, h) 'above' masks."""
    out = []
    for h in range(h_max + 1):
        k_lo = max(rs["min_above"], h - rs["max_below"], 0)
        k_hi = min(rs["max_above"], h - rs["min_below"], h)
        if k_lo > k_hi:
            k_lo, k_hi = max(0, h - rs["max_below"]), min(rs["max_above"], h)
        combos = [c for k in range(k_lo, k_hi + 1) for c in itertools.combinations(range(h), k)]
        mask = np.zeros((len(combos), h), dtype=bool)
        for i, c in enumerate(combos):
            mask[i, list(c)] = True
        out.append(mask)
    return tuple(out)


_TABLES: dict = {}


def tables_for(rs: Ruleset, players: int) -> Tables:
    """The lookup tables for this ruleset and player count (built once, then cached)."""
    key = (rs.hash, players)
    if key not in _TABLES:
        _TABLES[key] = _build_tables(rs, players)
    return _TABLES[key]


def _build_tables(rs: Ruleset, players: int) -> Tables:
    comps = components(rs, players)
    cards = _card_arrays(rs, comps)
    ev = [rs.tables["events"][i] for i in comps.event_row]
    animals = rs.tables["animals"]
    h_max = max(rs["hand_size"], rs["hand_size_fourth"])
    return Tables(
        comps=comps, players=players, n_rows=len(rs.tables["cards"]), n_cards=len(comps.card_row),
        **cards,
        own_fx=(cards["trigger"] == TRIGGER["own_turn"]) & (cards["verb"] != VERB["none"]),
        ev_verb=np.array([VERB[e["effect"]] for e in ev], dtype=np.int8),
        ev_amount=np.array([e["amount"] for e in ev], dtype=np.int16),
        ev_target=np.array([TARGET[e["target"]] for e in ev], dtype=np.int8),
        ev_cond=np.array([COND[e["condition"]] for e in ev], dtype=np.int8),
        ev_active=np.array([e["active"] for e in ev], dtype=bool),
        reserve=np.array([a["reserve"] for a in animals], dtype=np.int16),
        power_verb=np.array([VERB[a["power"]] for a in animals], dtype=np.int8),
        power_amount=np.array([a["amount"] for a in animals], dtype=np.int16),
        power_target=np.array([TARGET[a["target"]] for a in animals], dtype=np.int8),
        power_active=np.array([a["active"] for a in animals], dtype=bool),
        pressure_kind=np.array([PKIND[k] for k in comps.pressure_kind], dtype=np.int8),
        pressure_fury=np.array(comps.pressure_fury, dtype=np.int16),
        pressure_active=np.array([rs.tables["pressure"][i]["active"] for i in comps.pressure_row], dtype=bool),
        knockouts=any(r["active"] == 0 for t in ("cards", "events", "animals", "pressure") for r in rs.tables[t]),
        ev_ident=ident_array(comps.event_ident, empty=True), pressure_ident=ident_array(comps.pressure_ident),
        animal_ident=ident_array(comps.animal_ident),
        has_reactions=bool(np.any(cards["trigger"][:-1] != TRIGGER["own_turn"])),
        place_options=_place_options(rs, h_max),
        perms=tuple(np.array(list(itertools.permutations(range(k))), dtype=np.int8).reshape(math.factorial(k), k)
                    for k in range(h_max + 1)),
    )


def empty_state(rs: Ruleset, tb: Tables, games: np.ndarray) -> State:
    """An all-empty batch (no cards anywhere) for the given game indices."""
    B, P = len(games), tb.players
    H = max(rs["hand_size"], rs["hand_size_fourth"])
    C = tb.n_cards                     # every card could in principle sit in one pile
    V = len(tb.comps.event_row)
    S = min(len(rs["pressure_spaces"]), len(tb.comps.pressure_kind))
    z = np.zeros
    return State(
        games=np.asarray(games, dtype=np.int64), out=np.arange(B, dtype=np.int64),
        alive=np.ones(B, bool), at_end=z(B, bool), end_reason=np.full(B, -1, np.int8), rounds=z(B, np.int16),
        winner=z((B, P), bool), animal=z((B, P), np.int8),
        pos=np.full((B, P), rs["start_position"], np.int16), fury=z((B, P), np.int8),
        tokens=z((B, P), np.int16), supply=np.full(B, rs["token_supply"], np.int16),
        totem=z(B, np.int8), fourth=z(B, bool), fourth_round=z(B, np.int16),
        deck=np.full((B, P, C), -1, np.int16), n_deck=z((B, P), np.int16),
        deck_shuffles=z((B, P), np.int16),
        discard=np.full((B, P, C + H), -1, np.int16), n_discard=z((B, P), np.int16),
        hand=np.full((B, P, H), -1, np.int16), n_hand=z((B, P), np.int8),
        above=np.full((B, P, H), -1, np.int16), below=np.full((B, P, H), -1, np.int16),
        revealed=z((B, P), bool), market=np.full((B, rs["market_spaces"]), -1, np.int16),
        evo_deck=np.full((B, C), -1, np.int16), n_evo=z(B, np.int16), evo_shuffles=z(B, np.int16),
        common=np.full((B, C), -1, np.int16), n_common=z(B, np.int16),
        event_deck=np.full((B, V), -1, np.int16), n_event=z(B, np.int16),
        event_shuffles=z(B, np.int16),
        event_discard=np.full((B, V), -1, np.int16), n_event_discard=z(B, np.int16),
        p_space=z((B, S), np.int16), p_token=np.full((B, S), -1, np.int16),
        p_revealed=z((B, S), bool),
        order=np.tile(np.arange(P, dtype=np.int8), (B, 1)),
        order_pos=np.tile(np.arange(P, dtype=np.int8), (B, 1)),
        counter=z((B, P), np.int16), discount=z(B, np.int16), reveals=z(B, np.int8),
        actor=np.full(B, -1, np.int8), bought=z((B, P, tb.n_rows), np.uint16),
    )
