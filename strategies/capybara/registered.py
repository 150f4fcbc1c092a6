"""The capybara bots, registered by name (strategies.registry).

The batch engine receives each seat's compiled policy (batch_bots.py, batch_greedy.py:
simcore/games/capybara/decisions.py's interface); the reference engine each seat's
one-game policy (reference_bots.py, written with the reference engine).
"""
from __future__ import annotations

from simcore.games.capybara.codes import DECISIONS
from simcore.errors import UserError

from ..registry import register


class BatchPolicy:
    """What the batch engine takes per seat: `decide` (a compiled C-callable policy) and,
    for a script, its [kind code, option] rows."""

    def __init__(self, decide, script=None):
        self.decide = decide
        self.script = script


def _reference(name, rs, seat, **options):
    from .reference_bots import reference_policy
    return reference_policy(name, rs, seat, **options)


@register("capybara", "greedy", doc="takes the option that leaves it the least fatigue (contract 13)")
class Greedy:
    """Takes +favor:CARD / +avoid:CARD (restricted.py)."""

    restrictable = True

    def __init__(self, restriction=None):
        self.restriction = restriction

    def _data(self, rs):
        from .restricted import MODES
        return MODES[self.restriction.mode], self.restriction.index("capybara", rs)

    def batch(self, rs):
        if self.restriction is not None:
            from .batch_greedy import restricted_greedy_policy
            return BatchPolicy(restricted_greedy_policy, [self._data(rs)])    # data: script row 0
        from .batch_greedy import greedy_policy
        return BatchPolicy(greedy_policy)

    def reference(self, rs, seat):
        if self.restriction is not None:
            from .restricted import RestrictedGreedyBot
            return RestrictedGreedyBot(rs, self.restriction.mode, self._data(rs)[1])
        return _reference("greedy", rs, seat)


@register("capybara", "random", doc="uniform among the legal options")
class Random:
    def batch(self, rs):
        from .batch_bots import random_policy
        return BatchPolicy(random_policy)

    def reference(self, rs, seat):
        return _reference("random", rs, seat)


@register("capybara", "script", doc="plays the choices a scenario lists for its seat")
class Script:
    """`Bot("capybara", "script", options=(("choices", [{"kind": ..., "option": i}, ...]),))`;
    `then="greedy"` or `"random"`: that bot plays on once the choices run out (script_then.py)
    instead of the game stopping."""

    def __init__(self, choices=(), then=""):
        from .script_then import FALLBACKS
        self.choices = list(choices or [])
        if then not in ("",) + FALLBACKS:
            raise UserError(f"a script falls back to one of {', '.join(FALLBACKS)}, got then={then!r}",
                            key="bots")
        self.then = then

    def batch(self, rs):
        from .batch_bots import script_policy
        rows = []
        for k, c in enumerate(self.choices):
            kind = c.get("kind") if isinstance(c, dict) else None
            if kind not in DECISIONS or not isinstance(c.get("option"), int):
                raise UserError(f"choice {k}: expected {{\"kind\": one of {', '.join(DECISIONS)}, "
                                f"\"option\": int}}, got {c!r}", key="choices")
            rows.append((DECISIONS.index(kind), c["option"]))
        if self.then:
            from . import script_then
            return BatchPolicy(getattr(script_then, f"script_then_{self.then}_policy"), rows)
        return BatchPolicy(script_policy, rows)

    def reference(self, rs, seat):
        if self.then:
            from .script_then import ScriptThenBot
            return ScriptThenBot(seat, self.choices, _reference(self.then, rs, seat))
        return _reference("script", rs, seat, choices=self.choices)
