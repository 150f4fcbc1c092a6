"""Compiled (batch) forms of the evo bots: C-callable policies of
simcore/games/evo/decisions.py's interface, handed to the batch engine per seat.
`registered.batch_policy(name, rs, **options)` picks one for a registered bot's `batch(rs)`;
greedy's compiled form is batch_greedy.py."""
from __future__ import annotations

import numpy as np

from simcore.errors import UserError
from simcore.games.evo.codes import DECISIONS, ERR_SCRIPT_EMPTY, ERR_SCRIPT_KIND
from simcore.games.evo.jit import kernel, policy
from simcore.games.evo.state import G_ERR, O_SCRIPT, O_SCRIPT_N, O_SPOS, R_L


class BatchPolicy:
    """What the batch engine takes per seat: `decide` (a compiled C-callable policy) and,
    for a script, its [kind code, option] rows."""

    def __init__(self, decide, script=None):
        self.decide = decide
        self.script = script


@kernel
def below(h, n):
    """An integer uniform in [0, n) from hash h, as simcore.rng.below."""
    return np.int64(((h >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


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


def _script_rows(choices) -> list[tuple[int, int]]:
    rows = []
    for k, c in enumerate(choices or ()):
        kind = c.get("kind") if isinstance(c, dict) else None
        option = c.get("option") if isinstance(c, dict) else None
        if kind not in DECISIONS or not isinstance(option, int) or isinstance(option, bool) or option < 0:
            raise UserError(f"choice {k}: expected {{\"kind\": one of {', '.join(DECISIONS)}, "
                            f"\"option\": int >= 0}}, got {c!r}", key="choices")
        rows.append((DECISIONS.index(kind), option))
    return rows
