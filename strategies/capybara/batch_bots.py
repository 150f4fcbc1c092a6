"""Compiled (batch) forms of the capybara bots random and script: C-callable policies of
simcore/games/capybara/decisions.py's interface, handed to the batch engine per seat.
Greedy's compiled form is batch_greedy.py."""
from __future__ import annotations

from simcore.games.capybara.codes import ERR_SCRIPT_EMPTY, ERR_SCRIPT_KIND
from simcore.games.capybara.jit import policy
from simcore.games.capybara.state import G_ERR, O_SCRIPT, O_SCRIPT_N, O_SPOS, R_L
from simcore.rng_jit import below


@policy
def random_policy(g, rk, kind, seat, n, h):
    return below(h, n)


@policy
def script_policy(g, rk, kind, seat, n, h):
    """The seat's next scripted choice ([kind, option] rows at O_SCRIPT); a missing or
    mismatched choice stops the game with an error the engine reports."""
    pos = g[rk[O_SPOS] + seat]
    if pos >= g[rk[O_SCRIPT_N] + seat]:
        g[G_ERR] = ERR_SCRIPT_EMPTY
        return 0
    g[rk[O_SPOS] + seat] = pos + 1
    at = rk[O_SCRIPT] + (seat * rk[R_L] + pos) * 2
    if g[at] != kind:
        g[G_ERR] = ERR_SCRIPT_KIND
        return 0
    return g[at + 1]
