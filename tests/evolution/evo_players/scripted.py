"""Scripted players for the tests, as a compiled policy the batch engine receives like any
bot (simcore.games.evolution.decisions.Policy). They are not bots of the game: they play
what a test tells them, and live here, out of the production engine path.

One policy serves every scripted player; its memory row (one per seat) says how it plays:
- feeding: EAGER (the first option other than forgoing, if any) or SCRIPT (the next
  option of its script; one that is not legal is an error the engine reports; when the
  script runs out, the first option: forgo where allowed);
- cards: PASS (its lowest card is its food card; it plays no other card) or PLAY (its
  food card and card action rows, given).
The engine writes the row back after each call, so `scripted(...)`'s caller sees how far
the script got (`used`).
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution.decisions import Policy
from simcore.games.evolution.jit import kernel
from simcore.games.evolution.kernels import MAX_ACTS
from simcore.games.evolution.kernels_board import hand_min
from simcore.games.evolution.packed import FORGO

EAGER, SCRIPT = 0, 1        # feeding modes
PASS, PLAY = 0, 1           # card modes
# memory row layout
FEED_MODE, CARD_MODE, POS, N_SCRIPT, FOOD, N_ACTS, ACTS = 0, 1, 2, 3, 4, 5, 6
SCRIPT_ROWS = ACTS + 4 * MAX_ACTS


@kernel
def _food(a, rk, b, seat, mem):
    if mem[CARD_MODE] == PLAY:
        return mem[FOOD]
    return hand_min(a, b, seat) if a.hand_n[b, seat] > 0 else np.int64(-1)


@kernel
def _plan(a, rk, b, seat, acts, mem):
    if mem[CARD_MODE] != PLAY:
        return np.int64(0)
    n = mem[N_ACTS]
    for j in range(n):
        for f in range(4):
            acts[j, f] = mem[ACTS + 4 * j + f]
    return n


@kernel
def _feed(a, rk, b, seat, opts, n_opts, turn, mem):
    if mem[FEED_MODE] == SCRIPT:
        if mem[POS] < mem[N_SCRIPT]:
            at = SCRIPT_ROWS + 5 * mem[POS]
            mem[POS] += 1
            for r in range(n_opts):
                same = True
                for f in range(5):
                    if opts[r, f] != mem[at + f]:
                        same = False
                if same:
                    return np.int64(r)
            return np.int64(-1)              # not legal: the engine stops and says so
        return np.int64(0)
    for r in range(n_opts):
        if opts[r, 0] != FORGO:
            return np.int64(r)
    return np.int64(0)


def scripted(script_rows=None, food_card=None, action_rows=()) -> Policy:
    """A scripted player: feeding options (rows [kind, s, q, d, negate]) to play in order
    (None: eager), and optionally its food card and card action rows [kind, card, s, slot]."""
    rows = list(script_rows or [])
    mem = np.zeros(SCRIPT_ROWS + 5 * len(rows), np.int64)
    mem[FEED_MODE] = EAGER if script_rows is None else SCRIPT
    mem[N_SCRIPT] = len(rows)
    for j, r in enumerate(rows):
        mem[SCRIPT_ROWS + 5 * j:SCRIPT_ROWS + 5 * j + 5] = r
    if food_card is not None:
        mem[CARD_MODE] = PLAY
        mem[FOOD] = food_card
        mem[N_ACTS] = len(action_rows)
        for j, r in enumerate(action_rows):
            mem[ACTS + 4 * j:ACTS + 4 * j + 4] = r
    return Policy("scripted", _food, _plan, _feed, mem)


def used(policy: Policy) -> int:
    """How many scripted feeding options the engine has played."""
    return int(policy.memory[POS])
