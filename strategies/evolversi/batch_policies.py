"""The batch policies of the Evolversi bots: what the batch engine calls at each decision.

`policy.choose(q)` gets a simcore.games.evolversi.decisions.BatchDecision (the kind, the
games, the deciding seats, the legal options or mask, the state view, the decision's facts
and its BOT-stream keys) and returns one choice per game (docs/games/evolversi.md, 7).
The greedy policy is built on the functions of batch_bots.py; its card values are
per-uid tables built from values.py and its weights once per (ruleset, players).
"""
from __future__ import annotations

from ..script import take_scripted

import numpy as np

from simcore.games.evolversi.state import VERB

from . import batch_bots as bb
from . import values


def _verb_mask(*names) -> np.ndarray:
    mask = np.zeros(len(VERB), bool)
    for name in names:
        mask[VERB[name]] = True
    return mask


_TAKES_TOKENS = _verb_mask("steal_tokens", "lose_tokens")        # TARGET: the richest other
_HURTS_PAWN = _verb_mask("lose_points", "lose_fury")              # TARGET: the highest pawn
_HURTS = _verb_mask("lose_points", "lose_tokens", "lose_fury", "steal_tokens")   # IGNORE_EVENT


class RandomBatch:
    """Uniform over the legal options: below(key, n), the reference engine's same draw."""

    uses_keys = True

    def choose(self, q) -> np.ndarray:
        return q.column(bb.random_choice_keyed_h(q.keys(), q.n))

    def compiled_form(self, tb):
        """(compiled policy, its data) for phase 3 compiled whole (compiled.py); None for a
        subclass (it may decide otherwise: the numpy path plays it)."""
        if type(self) is not RandomBatch:
            return None
        from .compiled import random_policy
        return random_policy, np.zeros(1, np.int64)


class GreedyBatch:
    """The greedy bot of contract section 7 over a batch (deterministic; uses no keys)."""

    uses_keys = False

    def __init__(self, rs, weights):
        self.w = weights                                       # strategies.weights.Weights
        self.rows = values.tables(rs.tables["cards"], weights)
        self._per_uid = {}          # id(Tables) -> (Tables, {name: (n_cards+1,) int32})

    def values(self, tb) -> dict:
        """The card values per uid (uid -1, the last entry, is worth 0)."""
        cached = self._per_uid.get(id(tb))
        if cached is None or cached[0] is not tb:
            uid_rows = np.append(np.asarray(tb.comps.card_row, np.int64), -1)
            per = {k: np.array(v + [0], np.int32)[uid_rows] for k, v in self.rows.items()}
            self._per_uid[id(tb)] = cached = (tb, per)
        return cached[1]

    def choose(self, q) -> np.ndarray:
        return getattr(self, "_" + q.kind.lower())(q, self.values(q.view.tb))

    def compiled_form(self, tb):
        """(compiled policy, its data) for phase 3 compiled whole (compiled.py): the same
        choices as `choose`; None for a subclass (restricted.py, a test's variant: it may
        decide otherwise, so the numpy path plays it)."""
        if type(self) is not GreedyBatch:
            return None
        from .compiled import greedy_data, greedy_policy
        return greedy_policy, greedy_data(self.values(tb), int(self.w["cost"]))

    def _place(self, q, v):
        hand = q.info["hand"]
        return bb.greedy_place(v["above"][hand], v["below"][hand], q.shared["options"])

    def _order(self, q, v):
        return bb.greedy_constant(len(q), 0)

    def _optional(self, q, v):
        card = q.info["card"]
        is_swap = q.view.tb.verb[card] == VERB["swap_market"]
        gain = np.zeros(len(q), np.int32)
        if is_swap.any():
            pairs = q.view.pairs                                   # (K, 2) slot pairs
            market = q.view.st.market.take(q.g, axis=0)            # (G, M) uids
            valid = (market[:, pairs[:, 0]] >= 0) & (market[:, pairs[:, 1]] >= 0)
            gain = bb.best_swap_gain(v["buy"][market], pairs, valid)
        return bb.greedy_optional(is_swap, gain, v["effect"][card])

    def _target(self, q, v):
        verb, opts = q.info["verb"], q.info["options"]
        kind = np.where(_TAKES_TOKENS[verb], 0, np.where(_HURTS_PAWN[verb], 1, 2))
        st, P = q.view.st, q.view.P
        idx = (q.g * P)[:, None] + opts
        return bb.greedy_target(kind, st.tokens.reshape(-1).take(idx), st.pos.reshape(-1).take(idx))

    def _swap_market(self, q, v):
        return bb.greedy_swap_market(v["buy"][q.info["market"]], q.shared["pairs"], q.valid)

    def _buy(self, q, v):
        market, cost = q.info["market"], q.info["cost"]
        slots = np.ascontiguousarray(market.T)                     # (M, G): one row per slot
        ok = np.ascontiguousarray(q.valid[:, 1:].T)
        # the same cost in every game (a broadcast view): one number per slot
        costs = cost[0].tolist() if cost.strides[0] == 0 else list(np.ascontiguousarray(cost.T))
        return bb.greedy_buy_slots(len(q), [v["buy"][m] for m in slots], costs, list(ok), self.w["cost"])

    def _ignore_event(self, q, v):
        return bb.greedy_ignore_event(_HURTS[q.info["verb"]])

    def _totem_or_fury(self, q, v):
        return bb.greedy_totem_or_fury(q.info["holds_totem"])

    def _swap_above(self, q, v):
        return bb.greedy_swap_above(v["above"][q.info["own"]], v["above"][q.info["theirs"]], q.valid)

    def _react(self, q, v):
        return bb.greedy_constant(len(q), 1)

    def _more(self, q, v):
        return (v["effect"][q.info["card"]] > 0).astype(np.int64)


class ScriptBatch:
    """Replays a scenario's choices for one seat ({"kind", "option"} items, in order)."""

    uses_keys = False

    def __init__(self, items):
        self.items = list(items or [])

    def choose(self, q) -> np.ndarray:
        out = np.zeros(len(q), np.int64)
        for i, (seat, k) in enumerate(zip(q.seat.tolist(), q.n.tolist())):
            out[i] = take_scripted(seat, self.items, q.kind, k)
        return q.column(out)
