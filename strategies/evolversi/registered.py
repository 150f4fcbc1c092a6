"""The Evolversi bots, registered by name (strategies.registry).

Each engine is handed the policy it calls: the batch engine the bot's batch form
(batch_bots.py), the reference engine its one-game form (reference_bots.py).
"""
from __future__ import annotations

from ..registry import register


class _Named:
    name = ""

    def batch(self, rs):
        return self.name

    def reference(self, rs, seat):
        return self.name


@register("evolversi", "greedy", doc="buys and plays the cards with the best printed value")
class Greedy(_Named):
    name = "greedy"


@register("evolversi", "random", doc="uniform among the legal options")
class Random(_Named):
    name = "random"
