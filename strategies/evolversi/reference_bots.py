"""Scalar Evolversi bots for the reference engine (docs/games/evolversi.md, section 7).

A bot answers one decision at a time: `choose(decision, view) -> option index`.
`decision` carries the kind, the option list (in the contract's order), the seat, extra
facts about the choice (`info`) and the decision hash `h` (computed only when asked, so a
greedy game never pays for it). `view` is the reference Game, read only.

- `random`: below(h, number of options), the same draw the batch engine makes.
- `greedy`: static card values (values.py, from its weights) and a few live facts;
  ties go to the lowest option index.
- `script`: replays a list of {"kind", "option"} items (scenarios and tests).
"""
from __future__ import annotations

from . import values

KINDS = ("PLACE", "ORDER", "OPTIONAL", "TARGET", "SWAP_MARKET", "BUY", "IGNORE_EVENT",
         "TOTEM_OR_FURY", "SWAP_ABOVE", "REACT")

# Verbs that hurt whoever they touch: the greedy bot aims them and ignores them as Events.
TOKEN_HARM = ("steal_tokens", "lose_tokens")
PAWN_HARM = ("lose_points", "lose_fury")
IGNORED_EVENT_VERBS = ("lose_points", "lose_tokens", "lose_fury", "steal_tokens")

_VALUE_CACHE: dict[tuple, dict[str, list[int]]] = {}


def card_values(rs, weights) -> dict[str, list[int]]:
    """values.tables over the ruleset's card rows, built once per ruleset content and weights."""
    key = (rs.hash, weights.values)
    if key not in _VALUE_CACHE:
        _VALUE_CACHE[key] = values.tables(rs.tables["cards"], weights)
    return _VALUE_CACHE[key]


def _argmax(scores) -> int:
    """Index of the highest score; the lowest index among equals."""
    best = 0
    for i, s in enumerate(scores):
        if s > scores[best]:
            best = i
    return best


class GreedyBot:
    """Deterministic one-step greedy player (contract section 7)."""

    name = "greedy"

    def __init__(self, rs, weights=None):
        from ..weights import load
        self.w = weights if weights is not None else load("evolversi")
        v = card_values(rs, self.w)
        self.above, self.below, self.buy, self.effect = v["above"], v["below"], v["buy"], v["effect"]
        self.cards = rs.tables["cards"]

    def choose(self, decision, view) -> int:
        return getattr(self, "_" + decision.kind.lower())(decision, view)

    # -- one method per decision kind --------------------------------------------------
    def _place(self, d, view):
        hand = [view.row(u) for u in view.seats[d.seat].hand]
        def score(above_positions):
            return sum(self.above[r] if i in above_positions else self.below[r]
                       for i, r in enumerate(hand))
        return _argmax([score(set(opt)) for opt in d.options])

    def _order(self, d, view):
        return 0

    def _optional(self, d, view):
        row = view.row(d.info["card"])
        if self.cards[row]["effect"] == "swap_market":
            gain = self.best_swap_gain(view)
            wanted = gain is not None and gain > 0
        else:
            wanted = self.effect[row] > 0
        return d.options.index(1 if wanted else 0)

    def _target(self, d, view):
        verb = d.info["verb"]
        if verb in TOKEN_HARM:
            scores = [view.seats[t].tokens for t in d.options]
        elif verb in PAWN_HARM:
            scores = [view.seats[t].position for t in d.options]
        else:  # a gain shared with (or given to) the other: help the one furthest behind
            scores = [-view.seats[t].position for t in d.options]
        return _argmax(scores)

    def _swap_gain(self, view, pair) -> int:
        i, j = pair
        return self.buy[view.row(view.market[j])] - self.buy[view.row(view.market[i])]

    def best_swap_gain(self, view) -> int | None:
        """The best gain of a market swap, None when fewer than 2 slots are occupied."""
        return max((self._swap_gain(view, p) for p in view.market_pairs()), default=None)

    def _swap_market(self, d, view):
        return _argmax([self._swap_gain(view, p) for p in d.options])

    def _buy(self, d, view):
        scores = [0 if slot is None else
                  self.buy[view.row(view.market[slot])] - self.w["cost"] * view.purchase_cost(slot)
                  for slot in d.options]
        return _argmax(scores)

    def _ignore_event(self, d, view):
        return d.options.index(1 if d.info["verb"] in IGNORED_EVENT_VERBS else 0)

    def _totem_or_fury(self, d, view):
        return d.options.index(1 if view.totem == d.seat else 0)

    def _swap_above(self, d, view):
        own = view.seats[d.seat].above
        return _argmax([self.above[view.row(view.seats[other].above[j])] - self.above[view.row(own[i])]
                        for i, other, j in d.options])

    def _react(self, d, view):
        return d.options.index(1)

    def _more(self, d, view):
        return d.options.index(1 if self.effect[view.row(d.info["card"])] > 0 else 0)


