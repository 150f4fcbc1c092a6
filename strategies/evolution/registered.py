"""The Evolution bots, registered by name (strategies.registry).

Each hands the reference engine its Python form and the compiled batch engine its
compiled form (a simcore.games.evolution.decisions.Policy, compiled.py); both make the same
decisions (tests/evolution/test_compiled_bots.py).
"""
from __future__ import annotations

from ..registry import register
from ..weights import Weighted
from . import compiled, restricted
from .greedy import Greedy as _Greedy
from .random_bot import RandomBot as _Random
from .silly import Silly as _Silly


class _Both:
    impl = None
    policy = None

    def batch(self, rs):
        return self.policy

    def reference(self, rs, seat):
        return self.impl()


@register("evolution", "greedy", doc="feeds the hungriest species, plays the traits it scores highest")
class Greedy(Weighted, _Both):
    """Takes `weights=FILE` (strategies/evolution/weights/, default.toml by default) and
    +favor:TRAIT / +avoid:TRAIT (restricted.py)."""

    impl = _Greedy
    game = "evolution"

    def batch(self, rs):
        if self.restriction is None:
            return compiled.greedy_policy(self._weights())
        return restricted.batch_policy(self.restriction, rs, self._weights())

    def reference(self, rs, seat):
        if self.restriction is None:
            return self.impl(weights=self._weights())
        return restricted.reference_policy(self.restriction, rs, self._weights())


@register("evolution", "trained", doc="greedy with the weights `balancelab train` fitted (weights/trained.toml)")
class Trained(Greedy):
    """Greedy with strategies/evolution/weights/trained.toml (its provenance inside; measured
    against greedy in docs/ladder.md, "Trained weights")."""

    default_weights = "trained.toml"


@register("evolution", "random", doc="uniform among the legal options")
class Random(_Both):
    impl, policy = _Random, compiled.RANDOM


@register("evolution", "silly", doc="the cs4500 course's fixed-order player")
class Silly(_Both):
    impl, policy = _Silly, compiled.SILLY
