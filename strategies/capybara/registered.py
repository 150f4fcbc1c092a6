"""The capybara bots, registered by name (strategies.registry).

The batch engine receives each seat's compiled policy (batch_bots.py, batch_greedy.py:
simcore/games/capybara/decisions.py's interface); the reference engine each seat's
one-game policy (reference_bots.py, written with the reference engine).
"""
from __future__ import annotations

from simcore.games.capybara.codes import DECISIONS
from simcore.errors import UserError

from ..registry import register
from ..weights import Weighted


class BatchPolicy:
    """What the batch engine takes per seat: `decide` (a compiled C-callable policy) and,
    for a script, its [kind code, option] rows."""

    def __init__(self, decide, script=None):
        self.decide = decide
        self.script = script


def _reference(name, rs, seat, **options):
    from .reference_bots import reference_policy
    return reference_policy(name, rs, seat, **options)


def greedy_script(weights, mode: int = 0, ent: int = -1) -> list:
    """The greedy's script rows (batch_greedy.greedy_policy reads them): [mode, ent], then
    the weights two to a row, in default.toml's order."""
    w = [int(x) for x in weights.ints()]
    w += [0] * (len(w) % 2)
    return [(mode, ent)] + [(w[i], w[i + 1]) for i in range(0, len(w), 2)]


@register("capybara", "greedy", doc="takes the option that leaves it the least fatigue (contract 13)")
class Greedy(Weighted):
    """Takes `weights=FILE` (strategies/capybara/weights/, default.toml by default) and
    +favor:CARD / +avoid:CARD (restricted.py)."""

    game = "capybara"

    def _data(self, rs):
        from .restricted import MODES
        return MODES[self.restriction.mode], self.restriction.index("capybara", rs)

    def batch(self, rs):
        from .batch_greedy import greedy_policy
        mode, ent = self._data(rs) if self.restriction is not None else (0, -1)
        return BatchPolicy(greedy_policy, greedy_script(self._weights(), mode, ent))

    def reference(self, rs, seat):
        if self.restriction is not None:
            from .restricted import RestrictedGreedyBot
            return RestrictedGreedyBot(rs, self.restriction.mode, self._data(rs)[1], self._weights())
        from .reference_bots import GreedyBot
        return GreedyBot(rs, self._weights())


@register("capybara", "trained", doc="greedy with the weights `balancelab train` fitted (weights/trained.toml)")
class Trained(Greedy):
    """Greedy with strategies/capybara/weights/trained.toml (its provenance inside; measured
    against greedy in docs/ladder.md, "Trained weights")."""

    default_weights = "trained.toml"


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
    `then="greedy"`, `"trained"` or `"random"`: that bot plays on once the choices run out (script_then.py)
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
            return BatchPolicy(getattr(script_then, f"script_then_{self.then}_policy"),
                               script_rows(self.then, rows))
        return BatchPolicy(script_policy, rows)

    def reference(self, rs, seat):
        if self.then:
            from ..script import ScriptThenBot
            from .script_then import WEIGHTED
            then = fallback_bot(self.then).reference(rs, seat) if self.then in WEIGHTED else \
                _reference(self.then, rs, seat)
            return ScriptThenBot(seat, self.choices, then)
        return _reference("script", rs, seat, choices=self.choices)


def script_rows(then: str, rows: list) -> list:
    """The batch face's script rows of a script falling back to `then`: a greedy-kernel bot's
    own rows (the registered bot's weights: greedy's default.toml, trained's trained.toml, as
    the reference face's) before the choices."""
    from .script_then import GREEDY_HEAD, WEIGHTED
    if then not in WEIGHTED:
        return rows
    head = greedy_script(fallback_bot(then)._weights())
    assert len(head) == GREEDY_HEAD, "greedy's script rows changed size: update GREEDY_HEAD"
    return head + rows


def fallback_bot(then: str):
    """The registered greedy-kernel bot (greedy or trained) a script falls back to."""
    return {"greedy": Greedy, "trained": Trained}[then]()
