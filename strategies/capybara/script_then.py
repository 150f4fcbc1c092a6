"""Script bots with a fallback (the rollout bot): play the scripted choices, then
the base bot once they run out, identically in both engine faces.

A search bot forces one option at a saved decision point by handing the engine a script of
one choice for its seat, with the base policy (greedy or random) for everything after it.
A plain script stops the game when it runs out; these go on as the base bot would.
"""
from __future__ import annotations

from simcore.games.capybara.codes import ERR_SCRIPT_KIND
from simcore.games.capybara.jit import kernel, policy
from simcore.games.capybara.state import G_ERR, O_SCRIPT, O_SCRIPT_N, O_SPOS, R_L

from .batch_bots import below
from .batch_greedy import N_WEIGHTS, PLAIN, decide_greedy

FALLBACKS = ("greedy", "trained", "random")   # the base bots a script can fall back to
WEIGHTED = ("greedy", "trained")      # greedy's kernel, each with its registered bot's weights


# The greedy fallback reads its [mode, ent] and weights from the seat's first script rows
# (batch_greedy.greedy_policy): a script-then-greedy seat's rows are those HEAD rows, then
# its choices.
GREEDY_HEAD = 1 + (N_WEIGHTS + 1) // 2


@kernel
def scripted(g, rk, kind, seat, head):
    """The seat's next scripted option (its rows after the first `head`), -1 when the script
    has run out (the fallback's turn); a choice of the wrong kind stops the game with the
    engine's error."""
    pos = g[rk[O_SPOS] + seat]
    if pos + head >= g[rk[O_SCRIPT_N] + seat]:
        return -1
    g[rk[O_SPOS] + seat] = pos + 1
    at = rk[O_SCRIPT] + (seat * rk[R_L] + head + pos) * 2
    if g[at] != kind:
        g[G_ERR] = ERR_SCRIPT_KIND
        return 0
    return g[at + 1]


@policy
def script_then_greedy_policy(g, rk, kind, seat, n, h):
    c = scripted(g, rk, kind, seat, GREEDY_HEAD)
    return c if c >= 0 else decide_greedy(g, rk, kind, seat, n, PLAIN, -1)


script_then_trained_policy = script_then_greedy_policy   # its weights come in the head rows


@policy
def script_then_random_policy(g, rk, kind, seat, n, h):
    c = scripted(g, rk, kind, seat, 0)
    return c if c >= 0 else below(h, n)
