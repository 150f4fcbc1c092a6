"""Script bots with a fallback (issue 12, the rollout bot): play the scripted choices, then
the base bot once they run out, identically in both engine faces.

A search bot forces one option at a saved decision point by handing the engine a script of
one choice for its seat, with the base policy (greedy or random) for everything after it.
A plain script stops the game when it runs out; these go on as the base bot would.

Evo's plain greedy reads no script rows (only `greedy+favor/avoid` keeps its restriction in
row 0, and that bot is no fallback here), so a script-then seat's rows are its choices
alone; the search's branch still appends a forced option after whatever rows the seat's
policy packed (simcore/games/evo/branch.py).
"""
from __future__ import annotations

from simcore.games.evo.codes import ERR_SCRIPT_KIND
from simcore.games.evo.jit import kernel, policy
from simcore.games.evo.state import G_ERR, O_SCRIPT, O_SCRIPT_N, O_SPOS, R_L

from ..script import take_scripted
from .batch_bots import below
from .batch_greedy import PLAIN, decide_greedy

FALLBACKS = ("greedy", "random")      # the base bots a script can fall back to


@kernel
def scripted(g, rk, kind, seat):
    """The seat's next scripted option, -1 when the script has run out (the fallback's
    turn); a choice of the wrong kind stops the game with the engine's error."""
    pos = g[rk[O_SPOS] + seat]
    if pos >= g[rk[O_SCRIPT_N] + seat]:
        return -1
    g[rk[O_SPOS] + seat] = pos + 1
    at = rk[O_SCRIPT] + (seat * rk[R_L] + pos) * 2
    if g[at] != kind:
        g[G_ERR] = ERR_SCRIPT_KIND
        return 0
    return g[at + 1]


@policy
def script_then_greedy_policy(g, rk, kind, seat, n, h):
    c = scripted(g, rk, kind, seat)
    return c if c >= 0 else decide_greedy(g, rk, kind, seat, n, h, PLAIN, -1)


@policy
def script_then_random_policy(g, rk, kind, seat, n, h):
    c = scripted(g, rk, kind, seat)
    return c if c >= 0 else below(h, n)


class ScriptThenBot:
    """Reference face: the scripted choices (checked as a plain script's), then `then`."""

    name = "script"

    def __init__(self, seat: int, choices, then):
        self.seat = seat
        self.items = list(choices or [])
        self.then = then

    def choose(self, decision, view) -> int:
        if self.items:
            return take_scripted(self.seat, self.items, decision.kind, len(decision.options))
        return self.then.choose(decision, view)
