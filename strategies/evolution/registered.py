"""The Evolution bots, registered by name (strategies.registry)."""
from __future__ import annotations

from ..registry import register
from .greedy import Greedy as _Greedy
from .random_bot import RandomBot as _Random
from .silly import Silly as _Silly


class _Both:
    impl = None

    def batch(self, rs):
        return self.impl()

    def reference(self, rs, seat):
        return self.impl()


@register("evolution", "greedy", doc="feeds the hungriest species, plays the traits it scores highest")
class Greedy(_Both):
    impl = _Greedy


@register("evolution", "random", doc="uniform among the legal options")
class Random(_Both):
    impl = _Random


@register("evolution", "silly", doc="the cs4500 course's fixed-order player")
class Silly(_Both):
    impl = _Silly
