"""Restricted play for Evolversi's greedy: `greedy+favor:CARD`, `greedy+avoid:CARD`.

The decisions that hit a card design (strategies/restrict.py's rule):
- BUY: buying a market card of that design (acquiring it; the tallies count purchases);
- OPTIONAL and MORE: activating that design's effect (option 1) when one of its cards is played.
Both forms subclass the plain greedy and change only those decisions.
"""
from __future__ import annotations

import numpy as np

from ..restrict import allowed, allowed_mask, best_allowed
from . import batch_bots as bb
from .batch_policies import GreedyBatch
from .reference_bots import GreedyBot


def _activate(base: np.ndarray, hit: np.ndarray, mode: str) -> np.ndarray:
    """OPTIONAL / MORE (options 0 = no, 1 = activate): a hit design's effect is activated
    (favor) or not (avoid); option 0 never hits, so the rule leaves no other choice."""
    return np.where(hit, 1 if mode == "favor" else 0, base).astype(np.int64)


class RestrictedGreedyBatch(GreedyBatch):
    """The batch greedy with one design favoured or avoided (`rows`: its cards.csv rows)."""

    def __init__(self, rs, mode: str, rows, weights):
        super().__init__(rs, weights)
        self.mode, self.entity_rows = mode, np.asarray(list(rows), np.int64)
        self._hits = {}            # id(Tables) -> (Tables, (n_cards + 1,) bool per uid, uid -1 last)

    def hits(self, tb) -> np.ndarray:
        cached = self._hits.get(id(tb))
        if cached is None or cached[0] is not tb:
            uid_rows = np.append(np.asarray(tb.comps.card_row, np.int64), -1)
            self._hits[id(tb)] = cached = (tb, np.isin(uid_rows, self.entity_rows))
        return cached[1]

    def _buy(self, q, v):
        market = q.info["market"]                                   # (G, M) uids, -1 empty
        uses = np.zeros(q.valid.shape, bool)
        uses[:, 1:] = self.hits(q.view.tb)[market]
        ok = allowed_mask(q.valid, uses, self.mode)
        cost = np.broadcast_to(q.info["cost"], market.shape)
        return bb.greedy_buy(v["buy"][market], cost, ok, self.w["cost"])

    def _optional(self, q, v):
        return _activate(super()._optional(q, v), self.hits(q.view.tb)[q.info["card"]], self.mode)

    def _more(self, q, v):
        return _activate(super()._more(q, v), self.hits(q.view.tb)[q.info["card"]], self.mode)


class RestrictedGreedyBot(GreedyBot):
    """The reference greedy with one design favoured or avoided: the same choices."""

    def __init__(self, rs, mode: str, rows, weights=None):
        super().__init__(rs, weights)
        self.mode, self.entity_rows = mode, set(rows)

    def _hit(self, view, uid) -> bool:
        return uid is not None and view.row(uid) in self.entity_rows

    def _buy(self, d, view):
        scores = [0 if slot is None else
                  self.buy[view.row(view.market[slot])] - self.w["cost"] * view.purchase_cost(slot)
                  for slot in d.options]
        uses = [slot is not None and self._hit(view, view.market[slot]) for slot in d.options]
        return best_allowed(scores, allowed(uses, self.mode))

    def _restricted(self, d, view, base: int) -> int:
        if not self._hit(view, d.info["card"]):
            return base
        return d.options.index(1 if self.mode == "favor" else 0)

    def _optional(self, d, view):
        return self._restricted(d, view, super()._optional(d, view))

    def _more(self, d, view):
        return self._restricted(d, view, super()._more(d, view))
