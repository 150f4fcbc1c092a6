"""Start a batch of the compiled engine from a saved decision point (the search
protocol: docs/rollout.md).

`branch` loads K saved states (the K determinizations of one decision point) into flat
game arrays once, then plays options x K continuations to the end in one compiled loop:
continuation (o, k) copies state k, appends option o to the deciding seat's script as its one
choice (its bot follows its script, then its base policy: `script:then=greedy`), seeds the
engine with key k and plays to the end. Row o * K + k of the outcome is continuation (o, k).

`resume` plays a saved state forward on the batch engine with the packed rules cached
(a search bot plays its real game turn by turn: packing the rules per turn would cost more
than the turn).
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from . import batch_io
from .codes import DECISIONS
from .jit import kernel
from .rules import _check_players, _pack, check_error
from .state import O_SCRIPT, O_SCRIPT_N, O_SPOS, R_E, R_L
from .turn import outcome, run

@kernel
def play_branches(gs, rk, u0, pol, seat, kind, options, keys, fat, left, nstr, win, played, misc, none, g, u):
    """Every (option, determinization) pair to the end: row o * K + k (see the module doc);
    `g`, `u`: one game array and one uint64 scratch the size of gs[k] and u0 to play them on
    (allocated by the caller: the build compiles without numba's reference counting, jit.py)."""
    K, O = gs.shape[0], options.shape[0]
    at = rk[O_SCRIPT] + seat * rk[R_L] * 2
    for o in range(O):
        for k in range(K):
            for j in range(g.shape[0]):        # element by element: a slice view needs NRT
                g[j] = gs[k, j]
            # the forced option goes after the rows the seat's policy packed (a greedy
            # fallback keeps its own rows, its weights among them, first)
            n0 = g[rk[O_SCRIPT_N] + seat]
            g[at + n0 * 2] = kind
            g[at + n0 * 2 + 1] = options[o]
            g[rk[O_SCRIPT_N] + seat] = n0 + 1
            g[rk[O_SPOS] + seat] = 0
            for j in range(u.shape[0]):
                u[j] = u0[j]
            u[0] = keys[k]
            run(g, rk, u, pol, 2, none, 0)      # none: (0, 0, 0), no trajectories
            outcome(g, rk, o * K + k, fat, left, nstr, win, played, misc)


def branch(rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
    """Outcomes (the batch engine's dict, B = len(options) * len(states)) of playing each
    option of decision `kind` of `seat` from each state, continuation k seeded by keys[k]."""
    if kind not in DECISIONS:
        raise UserError(f"unknown decision kind {kind!r}; kinds: {', '.join(DECISIONS)}", key="kinds")
    players = batch_io.players_of(states[0])
    policies = [b.batch_policy(rs) for b in bots]
    _check_players(rs, players, policies)
    rk, g0, u, pol = _pack(rs, players, policies, seed)
    gs = np.zeros((len(states), len(g0)), np.int64)
    for k, st in enumerate(states):
        gs[k] = g0
        batch_io.load(rs, rk, gs[k], st, game)
    options = np.asarray(options, np.int64)
    B, P, E = len(options) * len(states), players, int(rk[R_E])
    fat, left, nstr = (np.zeros((B, P), np.int64) for _ in range(3))
    win = np.zeros((B, P), np.bool_)
    played = np.zeros((B, P, E), np.int64)
    misc = np.zeros((B, 5), np.int64)
    play_branches(gs, rk, u, pol, seat, DECISIONS.index(kind), options, np.asarray(keys, np.uint64),
                  fat, left, nstr, win, played, misc, np.zeros((0, 0, 0), np.int64), np.empty_like(g0), u.copy())
    for b in np.flatnonzero(misc[:, 4]):
        check_error(int(misc[b, 4]), game)
    turns = misc[:, 0]
    return {"fatigue": fat, "winner": win, "rounds": -(-turns // P), "end_reason": misc[:, 3].copy(),
            "played": played, "turns": turns.copy(), "revolutions": misc[:, 1].copy(),
            "boxed": misc[:, 2].copy(), "faction": np.tile(np.arange(P), (B, 1))}
