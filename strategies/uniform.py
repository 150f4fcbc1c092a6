"""The `random` bot's one-game face, shared by the games whose reference engines hand a bot
decisions with `options` and their address hash `h` (Capybara, Evolversi, Evo)."""
from __future__ import annotations

from simcore import rng


class RandomBot:
    """Uniform over the options, from the decision's own hash (contract section 2): the
    draw the batch engines make too (simcore/rng_jit.py's below)."""

    name = "random"

    def choose(self, decision, view) -> int:
        return int(rng.below(decision.h, len(decision.options)))
