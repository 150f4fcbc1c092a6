"""Start a batch of the compiled engine from a saved decision point (issue 12, the search
protocol: docs/rollout.md).

`branch` loads K saved states (the K determinizations of one decision point) into flat
game arrays once, then plays options x K continuations to the end in one compiled loop:
continuation (o, k) copies state k, appends option o to the deciding seat's script as its
one choice (its bot follows its script, then its base policy: `script:then=greedy`), seeds
the engine with key k and plays to the end. Row o * K + k of the outcome is continuation
(o, k).
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from . import batch_io
from .batch_game import outcome, run
from .codes import DECISIONS, UNTIL_END
from .jit import kernel
from .rules import _outputs, _quiet, _rows, check_error, check_players, pack
from .state import O_OPTS, O_PTMP, O_SCRIPT, O_SCRIPT_N, O_SPOS, PTMP_MEMO_KEY, R_E, R_L, R_P, R_Z


@kernel
def play_branches(gs, rk, u0, pol, seat, kind, options, keys, score, dinos, win, won, misc, standing, g, u):
    """Every (option, determinization) pair to the end: row o * K + k (see the module doc);
    g and u: the scratch game and streams (compiled code allocates nothing, jit.py)."""
    K, O = gs.shape[0], options.shape[0]
    at = rk[O_SCRIPT] + seat * rk[R_L] * 2
    P = rk[R_P]
    # what a continuation reads before it writes (setup's rule, batch_phases.setup): the
    # state up to the option rows, each seat's script rows, and from the script counts to
    # the end of greedy's memo; the option rows, the unused script rows and the options'
    # scores (5/6 of g) are written before they are read, so they are not copied
    memo_end = rk[O_PTMP] + P * (PTMP_MEMO_KEY + rk[R_Z])
    for o in range(O):
        for k in range(K):
            for i in range(rk[O_OPTS]):        # (g[:] = gs[k] would allocate a copy)
                g[i] = gs[k, i]
            for s in range(P):
                row = rk[O_SCRIPT] + s * rk[R_L] * 2
                for i in range(row, row + 2 * gs[k, rk[O_SCRIPT_N] + s]):
                    g[i] = gs[k, i]
            for i in range(rk[O_SCRIPT_N], memo_end):
                g[i] = gs[k, i]
            # the forced option goes after the rows the seat's policy packed
            n0 = g[rk[O_SCRIPT_N] + seat]
            g[at + n0 * 2] = kind
            g[at + n0 * 2 + 1] = options[o]
            g[rk[O_SCRIPT_N] + seat] = n0 + 1
            g[rk[O_SPOS] + seat] = 0
            for i in range(u.shape[0]):
                u[i] = u0[i]
            u[0] = keys[k]
            run(g, rk, u, pol, UNTIL_END)
            outcome(g, rk, o * K + k, score, dinos, win, won, misc, standing)


def branch(rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
    """Outcomes (the batch engine's dict, B = len(options) * len(states)) of playing each
    option of decision `kind` of `seat` from each state, continuation k seeded by keys[k]."""
    if kind not in DECISIONS:
        raise UserError(f"unknown decision kind {kind!r}; kinds: {', '.join(DECISIONS)}", key="kinds")
    players = batch_io.players_of(states[0])
    policies = [b.batch_policy(rs) for b in bots]
    check_players(rs, players, policies)
    pk, pol = pack(rs, players, policies, seed, max(batch_io.rounds_needed(st) for st in states))
    g0 = pk.g.copy()
    gs = np.zeros((len(states), len(g0)), np.int64)
    for k, st in enumerate(states):
        batch_io.load(rs, pk, st, game)    # clears all of g but the scripts, which stay g0's
        gs[k] = pk.g
    options = np.asarray(options, np.int64)
    B = len(options) * len(states)
    score, dinos, win, won, misc, _ = _outputs(B, players, int(pk.rk[R_E]), 0)
    with _quiet():
        play_branches(gs, pk.rk, pk.u, pol, seat, DECISIONS.index(kind), options,
                      np.asarray(keys, np.uint64), score, dinos, win, won, misc, np.zeros((B, 0, players), np.int64),
                      g0.copy(), pk.u.copy())
    for b in np.flatnonzero(misc[:, 8]):
        check_error(int(misc[b, 8]), game)
    return _rows(score, dinos, win, won, misc, None, False)
