"""What the compiled batch engine (kernels.py, engine.py) and the compiled bots read: the state's
arrays and the rules as numba-friendly named tuples, and the counter-based random streams
of simcore.rng as compiled functions.

`pack_state(st)` gives an `Arr` of the very arrays of a `State` (no copies: the kernels
write through them), plus scratch arrays for the compiled rules. `pack_rules(rules, cards)` gives an `RK`: every rule number as a
plain int (flags 0/1; the few text choices as named flags), `reveal_order` as trait ids
(`reveal_before`: which of them happen before the food cards), the card attributes `kind`,
`food` and `uid` as int64 arrays indexed by card id, and `live_mask`, the traits whose
effect is on (knockouts).
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import fields

import numpy as np

from .jit import inline
from .schema import Cards, Rules
from .state import State
from .traits import FAT_TISSUE, FERTILE, LONG_NECK

ARR_FIELDS = ("n_species", "food", "body", "pop", "fat", "traits", "n_traits", "tmask", "bag",
              "loc", "hand", "hand_n", "deck", "deck_top", "deck_len", "wh",
              "bank_out", "first", "round", "final_round", "end_reason", "shuffles", "games",
              "traits_played")
# scratch space of the compiled rules (they allocate nothing, see kernels.py)
SCRATCH_FIELDS = ("pend", "order", "keys", "uids", "keys2", "uids2", "count", "fq")
Arr = namedtuple("Arr", ARR_FIELDS + ("seed",) + SCRATCH_FIELDS)

# text-valued rules become named 0/1 flags (value that sets the flag)
_TEXT_FLAGS = {
    "new_left_allowed": ("new_species_sides", "both"),
    "deal_stops_short": ("deal_end_rule", "stop_unless_deck_exceeds_need"),
    "long_neck_from_wh": ("long_neck_source", "watering_hole"),
    "meat_is_body": ("attack_meat", "defender_body"),
    "meat_from_wh": ("meat_source", "watering_hole"),
    "size_always": ("size_rule", "always"),
    "tie_most_traits": ("tie_break", "most_traits"),
}
_SKIP = {"deck", "reveal_order", "reveal_before_food"} | {name for name, _ in _TEXT_FLAGS.values()}
_NUMBER_FIELDS = tuple(f.name for f in fields(Rules) if f.name not in _SKIP)
_REVEAL_ID = {"fertile": FERTILE, "long-neck": LONG_NECK, "fat-tissue": FAT_TISSUE}

# Row kinds shared by the compiled engine and the compiled bots:
# feeding options, rows of an options array [kind, s, q, d, negate]
FORGO, VEG, STORE, INTEL, ATTACK = 0, 1, 2, 3, 4
# card actions, rows of an actions array [kind, card, s, slot] (NEW: slot 0 = right end,
# 1 = left end; TRAIT: slot -1 adds, else replaces that trait slot)
NONE, NEW, TRAIT, POP, BODY = 0, 1, 2, 3, 4

RK = namedtuple("RK", _NUMBER_FIELDS + tuple(_TEXT_FLAGS)
                + ("reveal_order", "reveal_before", "kind", "cardfood", "carduid", "live_mask"))


def pack_rules(rules: Rules, cards: Cards) -> RK:
    values = {n: int(getattr(rules, n)) for n in _NUMBER_FIELDS}
    for flag, (name, value) in _TEXT_FLAGS.items():
        values[flag] = int(getattr(rules, name) == value)
    values["reveal_order"] = np.array([_REVEAL_ID[n] for n in rules.reveal_order], np.int64)
    # per entry of reveal_order: 1 if it happens before the food cards are added
    values["reveal_before"] = np.array([int(n in rules.reveal_before_food)
                                        for n in rules.reveal_order], np.int64)
    values["kind"] = np.ascontiguousarray(cards.kind, dtype=np.int64)
    values["cardfood"] = np.ascontiguousarray(cards.food, dtype=np.int64)
    values["carduid"] = np.ascontiguousarray(cards.uid, dtype=np.int64)
    # bit t set: trait t's effect is on (a knockout clears it; the bots read tmask, not this)
    values["live_mask"] = int(sum(1 << t for t, on in enumerate(cards.active) if on))
    return RK(**values)


def pack_state(st: State) -> Arr:
    for name in ARR_FIELDS:
        assert getattr(st, name).flags.c_contiguous, name
    N = st.loc.shape[1]
    return Arr(*(getattr(st, n) for n in ARR_FIELDS), np.uint64(st.seed & 0xFFFFFFFFFFFFFFFF),
               pend=np.zeros(st.S + 2, np.int64), order=np.zeros(st.P, np.int64),
               keys=np.zeros(N, np.uint64), uids=np.zeros(N, np.int64),
               keys2=np.zeros(N, np.uint64), uids2=np.zeros(N, np.int64),
               count=np.zeros(256, np.int64),
               fq=np.array([-1, 0, 0, 0], np.int64))    # the feeding's saved place (engine.feeding)


@inline
def has(a, b, p, s, t):
    """Species s of seat p in game b has trait t (its trait bitmask, kept up to date): what
    the bots see, knocked out or not."""
    return (a.tmask[b, p, s] >> t) & 1 == 1


@inline
def works(a, rk, b, p, s, t):
    """Species s of seat p in game b has trait t and its effect is on: the rules' test."""
    return ((np.int64(a.tmask[b, p, s]) & rk.live_mask) >> t) & 1 == 1


# ---------------------------------------------------------------- random streams (= simcore.rng)

# key_start(seed, game, stream), extended by key_add(h, a) per address part; below(h, n)
from ...rng_jit import add as key_add, below, key3 as key_start  # noqa: F401  (re-exported)
