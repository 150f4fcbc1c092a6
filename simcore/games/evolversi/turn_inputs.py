"""What phase 3's compiled code (turn.py) and the compiled rounds (rounds.py) are handed,
made on the Python side: the state's arrays as a named tuple (`turn_arrays`), the card and
token tables (`turn_tables`), the rule numbers as one int64 array (`constants`, indexed by
the C_* names) and the scratch (`scratch`)."""
from __future__ import annotations

from collections import namedtuple
from dataclasses import fields

import numpy as np

from .state import State

Arrays = namedtuple("Arrays", [f.name for f in fields(State)])
Tables = namedtuple("Tables", ["strength", "tokens", "fury", "verb", "amount", "more", "target", "cond",
                               "optional", "discard_sym", "trigger", "own_fx", "row", "active", "ev_verb",
                               "ev_amount", "ev_target", "ev_cond", "ev_active", "ev_ident", "reserve",
                               "pressure_kind", "pressure_fury", "pressure_active", "perms", "costs",
                               "family", "per_target"])
# the rule numbers phase 3 reads (rs names), and the engine's own constants, as one int64 array
C_L, C_FURY_MOD, C_OVERFLOW, C_FOURTH, C_PPT, C_AFTER_OWN, C_TO_COMMON, C_KNOCKOUTS, C_REACTIONS, C_RND, \
    C_ORDER_KNOWN, C_SEED, C_KEYS = range(13)
N_CONST = 13                     # rounds.py's constants follow these


def turn_arrays(st) -> Arrays:
    return Arrays(*(getattr(st, f) for f in Arrays._fields))


def turn_tables(run, family, per_target) -> Tables:
    tb, H = run.tb, run.H
    perms = np.zeros((H + 1, max(len(p) for p in tb.perms), max(H, 1)), np.int8)
    for n, p in enumerate(tb.perms):
        perms[n, :len(p), :n] = p
    return Tables(tb.strength, tb.tokens, tb.fury, tb.verb, tb.amount, tb.more, tb.target, tb.cond,
                  tb.optional, tb.discard_sym, tb.trigger, tb.own_fx, tb.row, tb.active, tb.ev_verb,
                  tb.ev_amount, tb.ev_target, tb.ev_cond, tb.ev_active, tb.ev_ident, tb.reserve,
                  tb.pressure_kind, tb.pressure_fury, tb.pressure_active, perms,
                  run.costs.astype(np.int64), family, per_target)


def constants(run) -> np.ndarray:
    rs = run.rs
    c = np.zeros(N_CONST, np.int64)
    c[C_L], c[C_FURY_MOD], c[C_OVERFLOW] = run.L, run.fury_mod, rs["fury_overflow_points"]
    c[C_FOURTH], c[C_PPT] = rs["fourth_card_space"], rs["pressure_per_turn"]
    c[C_AFTER_OWN] = int(bool(rs["reactions_after_own_turn"]))
    c[C_TO_COMMON] = int(rs["discard_symbol_to"] == "common")
    c[C_KNOCKOUTS], c[C_REACTIONS] = int(run.tb.knockouts), int(run.tb.has_reactions)
    c[C_RND], c[C_ORDER_KNOWN] = run.rnd, int(run.order_known)
    c[C_SEED] = np.int64(np.uint64(run.seed_u64).view(np.int64))
    c[C_KEYS] = int(any(getattr(p, "uses_keys", True) for p in run.policies))
    return c


def scratch(run, Q: int):
    """(keys, E, T, q, opt): shuffle keys, effect cards, targets, the decision frame and each
    frame option's payload (a slot, pair or column)."""
    st = run.st
    n_keys = max(st.deck.shape[2] + st.discard.shape[2], st.common.shape[1], st.event_deck.shape[1], 1)
    return (np.empty(n_keys, np.uint64), np.empty(run.H + 1, np.int64), np.empty(run.P, np.int64),
            np.zeros(Q, np.int64), np.zeros(Q, np.int64))
