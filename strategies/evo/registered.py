"""The Evo bots, registered by name (strategies.registry).

The batch engine receives each seat's policy from batch_bots.py (written with the batch
engine: imported only when a batch policy is asked for); the reference engine each seat's
one-game policy from reference_bots.py. Both forms of a bot make the same choice at every
decision (docs/games/evo.md section 13).
"""
from __future__ import annotations

from simcore.errors import UserError

from ..registry import register
from ..weights import Weighted


def _reference(name, rs, seat, **options):
    from .reference_bots import reference_policy
    return reference_policy(name, rs, seat, **options)


def _batch(name, rs, **options):
    return batch_policy(name, rs, **options)


def greedy_script(weights, mode: int = 0, ent: int = -1) -> list:
    """The greedy's script rows (batch_greedy.greedy_policy reads them): [mode, ent], then
    the weights two to a row, in default.toml's order (batch_greedy.WEIGHT_NAMES)."""
    from .batch_greedy import WEIGHT_NAMES
    assert weights.names == WEIGHT_NAMES, "weights/default.toml and batch_greedy.WEIGHT_NAMES differ"
    w = [int(x) for x in weights.ints()]
    w += [0] * (len(w) % 2)
    return [(mode, ent)] + [(w[i], w[i + 1]) for i in range(0, len(w), 2)]


@register("evo", "greedy", doc="one-step greedy on safe terrain, kills and gene worth (contract 13)")
class Greedy(Weighted):
    """Takes `weights=FILE` (strategies/evo/weights/, default.toml by default) and
    +favor:GENE / +avoid:GENE (restricted.py: bids on the gene's column)."""

    game = "evo"

    def _data(self, rs):
        from .restricted import MODES
        return MODES[self.restriction.mode], self.restriction.index("evo", rs)

    def batch(self, rs):
        from .batch_bots import BatchPolicy
        from .batch_greedy import PLAIN, greedy_policy
        mode, ent = self._data(rs) if self.restriction is not None else (PLAIN, -1)
        return BatchPolicy(greedy_policy, greedy_script(self._weights(), mode, ent))

    def reference(self, rs, seat):
        if self.restriction is not None:
            from .restricted import RestrictedGreedyBot
            return RestrictedGreedyBot(rs, seat, self.restriction.mode, self._data(rs)[1], self._weights())
        from .reference_bots import GreedyBot
        return GreedyBot(rs, seat, self._weights())


@register("evo", "random", doc="uniform among the legal options")
class Random:
    def batch(self, rs):
        return _batch("random", rs)

    def reference(self, rs, seat):
        return _reference("random", rs, seat)


@register("evo", "script", doc="plays the choices a scenario lists for its seat")
class Script:
    """`Bot("evo", "script", options=(("choices", [{"kind": ..., "option": i}, ...]),))`;
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
        if self.then:
            from . import script_then
            from .batch_bots import BatchPolicy, _script_rows
            return BatchPolicy(getattr(script_then, f"script_then_{self.then}_policy"),
                               script_then_rows(self.then, _script_rows(self.choices)))
        return _batch("script", rs, choices=self.choices)

    def reference(self, rs, seat):
        if self.then:
            from ..script import ScriptThenBot
            return ScriptThenBot(seat, self.choices, _reference(self.then, rs, seat))
        return _reference("script", rs, seat, choices=self.choices)


def batch_policy(name: str, rs, **options):
    """The compiled policy of bot `name` ("random", "greedy", "script" with `choices`)."""
    from .batch_bots import BatchPolicy, _script_rows, random_policy, script_policy
    if name == "random":
        return BatchPolicy(random_policy)
    if name == "greedy":            # the default weights (registered.Greedy takes a file)
        from ..weights import load
        from .batch_greedy import greedy_policy
        return BatchPolicy(greedy_policy, greedy_script(load("evo")))
    if name == "script":
        return BatchPolicy(script_policy, _script_rows(options.get("choices")))
    raise UserError(f"unknown evo bot {name!r}; batch bots: random, greedy, script", key="bots")


def script_then_rows(then: str, rows: list) -> list:
    """The batch face's script rows of a script falling back to `then`: greedy's own rows
    (its default weights, as the reference face's greedy) before the choices."""
    if then != "greedy":
        return rows
    from ..weights import load
    from .script_then import GREEDY_HEAD
    head = greedy_script(load("evo", None))
    assert len(head) == GREEDY_HEAD, "greedy's script rows changed size: update GREEDY_HEAD"
    return head + rows
