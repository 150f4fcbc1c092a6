"""The Evolversi bots, registered by name (strategies.registry).

Each engine is handed the policy it calls: the batch engine the bot's batch form
(batch_policies.py, built on batch_bots.py), the reference engine its one-game form
(reference_bots.py). The interface both answer is simcore/games/evolversi/decisions.py.
"""
from __future__ import annotations

from ..registry import register
from .batch_policies import GreedyBatch, RandomBatch, ScriptBatch
from .reference_bots import GreedyBot, RandomBot, ScriptBot
from .restricted import RestrictedGreedyBatch, RestrictedGreedyBot

_GREEDY: dict = {}        # ruleset hash -> its GreedyBatch (stateless: shared by all seats)
_RANDOM = RandomBatch()


@register("evolversi", "greedy", doc="buys and plays the cards with the best printed value")
class Greedy:
    """Takes +favor:CARD / +avoid:CARD (restricted.py)."""

    restrictable = True

    def __init__(self, restriction=None):
        self.restriction = restriction

    def _rows(self, rs):
        return self.restriction.ids("evolversi", rs)      # entity ids are cards.csv rows

    def batch(self, rs):
        if self.restriction is not None:
            return RestrictedGreedyBatch(rs, self.restriction.mode, self._rows(rs))
        if rs.hash not in _GREEDY:
            _GREEDY[rs.hash] = GreedyBatch(rs)
        return _GREEDY[rs.hash]

    def reference(self, rs, seat):
        if self.restriction is not None:
            return RestrictedGreedyBot(rs, self.restriction.mode, self._rows(rs))
        return GreedyBot(rs)


@register("evolversi", "random", doc="uniform among the legal options")
class Random:
    def batch(self, rs):
        return _RANDOM

    def reference(self, rs, seat):
        return RandomBot()


@register("evolversi", "script", doc="plays the choices a scenario lists for its seat")
class Script:
    """`Bot("evolversi", "script", options=(("choices", [{"kind": ..., "option": i}, ...]),))`;
    each policy replays its own copy of the list."""

    def __init__(self, choices=()):
        self.choices = list(choices or [])

    def batch(self, rs):
        return ScriptBatch(self.choices)

    def reference(self, rs, seat):
        return ScriptBot(seat, self.choices)
