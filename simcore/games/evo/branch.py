"""Start a batch of the compiled engine from a saved decision point (the search
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
from .rules import _outputs, _quiet, _rows, check_error, check_players, pack, policies_of
from .state import O_OPTS, Packed, O_PTMP, O_SCRIPT, O_SCRIPT_N, O_SPOS, PMEM_HEAD, R_E, R_L, R_P, R_Z


@kernel
def play_one(pre, g0, rk, u0, pol, seat, kind, options, keys, o, k, score, dinos, win, won, misc, standing, g, u):
    """Continuation (o, k) to the end, into row o * K + k: state k (pre[k]: its words up to
    the option rows, all a determinization changes; g0: the rest, the scripts, the counts
    and the policies' memory, alike for every k) with option o forced, seeded by keys[k]."""
    K = pre.shape[0]
    at = rk[O_SCRIPT] + seat * rk[R_L] * 2
    P = rk[R_P]
    # what a continuation reads before it writes (setup's rule, batch_phases.setup): the
    # state up to the option rows, each seat's script rows, and from the script counts to
    # the end of the policies' memory; the option rows, the unused script rows and the options'
    # scores (5/6 of g) are written before they are read, so they are not copied
    memory_end = rk[O_PTMP] + P * (PMEM_HEAD + rk[R_Z])
    for i in range(rk[O_OPTS]):        # (g[:] = pre[k] would allocate a copy)
        g[i] = pre[k, i]
    for s in range(P):
        row = rk[O_SCRIPT] + s * rk[R_L] * 2
        for i in range(row, row + 2 * g0[rk[O_SCRIPT_N] + s]):
            g[i] = g0[i]
    for i in range(rk[O_SCRIPT_N], memory_end):
        g[i] = g0[i]
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


@kernel
def play_branches(pre, g0, rk, u0, pol, seat, kind, options, keys, score, dinos, win, won, misc, standing, g, u):
    """Every (option, determinization) pair to the end: row o * K + k (see the module doc);
    g and u: the scratch game and streams (compiled code allocates nothing, jit.py)."""
    for o in range(options.shape[0]):
        for k in range(pre.shape[0]):
            play_one(pre, g0, rk, u0, pol, seat, kind, options, keys, o, k, score, dinos, win, won, misc,
                     standing, g, u)


@kernel
def play_pruned(pre, g0, rk, u0, pol, seat, kind, options, keys, unit, score, dinos, win, won, misc, standing,
                g, u, live, wins, played):
    """play_branches, determinization by determinization, leaving out the continuations of
    an option that cannot have the best mean win share (live[o] = 0): its wins so far
    (in units of 1/unit of a game, unit a multiple of every possible count of winners, so
    exact) plus a whole game for each continuation left are fewer than another option's
    wins so far. Such an option's mean is below that other option's, so it is not the
    search's choice; every live option's rows are all played (row o * K + k, as
    play_branches)."""
    K, O, P = pre.shape[0], options.shape[0], rk[R_P]
    best = 0                  # the most wins so far of any option: a lower bound of its total
    for k in range(K):
        for o in range(O):
            if live[o] == 0:
                continue
            play_one(pre, g0, rk, u0, pol, seat, kind, options, keys, o, k, score, dinos, win, won, misc,
                     standing, g, u)
            b = o * K + k
            played[o] += 1
            if win[b, seat]:
                n = 0
                for s in range(P):
                    n += win[b, s]
                wins[o] += unit // n
            if wins[o] > best:
                best = wins[o]
            for x in range(O):
                if live[x] == 1 and wins[x] + unit * (K - played[x]) < best:
                    live[x] = 0


def _prepare(rs, states, seat, kind, options, bots, seed, game, keys):
    if kind not in DECISIONS:
        raise UserError(f"unknown decision kind {kind!r}; kinds: {', '.join(DECISIONS)}", key="kinds")
    players = batch_io.players_of(states[0])
    policies = policies_of(rs, bots)
    check_players(rs, players, policies)
    pk, pol = pack(rs, players, policies, seed, max(batch_io.rounds_needed(st) for st in states))
    # states[0] loaded whole; the others (determinizations of one state) differ only in
    # their hidden part (batch_io.load_hidden); any other state is loaded whole
    batch_io.load(rs, pk, states[0], game)     # clears all of g but the scripts
    n = int(pk.rk[O_OPTS])
    pre = np.empty((len(states), n), np.int64)
    pre[0] = pk.g[:n]
    for k in range(1, len(states)):
        if batch_io.same_public(states[0], states[k]):
            pre[k] = pre[0]
            batch_io.load_hidden(rs, pk.rk, pre[k], states[k])
        else:
            g = pk.g.copy()
            batch_io.load(rs, Packed(pk.rk, g, pk.u), states[k], game)
            pre[k] = g[:n]
    options = np.asarray(options, np.int64)
    B = len(options) * len(states)
    outs = _outputs(B, players, int(pk.rk[R_E]), 0)[:5] + (np.zeros((B, 0, players), np.int64),)
    head = (pre, pk.g, pk.rk, pk.u, pol, seat, DECISIONS.index(kind), options, np.asarray(keys, np.uint64))
    return head, outs, (pk.g.copy(), pk.u.copy())


def branch(rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
    """Outcomes (the batch engine's dict, B = len(options) * len(states)) of playing each
    option of decision `kind` of `seat` from each state, continuation k seeded by keys[k]."""
    head, outs, scratch = _prepare(rs, states, seat, kind, options, bots, seed, game, keys)
    with _quiet():
        play_branches(*head, *outs, *scratch)
    misc = outs[4]
    for b in np.flatnonzero(misc[:, 8]):
        check_error(int(misc[b, 8]), game)
    return _rows(*outs[:5], None, False)


def branch_pruned(rs, states, seat, kind, options, bots, seed, game, keys) -> tuple[dict, np.ndarray]:
    """(outcomes, live): `branch`'s outcomes of the options that can still have the best mean
    win share of `seat` (live, one bool per option; play_pruned), every row of such an
    option as `branch` plays it; the rows of the others are partly played and not to be read.
    The option with the best mean (win share, then margin) over the live ones is the one
    over all options (docs/rollout.md)."""
    head, outs, scratch = _prepare(rs, states, seat, kind, options, bots, seed, game, keys)
    O = len(head[7])
    P = outs[0].shape[1]
    unit = int(np.lcm.reduce(np.arange(1, P + 1)))
    live = np.ones(O, np.int64)
    with _quiet():
        play_pruned(*head, unit, *outs, *scratch, live, np.zeros(O, np.int64), np.zeros(O, np.int64))
    misc = outs[4]
    for b in np.flatnonzero(misc[:, 8]):
        check_error(int(misc[b, 8]), game)
    return _rows(*outs[:5], None, False), live.astype(bool)
