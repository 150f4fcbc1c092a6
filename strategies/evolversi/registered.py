"""The Evolversi bots, registered by name (strategies.registry).

Each engine is handed the policy it calls: the batch engine the bot's batch form
(batch_policies.py, built on batch_bots.py), the reference engine its one-game form
(reference_bots.py). The interface both answer is simcore/games/evolversi/decisions.py.
"""
from __future__ import annotations

from simcore.errors import UserError

from ..registry import register
from ..weights import Weighted
from .batch_policies import GreedyBatch, RandomBatch, ScriptBatch
from ..script import ScriptBot
from ..uniform import RandomBot
from .reference_bots import GreedyBot
from .restricted import RestrictedGreedyBatch, RestrictedGreedyBot

_GREEDY: dict = {}        # (ruleset hash, weights) -> its GreedyBatch (stateless: shared by all seats)
_RANDOM = RandomBatch()


@register("evolversi", "greedy", doc="buys and plays the cards with the best printed value")
class Greedy(Weighted):
    """Takes `weights=FILE` (strategies/evolversi/weights/, default.toml by default) and
    +favor:CARD / +avoid:CARD (restricted.py)."""

    game = "evolversi"

    def _rows(self, rs):
        return self.restriction.ids("evolversi", rs)      # entity ids are cards.csv rows

    def batch(self, rs):
        w = self._weights()
        if self.restriction is not None:
            return RestrictedGreedyBatch(rs, self.restriction.mode, self._rows(rs), w)
        key = (rs.hash, w.values)
        if key not in _GREEDY:
            _GREEDY[key] = GreedyBatch(rs, w)
        return _GREEDY[key]

    def reference(self, rs, seat):
        w = self._weights()
        if self.restriction is not None:
            return RestrictedGreedyBot(rs, self.restriction.mode, self._rows(rs), w)
        return GreedyBot(rs, w)


@register("evolversi", "trained", doc="greedy with the weights `balancelab train` fitted (weights/trained.toml)")
class Trained(Greedy):
    """Greedy with strategies/evolversi/weights/trained.toml (its provenance inside; measured
    against greedy in docs/ladder.md, "Trained weights")."""

    default_weights = "trained.toml"


@register("evolversi", "random", doc="uniform among the legal options")
class Random:
    def batch(self, rs):
        return _RANDOM

    def reference(self, rs, seat):
        return RandomBot()


@register("evolversi", "script", doc="plays the choices a scenario lists for its seat")
class Script:
    """`Bot("evolversi", "script", options=(("choices", [{"kind": ..., "option": i}, ...]),))`;
    each policy replays its own copy of the list. `then="greedy"` or `"random"`: that bot
    plays on once the choices run out (script_then.py) instead of the game stopping."""

    def __init__(self, choices=(), then=""):
        from .script_then import FALLBACKS
        self.choices = list(choices or [])
        if then not in ("",) + FALLBACKS:
            raise UserError(f"a script falls back to one of {', '.join(FALLBACKS)}, got then={then!r}",
                            key="bots")
        self.then = then

    def batch(self, rs):
        if self.then:
            from .script_then import ScriptThenBatch
            return ScriptThenBatch(self.choices, _BASES[self.then]().batch(rs))
        return ScriptBatch(self.choices)

    def reference(self, rs, seat):
        if self.then:
            from ..script import ScriptThenBot
            return ScriptThenBot(seat, self.choices, _BASES[self.then]().reference(rs, seat))
        return ScriptBot(seat, self.choices)


_BASES = {"greedy": Greedy, "random": Random}      # script_then.FALLBACKS
